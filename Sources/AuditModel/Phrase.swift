import ImgtraceSupport

/// A sentence of a report as data: its words apart from the names, paths and commands it quotes,
/// so each format shows a quoted part its own way (a code span in Markdown, `<code>` in HTML,
/// between backticks in text) without reading it back out of the words.
///
/// Written as a string literal, backticks mark the quoted parts: `"run \`imgtrace rules\`"`.
/// Values put in with `\(…)` are data, never markup: they land in the part that is open, and
/// `\(code: name)` quotes one. So a name holding a backtick stays one quoted part.
public struct Phrase: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// One run of the sentence.
    public enum Part: Sendable, Hashable {
        /// Words, shown as they are.
        case words(String)
        /// A quoted name, path or command.
        case code(String)
    }

    /// The runs in order; two runs of words never follow each other.
    public private(set) var parts: [Part]

    public init(stringLiteral value: String) {
        var builder = StringInterpolation(literalCapacity: 0, interpolationCount: 0)
        builder.appendLiteral(value)
        self.init(stringInterpolation: builder)
    }

    public init(stringInterpolation: StringInterpolation) {
        assert(!stringInterpolation.inCode, "a phrase literal leaves a backtick open")
        parts = stringInterpolation.parts
    }

    /// These runs, two runs of words in a row made one.
    public init(parts: [Part]) {
        var joined: [Part] = []
        for part in parts { Self.append(part, to: &joined) }
        self.parts = joined
    }

    /// Plain words, taken as data.
    public init(words: String) { parts = words.isEmpty ? [] : [.words(words)] }

    /// Text that marks its quoted parts with backticks, as the warnings of the log and bundle
    /// readers do (`SafeText.quoted` escapes a name's own backticks, so they pair). Text with
    /// unpaired backticks is words only.
    public init(marked text: String) {
        let runs = text.split(separator: "`", omittingEmptySubsequences: false)
        guard runs.count >= 3, runs.count % 2 == 1 else {
            parts = text.isEmpty ? [] : [.words(text)]
            return
        }
        var marked: [Part] = []
        for (index, run) in runs.enumerated() {
            if index % 2 == 1 {
                marked.append(.code(String(run)))
            } else if !run.isEmpty {
                marked.append(.words(String(run)))
            }
        }
        parts = marked
    }

    /// The sentence as text reports write it: each quoted part between backticks, shown with
    /// `SafeText.quoted`.
    public var text: String {
        if parts.count == 1, case .words(let words) = parts[0] { return words }
        var out = ""
        for part in parts {
            switch part {
            case .words(let words): out += words
            case .code(let name): out += SafeText.quoted(name)
            }
        }
        return out
    }

    public var description: String { text }
    public var isEmpty: Bool { parts.isEmpty }

    /// `self` followed by `other`.
    public static func + (phrase: Phrase, other: Phrase) -> Phrase {
        var joined = phrase
        joined.append(other)
        return joined
    }

    /// `other` added at the end of `phrase`.
    public static func += (phrase: inout Phrase, other: Phrase) { phrase.append(other) }

    /// `other` added at the end.
    public mutating func append(_ other: Phrase) {
        for part in other.parts { Self.append(part, to: &parts) }
    }

    /// `phrases` with `separator` between them.
    public static func joined(_ phrases: [Phrase], separator: Phrase) -> Phrase {
        var out = Phrase(words: "")
        for (index, phrase) in phrases.enumerated() {
            if index > 0 { out.append(separator) }
            out.append(phrase)
        }
        return out
    }

    fileprivate static func append(_ part: Part, to parts: inout [Part]) {
        // Words stay one run, so a format that works word by word (Markdown) sees each word whole.
        if case .words(let words) = part, case .words(let before)? = parts.last {
            parts[parts.count - 1] = .words(before + words)
        } else if case .words(let words) = part, words.isEmpty {
            return
        } else {
            parts.append(part)
        }
    }

    /// Builds a phrase from a literal and its values.
    public struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var parts: [Part] = []
        /// Inside a backtick span of the literal: values join the quoted part.
        fileprivate var inCode = false
        private var code = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(2 * interpolationCount + 1)
        }

        public mutating func appendLiteral(_ literal: String) {
            guard literal.utf8.contains(UInt8(ascii: "`")) else {
                inCode ? code += literal : Phrase.append(.words(literal), to: &parts)
                return
            }
            for (index, run) in literal.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
                if index > 0 {
                    if inCode { parts.append(.code(code)) }
                    code = ""
                    inCode.toggle()
                }
                inCode ? code += run : Phrase.append(.words(String(run)), to: &parts)
            }
        }

        /// Text as words, or into the quoted part a backtick of the literal opened.
        public mutating func appendInterpolation(_ text: String) {
            inCode ? code += text : Phrase.append(.words(text), to: &parts)
        }

        /// A number as words, or into the quoted part a backtick of the literal opened.
        public mutating func appendInterpolation(_ number: Int) { appendInterpolation(String(number)) }

        /// A value as words, or into the quoted part a backtick of the literal opened.
        public mutating func appendInterpolation<Value>(_ value: Value) { appendInterpolation(String(describing: value)) }

        /// A name, path or command quoted.
        public mutating func appendInterpolation(code name: String) {
            assert(!inCode, "a quoted value inside a backtick span")
            parts.append(.code(name))
        }

        /// Another phrase, its quoted parts kept.
        public mutating func appendInterpolation(_ phrase: Phrase) {
            assert(!inCode, "a phrase inside a backtick span")
            for part in phrase.parts { Phrase.append(part, to: &parts) }
        }
    }
}
