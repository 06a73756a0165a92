import AuditModel
import ImgtraceSupport

/// Text safe for a Markdown renderer (GitHub's pull-request comments and job summaries): a name
/// is only ever shown inside a code span, where nothing renders — no image, link, autolink,
/// `@mention` or HTML — and our sentences are escaped around them (docs/output-safety.md).
enum MarkdownText {
    /// `text` as a code span showing it exactly (controls as visible escapes): the fence is one
    /// backtick longer than the longest run of backticks inside, and a pipe is escaped in a table
    /// cell, where GitHub reads it before the code span.
    static func code(_ text: String, inTable: Bool = true) -> String {
        var content = SafeText.visible(text)
        if content.isEmpty { content = "\"\"" }
        if inTable { content = content.replacingOccurrences(of: "|", with: "\\|") }
        var longest = 0, run = 0
        for character in content {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A span that starts or ends with a backtick (or a space) needs a space inside each fence.
        let padded = content.first == "`" || content.last == "`" || content.first == " " || content.last == " "
        return padded ? "\(fence) \(content) \(fence)" : fence + content + fence
    }

    /// One of our sentences: its quoted parts become code spans, the words between them are
    /// escaped, and a word that a renderer would turn into a link or mention (`@`, `#`, `://`,
    /// `www.`) becomes a code span too.
    static func sentence(_ phrase: Phrase, inTable: Bool = true) -> String {
        var out = ""
        for part in phrase.parts {
            switch part {
            case .code(let shown): out += code(shown, inTable: inTable)
            case .words(let words): out += escapedWords(words, inTable: inTable)
            }
        }
        return out
    }

    /// A sentence that marks its names with backticks (`SafeText.quoted`), as warnings do.
    static func sentence(_ text: String, inTable: Bool = true) -> String { sentence(Phrase(marked: text), inTable: inTable) }

    private static func escapedWords(_ part: String, inTable: Bool) -> String {
        let words = part.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            let lower = word.lowercased()
            guard word.contains("@") || word.contains("#") || lower.contains("://") || lower.contains("www.") || lower.contains("mailto:") || lower.contains("xmpp:") else {
                return escaped(SafeText.visible(String(word)))
            }
            // The word in a code span, its surrounding punctuation left outside: `@3x`).
            let core = word.drop { "(\"'".contains($0) }
            let head = word[..<core.startIndex]
            var end = core.endIndex
            while end > core.startIndex, ")\"',.;:".contains(core[core.index(before: end)]) { end = core.index(before: end) }
            return escaped(String(head)) + code(String(core[..<end]), inTable: inTable) + escaped(String(core[end...]))
        }
        return words.joined(separator: " ")
    }

    /// Backslash before every ASCII punctuation character Markdown could read as markup.
    private static func escaped(_ word: String) -> String {
        var out = ""
        for character in word {
            if "\\`*_[]<>!|~&".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
