/// Whether a bare line of Xcode's console has the shape of an image name, or of what an app
/// prints itself (`print()`, `dump()`, `debugPrint`, a logger without a timestamp).
///
/// A `po $arg3` breakpoint prints each name as a bare line, between the app's own lines. A line
/// that resolves to an image is a load whatever its shape; one that does not is a missing image
/// only when it looks like a name (docs/trace-logs.md, "Bare lines").
public enum NameShape: Sendable, Equatable {
    /// What asset and file names look like: one word, a path, or words that are each
    /// capitalised or carry a name's punctuation (`Profile Header`, `Tab_Profile`, `icon-2`).
    case name
    /// A value or a sentence: a number or boolean, Swift or Objective-C value syntax
    /// (`Optional(…)`, `<Class: 0x…>`, collections, `key = value`), dump markers, a URL, words
    /// with a number among them, four words or more that are not all a name's, an ellipsis.
    case output
    /// Words that may be either (`hero image`, `viewDidLoad called`): not judged, and said.
    case unsure

    /// The shape of `text`, a bare line without its line break.
    public static func of(_ text: String) -> NameShape {
        if isPlainWord(text), !text.hasPrefix("www.") { return .name }
        let line = text.trimmingSpaces
        guard !line.isEmpty else { return .output }
        if isValue(line) { return .output }
        if line.hasSuffix("...") || line.hasSuffix("…") { return .output }
        // A path is a name (`imageWithContentsOfFile:`), blanks and all.
        if line.hasPrefix("/") || line.hasPrefix("~/") { return .name }
        let words = line.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count > 1 else { return .name }
        if words.contains(where: { isNumber($0) }) { return .output }
        if words.allSatisfy(isNameWord) { return .name }
        // Four words or more, not all a name's: a log message.
        return words.count >= 4 ? .output : .unsure
    }

    /// Printed values: numbers, booleans, optionals, object descriptions, collections and
    /// tuples, `key = value` and `key: value`, dump markers, URLs, log tags, calls, addresses.
    private static func isValue(_ line: Substring) -> Bool {
        if isNumber(line) || booleans.contains(String(line)) { return true }
        if line.hasPrefix("Optional(") || line.hasPrefix("Optional<") || line.hasPrefix("some(") { return true }
        if let first = line.first, let last = line.last, let close = brackets[first], close == last { return true }
        if line.contains(" = ") || line.contains(": ") || line.hasSuffix(":") { return true }
        if line.hasPrefix("▿") || line.hasPrefix("▹") || line.hasPrefix("- ") || line.hasPrefix("* ") { return true }
        if line.contains("://") || line.hasPrefix("www.") { return true }
        // A logger's level tag (`[DEBUG] started`), a call or an initializer (`viewDidLoad()`,
        // `print(#function)`, `CGSize(width: 1, height: 2)`).
        if line.hasPrefix("["), line.contains("]") { return true }
        if line.hasSuffix(")"), line.contains("(") { return true }
        if line.hasPrefix("0x"), line.count > 2, line.dropFirst(2).allSatisfy(\.isHexDigit) { return true }
        return false
    }

    /// The common case, read in one pass over the bytes: one word of letters, digits and a
    /// name's punctuation, starting with a letter (`tab_home`, `logo@2x.png`), not a boolean
    /// and not trailing off (`Loading...`).
    private static func isPlainWord(_ text: String) -> Bool {
        var count = 0
        var dots = 0
        for byte in text.utf8 {
            let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
            if count == 0 && !letter { return false }
            let digit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
            guard letter || digit || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@") || byte == UInt8(ascii: ".") else {
                return false
            }
            dots = byte == UInt8(ascii: ".") ? dots + 1 : 0
            count += 1
        }
        return count > 0 && dots < 3 && (count > 5 || !booleans.contains(text))
    }

    private static let booleans: Set<String> = ["true", "false", "YES", "NO", "TRUE", "FALSE", "True", "False", "yes", "no"]
    private static let brackets: [Character: Character] = ["<": ">", "[": "]", "{": "}", "(": ")", "\"": "\""]

    /// `42`, `-3`, `0.5`, `1,024`.
    private static func isNumber(_ word: Substring) -> Bool {
        var digits = 0
        for (index, character) in word.enumerated() {
            if character.isASCII, character.isNumber {
                digits += 1
            } else if !(character == "." || character == "," || ((character == "-" || character == "+") && index == 0)) {
                return false
            }
        }
        return digits > 0
    }

    /// A word of a name with blanks: capitalised (`Profile`), or carrying a name's own
    /// punctuation or digits (`tab_bar`, `icon-2`, `logo@2x`).
    private static func isNameWord(_ word: Substring) -> Bool {
        if let first = word.first, first.isUppercase { return true }
        return word.contains { $0 == "_" || $0 == "-" || $0 == "@" || $0 == "." || ($0.isASCII && $0.isNumber) }
    }
}

extension String {
    /// Without leading and trailing blanks and tabs.
    fileprivate var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
        return self[start..<max(start, end)]
    }
}
