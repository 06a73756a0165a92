import ArgumentParser
import ImgtraceSupport

/// "Did you mean" for a usage error: a command or an option the user mistyped (`analyse`,
/// `--bundel`) is named with the nearest real one, where argument-parser's own message would
/// only count unexpected arguments or miss the option.
enum UsageHints {
    /// The hint for `arguments` (as the process got them), or nil when every word is known.
    static func hint(for arguments: [String]) -> String? {
        var command: ParsableCommand.Type = Imgtrace.self
        var path = "imgtrace"
        var rest = arguments.dropFirst()
        while let word = rest.first, !word.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { break }
            if let match = subcommands.first(where: { name(of: $0) == word }) {
                command = match
                path += " " + word
                rest = rest.dropFirst()
                continue
            }
            let names = subcommands.map { name(of: $0) }
            let typed = SafeText.quoted(word)
            guard let near = nearest(word, among: names) else { return "unknown command \(typed); `\(path) --help` lists them" }
            return "unknown command \(typed); did you mean `\(path) \(near)`?"
        }
        let known = options(of: command)
        for (token, next) in zip(rest, rest.dropFirst().map(Optional.some) + [nil]) {
            if token == "--" { break }
            guard token.hasPrefix("--") else { continue }
            let name = String(token.split(separator: "=", maxSplits: 1)[0])
            // argument-parser takes `-3` for a short option and calls the value missing.
            if known.contains(name), !token.contains("="), let next, next.count > 1, next.hasPrefix("-"), next.dropFirst().allSatisfy(\.isNumber) {
                return "\(SafeText.quoted(name)) takes no negative value (\(SafeText.quoted(next))): give 0 or more"
            }
            guard !known.contains(name) else { continue }
            let typed = SafeText.quoted(name)
            guard let near = nearest(name, among: known.sorted()) else { return "unknown option \(typed); `\(path) --help` lists them" }
            return "unknown option \(typed); did you mean `\(near)`?"
        }
        return nil
    }

    /// The shell of argument-parser's five-line refusal of a completion script, which one line says.
    static func unsupportedCompletionShell(in message: String) -> String? {
        let prefix = "Error: Can't generate completion scripts for '"
        guard message.hasPrefix(prefix), let end = message.dropFirst(prefix.count).firstIndex(of: "'") else { return nil }
        return String(message[message.index(message.startIndex, offsetBy: prefix.count)..<end])
    }

    /// A command's name: its configuration's, else its type's in kebab case, as argument-parser derives it.
    static func name(of command: any ParsableCommand.Type) -> String {
        if let name = command.configuration.commandName { return name }
        var out = ""
        for character in String(describing: command) {
            if character.isUppercase, !out.isEmpty { out.append("-") }
            out.append(Character(character.lowercased()))
        }
        return out
    }

    /// The long options `command` takes, read from its help.
    static func options(of command: ParsableCommand.Type) -> Set<String> {
        let help = helpText(command)
        // argument-parser's own options, which no help lists.
        var names: Set<String> = ["--help", "--version", "--generate-completion-script", "--experimental-dump-help", "--generate-manual"]
        var current = ""
        for character in help + " " {
            if character.isLetter || character.isNumber || character == "-" {
                current.append(character)
            } else {
                if current.hasPrefix("--"), current.count > 2 { names.insert(current) }
                current = ""
            }
        }
        return names
    }

    private static func helpText<C: ParsableCommand>(_ command: C.Type) -> String { C.helpMessage(columns: 400) }

    private static func helpText(_ command: any ParsableCommand.Type) -> String { openedHelp(command) }

    private static func openedHelp(_ command: any ParsableCommand.Type) -> String {
        func open<C: ParsableCommand>(_ type: C.Type) -> String { C.helpMessage(columns: 400) }
        return open(command)
    }

    /// The candidate nearest to `word` by edit distance, when it is near enough to be a typo:
    /// at most a third of the word's letters, and never more than 3.
    static func nearest(_ word: String, among candidates: [String]) -> String? {
        let limit = min(3, max(1, word.count / 3))
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }.filter { $0.1 <= limit }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }

    /// Levenshtein distance, with a swap of neighbours counting one (`analyse` ↔ `analyze` is 1).
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        for i in 1...x.count {
            var current = [i] + [Int](repeating: 0, count: y.count)
            for j in 1...y.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x[i - 1] == y[j - 1] ? 0 : 1))
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
            }
            previous2 = previous
            previous = current
        }
        return previous[y.count]
    }
}
