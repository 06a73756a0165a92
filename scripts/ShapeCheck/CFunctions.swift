import Foundation

/// C function definitions in `file` whose body runs over `limit` lines. The agent's C is written
/// in one layout (a definition starts at column 0, its body closes with a `}` alone on a line), so
/// the layout finds them; a definition written otherwise is not measured, which the layout check
/// below refuses rather than miss: a `{` ending a column-0 line that is not a definition's.
func longCFunctions(_ file: String, _ text: String, limit: Int) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var found: [String] = []
    var index = 0
    while index < lines.count {
        guard startsDefinition(lines[index]), let open = bodyOpening(lines, from: index) else {
            index += 1
            continue
        }
        var close = open + 1
        while close < lines.count, lines[close] != "}" { close += 1 }
        let length = close - open + 1
        if length > limit {
            let name = lines[index].split(separator: "(").first.map { String($0.split(separator: " ").last ?? "") } ?? ""
            found.append("\(file):\(index + 1): C function \(name) has a body of \(length) lines (at most \(limit)): split it")
        }
        index = close + 1
    }
    return found
}

/// A column-0 line that names a function: code (not a directive, comment or brace), a parameter
/// list, and no initialiser before it.
private func startsDefinition(_ line: String) -> Bool {
    guard let first = line.first, !first.isWhitespace, !"#/}*".contains(first), let paren = line.firstIndex(of: "(") else { return false }
    return !line[..<paren].contains("=")
}

/// The line whose trailing `{` opens the definition that starts at `start` (nil: a declaration).
private func bodyOpening(_ lines: [String], from start: Int) -> Int? {
    var line = start
    while line < lines.count {
        let text = lines[line].trimmingCharacters(in: .whitespaces)
        if text.hasSuffix("{") { return line }
        if text.contains(";") { return nil }
        line += 1
    }
    return nil
}
