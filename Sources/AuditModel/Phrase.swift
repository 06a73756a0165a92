import ImgtraceSupport

/// A sentence of a report as data: its words apart from the names, paths and commands it quotes,
/// so each format shows a quoted part its own way (a code span in Markdown, `<code>` in HTML,
/// between backticks in text) without reading it back out of the words.
///
/// Written as a string literal, backticks mark the quoted parts: `"run \`imgtrace rules\`"`.
/// Values put in with `\(…)` are data, never markup: they land in the part that is open, and
/// `\(code: name)` quotes one. So a name holding a backtick stays one quoted part.
///
/// Stored as the text a text report writes and where in it each quoted part lies: a report of a
/// hundred thousand loads writes each load's resolution, and reads it without building it again.
package struct Phrase: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// One run of the sentence.
    package enum Part: Sendable, Hashable {
        /// Words, shown as they are.
        case words(String)
        /// A quoted name, path or command as shown: controls and its own backticks written as
        /// visible escapes (`SafeText.quotedContent`).
        case code(String)
    }

    /// The sentence as text reports write it: each quoted part between backticks.
    package private(set) var text: String
    /// The UTF-8 offsets in `text` of each quoted part, its backticks excluded, in order.
    private var quotes: [Range<Int>]

    package init(stringLiteral value: String) {
        guard value.utf8.contains(UInt8(ascii: "`")) else {
            self.init(words: value)
            return
        }
        var builder = StringInterpolation(literalCapacity: value.utf8.count, interpolationCount: 0)
        builder.appendLiteral(value)
        self.init(stringInterpolation: builder)
    }

    package init(stringInterpolation: StringInterpolation) {
        assert(!stringInterpolation.inCode, "a phrase literal leaves a backtick open")
        text = stringInterpolation.text
        quotes = stringInterpolation.quotes
    }

    /// These runs; a quoted part is taken as shown (a part of another phrase).
    package init(parts: [Part]) {
        var builder = StringInterpolation(literalCapacity: 0, interpolationCount: parts.count)
        for part in parts {
            switch part {
            case .words(let words): builder.text += words
            case .code(let shown): builder.quote(shown: shown)
            }
        }
        self.init(stringInterpolation: builder)
    }

    /// Plain words, taken as data.
    package init(words: String) {
        text = words
        quotes = []
    }

    /// Text that marks its quoted parts with backticks, as the warnings of the log and bundle
    /// readers do (`SafeText.quoted` escapes a name's own backticks, so they pair). Text with
    /// unpaired backticks is words only.
    package init(marked text: String) {
        self.text = text
        var ticks: [Int] = []
        for (offset, byte) in text.utf8.enumerated() where byte == UInt8(ascii: "`") { ticks.append(offset) }
        guard ticks.count >= 2, ticks.count % 2 == 0 else {
            quotes = []
            return
        }
        quotes = stride(from: 0, to: ticks.count, by: 2).map { ticks[$0] + 1..<ticks[$0 + 1] }
    }

    /// The runs in order: words (never two runs in a row) and quoted parts.
    package var parts: [Part] {
        var parts: [Part] = []
        let bytes = text.utf8
        // One walk over the text: each run starts where the last ended.
        var index = bytes.startIndex
        var offset = 0
        func run(to end: Int) -> String {
            let from = index
            index = bytes.index(index, offsetBy: end - offset)
            offset = end
            return String(Substring(bytes[from..<index]))
        }
        func skipTick() {
            index = bytes.index(after: index)
            offset += 1
        }
        for quote in quotes {
            if quote.lowerBound - 1 > offset { parts.append(.words(run(to: quote.lowerBound - 1))) }
            skipTick()
            parts.append(.code(run(to: quote.upperBound)))
            skipTick()
        }
        if offset < bytes.count { parts.append(.words(run(to: bytes.count))) }
        return parts
    }

    package var description: String { text }
    package var isEmpty: Bool { text.isEmpty }

    /// `self` followed by `other`.
    package static func + (phrase: Phrase, other: Phrase) -> Phrase {
        var joined = phrase
        joined.append(other)
        return joined
    }

    /// `other` added at the end of `phrase`.
    package static func += (phrase: inout Phrase, other: Phrase) { phrase.append(other) }

    /// `other` added at the end.
    package mutating func append(_ other: Phrase) { Self.append(other, text: &text, quotes: &quotes) }

    /// `other`'s text after `text`, its quoted parts moved by what stood before it.
    fileprivate static func append(_ other: Phrase, text: inout String, quotes: inout [Range<Int>]) {
        let shift = text.utf8.count
        text += other.text
        for quote in other.quotes { quotes.append(quote.lowerBound + shift..<quote.upperBound + shift) }
    }

    /// `phrases` with `separator` between them.
    package static func joined(_ phrases: [Phrase], separator: Phrase) -> Phrase {
        var out = Phrase(words: "")
        for (index, phrase) in phrases.enumerated() {
            if index > 0 { out.append(separator) }
            out.append(phrase)
        }
        return out
    }

    /// Builds a phrase from a literal and its values.
    package struct StringInterpolation: StringInterpolationProtocol {
        fileprivate var text = ""
        fileprivate var quotes: [Range<Int>] = []
        /// Inside a backtick span of the literal: text goes into the quoted part, escaped.
        fileprivate var inCode = false
        private var quoteStart = 0

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        /// Our own words: a backtick in them opens or closes a quoted part, and what it quotes is
        /// written as it stands (a literal holds no control character).
        package mutating func appendLiteral(_ literal: String) {
            guard literal.utf8.contains(UInt8(ascii: "`")) else {
                text += literal
                return
            }
            var rest = Substring(literal)
            while let tick = rest.utf8.firstIndex(of: UInt8(ascii: "`")) {
                text += rest[..<tick]
                toggleQuote()
                rest = rest[rest.utf8.index(after: tick)...]
            }
            text += rest
        }

        /// Text as words, or into the quoted part a backtick of the literal opened.
        package mutating func appendInterpolation(_ text: String) { add(text) }

        /// A number as words, or into the quoted part a backtick of the literal opened.
        package mutating func appendInterpolation(_ number: Int) { add(String(number)) }

        /// A value as words, or into the quoted part a backtick of the literal opened.
        package mutating func appendInterpolation(_ value: some CustomStringConvertible) { add(value.description) }

        /// A name, path or command quoted.
        package mutating func appendInterpolation(code name: String) {
            assert(!inCode, "a quoted value inside a backtick span")
            quote(shown: SafeText.quotedContent(name))
        }

        /// Another phrase, its quoted parts kept.
        package mutating func appendInterpolation(_ phrase: Phrase) {
            assert(!inCode, "a phrase inside a backtick span")
            Phrase.append(phrase, text: &text, quotes: &quotes)
        }

        fileprivate mutating func quote(shown: String) {
            text += "`"
            let start = text.utf8.count
            text += shown
            quotes.append(start..<text.utf8.count)
            text += "`"
        }

        private mutating func add(_ piece: String) { text += inCode ? SafeText.quotedContent(piece) : piece }

        private mutating func toggleQuote() {
            text += "`"
            if inCode { quotes.append(quoteStart..<text.utf8.count - 1) } else { quoteStart = text.utf8.count }
            inCode.toggle()
        }
    }
}
