import Foundation

/// What an echoed debugger command is, as far as the reader cares.
enum CommandKind: Equatable {
    /// Prints a value as text that may span lines (`po`, `expr -O`, `script print`).
    case printObject
    /// Prints a typed value (`p`, `expr`, `x/s`, `frame variable`, `register read`).
    case printValue
    case backtrace
    case resume
    /// `breakpoint set …` / `b …`: set-up of a new breakpoint.
    case setBreakpoint(BreakpointSetup)
    /// `breakpoint command add -o CMD ID`.
    case setActions(id: String, actions: [String])
    case other
}

/// The parts of a `breakpoint set` command that matter here.
struct BreakpointSetup: Equatable {
    var symbol: String?
    var actions: [String] = []
    var oneShot = false
}

enum DebuggerCommand {
    /// Classifies one echoed command line (the text after the prompt).
    static func classify(_ command: String) -> CommandKind {
        let words = tokenize(command)
        guard var first = words.first else { return .other }
        // `x/s`, `p/x`, `po/…`: the format suffix does not change the kind.
        if let slash = first.firstIndex(of: "/"), slash != first.startIndex { first = String(first[..<slash]) }
        switch first {
        case "po":
            return .printObject
        case "p", "print", "call", "dwim-print", "frame", "fr", "v", "x", "memory", "register", "re", "reg", "parray", "poarray":
            if first == "frame" || first == "fr" { return words.dropFirst().first.map { $0.hasPrefix("v") } == true ? .printValue : .other }
            return .printValue
        case "expr", "expression", "e":
            // `-O` (object description) prints like `po`.
            return words.contains(where: { $0 == "-O" || $0 == "--object-description" || ($0.hasPrefix("-") && !$0.hasPrefix("--") && $0.contains("O")) })
                ? .printObject : .printValue
        case "script":
            // imgtrace's callback (Xcode's action form) prints whole lines of its own.
            if command.contains("imgtrace_request(") { return .other }
            return command.contains("print") ? .printObject : .other
        case "bt":
            return .backtrace
        case "thread":
            if words.count > 1 && (words[1] == "backtrace" || words[1] == "bt") { return .backtrace }
            if words.count > 1 && words[1] == "continue" { return .resume }
            return .other
        case "c", "continue", "cont":
            return .resume
        case "process":
            return words.count > 1 && words[1] == "continue" ? .resume : .other
        case "b", "br", "break", "breakpoint", "_regexp-break", "tbreak", "rbreak":
            return breakpointCommand(words)
        default:
            return .other
        }
    }

    private static func breakpointCommand(_ words: [String]) -> CommandKind {
        let first = words[0]
        if first == "b" || first == "_regexp-break" || first == "break" || first == "tbreak" {
            // `b SYMBOL` (lldb's regex alias) / gdb `break SYMBOL`.
            guard words.count > 1 else { return .other }
            var setup = BreakpointSetup()
            setup.symbol = words.dropFirst().joined(separator: " ")
            setup.oneShot = first == "tbreak"
            return .setBreakpoint(setup)
        }
        guard words.count > 1 else { return .other }
        let sub = words[1]
        if "set".hasPrefix(sub) && !sub.isEmpty {
            var setup = BreakpointSetup()
            var i = 2
            while i < words.count {
                let w = words[i]
                let value = i + 1 < words.count ? words[i + 1] : nil
                switch w {
                case "-n", "--name", "-F", "--fullname", "-S", "--selector", "-M", "--method", "-r", "--func-regex", "-a", "--address":
                    if setup.symbol == nil { setup.symbol = value }
                    i += 2
                case "-C", "--command":
                    if let value { setup.actions.append(value) }
                    i += 2
                case "-o", "--one-shot":
                    setup.oneShot = value != "false" && value != "0"
                    i += 2
                case "-G", "--auto-continue", "-i", "--ignore-count", "-c", "--condition", "-s", "--shlib", "-f", "--file", "-l", "--line", "-N", "--breakpoint-name", "-t",
                    "--thread-id", "-T", "--thread-name", "-q", "--queue-name", "-x", "--thread-index", "-L", "--language", "-K", "--skip-prologue", "-m", "--move-to-nearest-code",
                    "-u", "--column", "-E", "--language-exception", "-X", "--source-regexp-function":
                    i += 2
                default:
                    i += 1
                }
            }
            return .setBreakpoint(setup)
        }
        if sub == "command" || sub == "com", words.count > 2, "add".hasPrefix(words[2]) {
            var actions: [String] = []
            var id: String?
            var i = 3
            while i < words.count {
                let w = words[i]
                if w == "-o" || w == "--one-liner", i + 1 < words.count {
                    actions = [words[i + 1]]
                    i += 2
                } else if w == "-s" || w == "--script-type" || w == "-F" || w == "--python-function" {
                    i += 2
                } else if w.hasPrefix("-") {
                    i += 1
                } else {
                    id = w
                    i += 1
                }
            }
            if let id, !actions.isEmpty { return .setActions(id: id, actions: actions) }
            return .other
        }
        return .other
    }

    /// Splits a command line into words the way lldb's argument parser does: quotes group,
    /// a backslash escapes inside double quotes and outside quotes.
    static func tokenize(_ line: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaping = false
        for ch in line {
            if escaping {
                // lldb keeps `\` before characters that are not special to it.
                if ch != "\"" && ch != "\\" && ch != "`" { current.append("\\") }
                current.append(ch)
                escaping = false
                continue
            }
            if let q = quote {
                if ch == q { quote = nil } else if ch == "\\" && q == "\"" { escaping = true } else { current.append(ch) }
                continue
            }
            switch ch {
            case "\"", "'", "`":
                quote = ch
                inWord = true
            case "\\":
                escaping = true
                inWord = true
            case " ", "\t":
                if inWord { words.append(current); current = ""; inWord = false }
            default:
                current.append(ch)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// `MODULE\`SYMBOL + 21 at FILE:LINE:COL` → `SYMBOL`.
    static func symbol(fromWhere text: String) -> String {
        var s = Substring(text)
        if let tick = s.firstIndex(of: "`") { s = s[s.index(after: tick)...] }
        if let at = s.range(of: " at ") { s = s[..<at.lowerBound] }
        if let plus = s.range(of: " + ", options: .backwards), s[plus.upperBound...].allSatisfy(\.isNumber) {
            s = s[..<plus.lowerBound]
        }
        return String(s)
    }
}
