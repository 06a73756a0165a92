@_spi(RawSyntax) import SwiftSyntax

/// A string literal as the lexer gave it, with what stands next to it.
struct ScannedLiteral: Equatable {
    /// Its text as the syntax tree has it (segments as written), `*` for each interpolation.
    var text = ""
    var hasHoles = false
    /// A `+` just before it, just after it, and a string just after that `+`.
    var plusBefore = false
    var plusAfter = false
    var stringAfterPlus = false

    /// The patterns the syntax tree could make with this literal in them, widest first: its own
    /// (holes), a `+` run's (a hole on each side with a `+`), the run's when literals after it
    /// could turn its end into an image suffix the judgement strips (up to 16 characters:
    /// `@3x~iphone.jpeg`), and a format's (`%` conversions).
    func patterns(formats: Bool) -> [String] {
        var patterns: [String] = []
        if hasHoles { patterns.append(text) }
        if plusBefore || plusAfter { patterns.append((plusBefore ? "*" : "") + text + (plusAfter ? "*" : "")) }
        if plusAfter && stringAfterPlus { patterns.append((plusBefore ? "*" : "") + String(text.dropLast(16)) + "*") }
        if formats, text.contains("%") { patterns.append(ObjCReferences.pattern(text)) }
        return patterns
    }
}

/// Follows the lexer's tokens through strings and interpolations, handing out each literal once
/// the token after it (and after its `+`) tells what stands beside it.
struct LiteralScan {
    enum Step: Equatable {
        case next
        /// Text whose literals the lexer does not give as the parser will (a multi-line or
        /// single-quoted string).
        case unreadable
        case end
    }

    private enum Frame {
        /// Code: the file's, or an interpolation's with the parentheses open in it.
        case code(parentheses: Int)
        case string(ScannedLiteral, raw: Bool)
    }

    private var frames: [Frame] = [.code(parentheses: -1)]
    private var previousWasPlus = false
    private var rawOpening = false
    private var afterBackslash = false
    /// A literal just closed, waiting for the token after it (`skipRawEnd`: its `#` first).
    private var closed: ScannedLiteral?
    private var skipRawEnd = false
    /// A literal followed by `+`, waiting for the token after the `+`.
    private var beforePlus: ScannedLiteral?

    /// Takes the next token: a literal whose neighbours it settled (the end of the file settles
    /// the last), and how the scan goes on.
    mutating func take(_ kind: RawTokenKind, _ text: SyntaxText, atStartOfLine: Bool = false) -> (ScannedLiteral?, Step) {
        var ready: ScannedLiteral?
        if var literal = beforePlus {
            beforePlus = nil
            literal.stringAfterPlus = kind == .stringQuote || kind == .rawStringPoundDelimiter || kind == .multilineStringQuote
            ready = literal
        }
        if var literal = closed {
            if skipRawEnd, kind == .rawStringPoundDelimiter {
                skipRawEnd = false
                return (ready, .next)
            }
            closed = nil
            skipRawEnd = false
            if Self.isPlus(kind, text) {
                literal.plusAfter = true
                beforePlus = literal
            } else {
                ready = literal
            }
        }
        // A string or an interpolation in one left open at a line's end or the file's: the parser
        // recovers from it in ways the lexer does not show.
        if frames.count > 1, atStartOfLine || kind == .endOfFile { return (ready, .unreadable) }
        return (ready, advance(kind, text))
    }

    private static func isPlus(_ kind: RawTokenKind, _ text: SyntaxText) -> Bool {
        (kind == .binaryOperator || kind == .prefixOperator || kind == .postfixOperator) && text == "+"
    }

    private mutating func advance(_ kind: RawTokenKind, _ text: SyntaxText) -> Step {
        if kind == .endOfFile { return .end }
        switch frames[frames.count - 1] {
        case .code(let parentheses):
            let wasPlus = previousWasPlus
            previousWasPlus = Self.isPlus(kind, text)
            switch kind {
            case .multilineStringQuote, .singleQuote:
                return .unreadable
            case .rawStringPoundDelimiter:
                // `#"…"#`: the `+` before the `#` stands before the literal.
                rawOpening = true
                previousWasPlus = wasPlus
            case .stringQuote:
                var literal = ScannedLiteral()
                literal.plusBefore = wasPlus
                frames.append(.string(literal, raw: rawOpening))
                rawOpening = false
            case .leftParen where parentheses >= 0:
                frames[frames.count - 1] = .code(parentheses: parentheses + 1)
            case .rightParen where parentheses >= 0:
                if parentheses == 1 { frames.removeLast() } else { frames[frames.count - 1] = .code(parentheses: parentheses - 1) }
            default:
                rawOpening = false
            }
        case .string(var literal, let raw):
            switch kind {
            case .stringSegment:
                literal.text += String(syntaxText: text)
                frames[frames.count - 1] = .string(literal, raw: raw)
            case .backslash:
                afterBackslash = true
                return .next
            case .rawStringPoundDelimiter where afterBackslash:
                return .next
            case .leftParen where afterBackslash:
                literal.text += "*"
                literal.hasHoles = true
                frames[frames.count - 1] = .string(literal, raw: raw)
                frames.append(.code(parentheses: 1))
                previousWasPlus = false
            case .stringQuote:
                frames.removeLast()
                closed = literal
                skipRawEnd = raw
            default:
                return .unreadable
            }
            afterBackslash = false
        }
        return .next
    }
}
