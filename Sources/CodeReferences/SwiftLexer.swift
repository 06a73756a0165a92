// swift-syntax's own lexer is testing SPI of the exact version the package pins; it is the only
// lexer that splits comments, strings, raw strings, interpolations and regex literals exactly as
// the parser will, which a budget that must hold for hostile files needs.
@_spi(Testing) import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

/// What parsing a Swift file will cost swift-syntax's parser, told before parsing it.
///
/// The parser's time is exponential in the nesting of `[`: at each level its lookahead tries the
/// bracket as a type and then parses it as an expression. Measured (release build, one core) on
/// every shape found: ×2 per level for bare `[`, up to ×2.1 with tuple types, attributes or
/// `inout` between the brackets, 0.3 s at 20 levels, hours at 40. Parentheses, braces and angle
/// brackets alone stay linear. So each `[` costs 2^(1.5·depth) units, a bound above every shape
/// measured; a file over `budget` units is not given to the parser.
///
/// The lexer alone sees what the parser sees except where the parser takes over in its error
/// recovery: an interpolation whose expression does not end at `)` (`"\(a "[[[…`, `"\(= "[[…`:
/// the parser ends the interpolation where the lexer opens a nested string) and a single-quoted
/// string (which Swift does not have). Fuzzing found both hiding brackets from the count. A
/// single-quoted string, a multi-line string opened inside an interpolation or any error the
/// lexer reports make the file not valid Swift: it costs `Int.max`. After a string opened inside
/// an interpolation the rest of the line is counted as if every `[` were code (the costliest of
/// the 1,600 files of a real app stays far under the budget). A file with too few `[` to reach
/// the budget however they nest (`isCheapByBrackets`) is not lexed for the estimate: valid or
/// not, it is parsed.
public enum SwiftParseCost {
    /// The units a file may cost: about 0.7 s of parsing for the worst shape measured. The
    /// costliest of a real app's 1,600 Swift files (home-assistant-ios) costs 978.
    public static let budget = 1 << 23

    /// The most `[` a file may hold and still cost no more than the budget however they nest:
    /// the cost of that many brackets each inside the one before (15).
    static let unlexedBrackets: Int = {
        var count = 0, cost = 0
        while true {
            let next = cost + 1 << ((count + 1) * 3 / 2)
            if next > budget { return count }
            (count, cost) = (count + 1, next)
        }
    }()

    /// Whether `source` is cheap to parse by its bytes alone: it holds no more `[` bytes, in code,
    /// strings and comments alike, than could cost the budget if every one nested in the one
    /// before, so no reading of it — the parser's error recovery included — can cost more.
    /// Such a file (most of a real app's Swift) is parsed without lexing it first.
    package static func isCheapByBrackets(_ source: UnsafeBufferPointer<UInt8>) -> Bool {
        var left = unlexedBrackets
        for byte in source where byte == UInt8(ascii: "[") {
            if left == 0 { return false }
            left -= 1
        }
        return true
    }

    /// The cost of parsing `source`, saturating just above `limit` (a hostile file stops the
    /// count there, so the estimate is linear in the file whatever it holds).
    public static func estimate(_ source: UnsafeBufferPointer<UInt8>, limit: Int = budget) -> Int {
        guard !source.isEmpty else { return 0 }
        var tracker = LookaheadTracker()
        return withUnsafeMutablePointer(to: &tracker) { tracker in
            var lexemes = Lexer.tokenize(source, lookaheadTracker: tracker, experimentalFeatures: [])
            var depth = 0
            var cost = 0
            var strings = StringNesting()
            // From a string opened inside an interpolation to the end of its line, the parser may
            // take the quote as the outer string's end and read on as code (its error recovery):
            // there every `[` byte counts, in strings and comments too, and no `]` does.
            var unsure = false
            func open() {
                depth += 1
                cost += 1 << min(depth * 3 / 2, 40)
            }
            while let lexeme = lexemes.next() {
                if let diagnostic = lexeme.diagnostic, diagnostic.severity == .error { return .max }
                if lexeme.flags.contains(.isAtStartOfLine) { unsure = false }
                switch strings.advance(lexeme.rawTokenKind, atStartOfLine: lexeme.flags.contains(.isAtStartOfLine)) {
                case .valid: break
                case .notSwift: return .max
                case .nestedString: unsure = true
                }
                if unsure {
                    for byte in lexeme.wholeText where byte == UInt8(ascii: "[") { open() }
                    if cost > limit { return cost }
                    if lexeme.rawTokenKind == .endOfFile { return cost }
                    continue
                }
                switch lexeme.rawTokenKind {
                case .leftSquare:
                    open()
                    if cost > limit { return cost }
                case .rightSquare:
                    // An unmatched `]` does not lower the depth of the brackets after it.
                    depth = max(0, depth - 1)
                case .endOfFile:
                    return cost
                default:
                    continue
                }
            }
            return cost
        }
    }
}

/// Where the lexer is in strings and interpolations, to tell where the parser could part from it.
private struct StringNesting {
    /// What a token means for the estimate.
    enum Step {
        case valid
        /// Text Swift does not have (a single-quoted string; a multi-line string inside `\(…)`).
        case notSwift
        /// A string opened inside an interpolation: the parser may read on from here as code.
        case nestedString
    }

    private enum Context {
        case code
        /// A string; a single-line one ends at the line's end, closed or not (the lexer ends an
        /// unterminated one there, and the parser an interpolation inside one).
        case string(multiline: Bool)
        /// Inside `\(…)`: the parentheses opened since.
        case interpolation(parentheses: Int)
    }
    private var contexts: [Context] = [.code]
    private var previous: RawTokenKind = .endOfFile

    mutating func advance(_ kind: RawTokenKind, atStartOfLine: Bool) -> Step {
        defer { previous = kind }
        if atStartOfLine, let open = contexts.firstIndex(where: { if case .string(false) = $0 { return true } else { return false } }) {
            contexts.removeSubrange(open...)
        }
        switch kind {
        case .singleQuote:
            return .notSwift
        case .stringQuote, .multilineStringQuote:
            if case .string = contexts.last {
                contexts.removeLast()
                return .valid
            }
            let nested: Bool
            if case .interpolation = contexts.last { nested = true } else { nested = false }
            contexts.append(.string(multiline: kind == .multilineStringQuote))
            if nested { return kind == .multilineStringQuote ? .notSwift : .nestedString }
        case .leftParen:
            if case .string = contexts.last, previous == .backslash || previous == .rawStringPoundDelimiter {
                contexts.append(.interpolation(parentheses: 0))
            } else if case .interpolation(let open) = contexts.last {
                contexts[contexts.count - 1] = .interpolation(parentheses: open + 1)
            }
        case .rightParen:
            if case .interpolation(let open) = contexts.last {
                if open == 0 { contexts.removeLast() } else { contexts[contexts.count - 1] = .interpolation(parentheses: open - 1) }
            }
        default:
            break
        }
        return .valid
    }
}

/// The asset symbols of a Swift file read from swift-syntax's tokens alone, for a file the
/// parser is not given: every `.name` and `A.B.name`, as the syntax-tree reader finds them as
/// member accesses, in time linear in the file.
enum SwiftMemberNames {
    static func references(_ source: UnsafeBufferPointer<UInt8>, file: String) -> [CodeReference] {
        guard let base = source.baseAddress, !source.isEmpty else { return [] }
        var tracker = LookaheadTracker()
        return withUnsafeMutablePointer(to: &tracker) { tracker in
            var lexemes = Lexer.tokenize(source, lookaheadTracker: tracker, experimentalFeatures: [])
            var references: [CodeReference] = []
            let lines = LineTable(source)
            // The identifiers joined by periods just before this token (`Asset.Onboarding`).
            var chain: [String] = []
            var afterPeriod = false
            while let lexeme = lexemes.next(), lexeme.rawTokenKind != .endOfFile {
                let adjoining = lexeme.leadingTriviaText.isEmpty
                switch lexeme.rawTokenKind {
                case .period:
                    if !adjoining { chain = [] }
                    afterPeriod = true
                    continue
                case .identifier:
                    let name = String(syntaxText: lexeme.tokenText)
                    if afterPeriod, name.first?.isLetter == true || name.first == "_" {
                        let offset = lexeme.tokenText.baseAddress.map { UnsafePointer($0) - UnsafePointer(base) } ?? 0
                        let (line, column) = lines.position(of: offset)
                        references.append(
                            CodeReference(
                                file: file, line: line, column: column, kind: .symbol, name: name,
                                qualifier: chain.isEmpty ? nil : chain.suffix(8).joined(separator: ".")))
                    }
                    if !(afterPeriod && adjoining) { chain = [] }
                    chain.append(name)
                default:
                    chain = []
                }
                afterPeriod = false
            }
            return references
        }
    }
}

/// 1-based line and column of byte offsets, from the offsets where lines start.
private struct LineTable {
    private var starts: [Int] = [0]

    init(_ source: UnsafeBufferPointer<UInt8>) {
        for (offset, byte) in source.enumerated() where byte == 0x0A { starts.append(offset + 1) }
    }

    func position(of offset: Int) -> (line: Int, column: Int) {
        var low = 0, high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return (low + 1, offset - starts[low] + 1)
    }
}

/// Where a Swift file may be cut into pieces that parse as they would in the whole file: at the
/// start of a line whose first token is outside every bracket, brace and `#if`.
package enum SwiftTopLevel {
    /// Nesting past which pieces are made smaller.
    static let deepPieceDepth = 24

    /// The file's pieces, each at most `limit` bytes unless one top-level declaration is larger,
    /// with the line each starts on. One piece for a file of at most `limit` bytes.
    package static func pieces(_ source: UnsafeBufferPointer<UInt8>, upTo limit: Int) -> [(bytes: Range<Int>, firstLine: Int)] {
        cut(source, upTo: limit).pieces
    }

    /// `pieces`, and the deepest nesting of brackets, braces and `#if` in the file (counted
    /// only for a file over `limit`: a smaller one is one piece, whatever its depth).
    package static func cut(_ source: UnsafeBufferPointer<UInt8>, upTo limit: Int) -> (pieces: [(bytes: Range<Int>, firstLine: Int)], deepest: Int) {
        guard source.count > limit, let base = source.baseAddress else { return ([(0..<source.count, 1)], 0) }
        var deepest = 0
        var tracker = LookaheadTracker()
        var cuts: [Int] = []
        withUnsafeMutablePointer(to: &tracker) { tracker in
            var lexemes = Lexer.tokenize(source, lookaheadTracker: tracker, experimentalFeatures: [])
            var depth = 0
            while let lexeme = lexemes.next(), lexeme.rawTokenKind != .endOfFile {
                // A cut goes before a token that starts a line outside every bracket.
                if depth == 0, lexeme.flags.contains(.isAtStartOfLine), let text = lexeme.tokenText.baseAddress {
                    var start = UnsafePointer(text) - UnsafePointer(base)
                    while start > 0, source[start - 1] != 0x0A { start -= 1 }
                    if start > 0 { cuts.append(start) }
                }
                switch lexeme.rawTokenKind {
                case .leftBrace, .leftParen, .leftSquare, .poundIf:
                    depth += 1
                    deepest = max(deepest, depth)
                case .rightBrace, .rightParen, .rightSquare, .poundEndif: depth = max(0, depth - 1)
                default: break
                }
            }
        }
        // Pieces from the cuts, each as large as `limit` allows; an eighth of it where the file
        // nests deep, whose tree costs several times more for its text.
        let limit = deepest > deepPieceDepth ? limit / 8 : limit
        var pieces: [(bytes: Range<Int>, firstLine: Int)] = []
        var pieceStart = 0
        var line = 1
        var lastCut = 0
        func close(at end: Int) {
            guard end > pieceStart else { return }
            pieces.append((pieceStart..<end, line))
            line += source[pieceStart..<end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
            pieceStart = end
        }
        for cut in cuts {
            if cut - pieceStart > limit, lastCut > pieceStart { close(at: lastCut) }
            lastCut = cut
        }
        if source.count - pieceStart > limit, lastCut > pieceStart { close(at: lastCut) }
        close(at: source.count)
        return (pieces, deepest)
    }
}

/// Where a piece of Swift may be cut between the members of a type: at the start of a line, in
/// the body of a `struct`, `class`, `enum`, `extension`, `protocol` or `actor` declared at the top
/// level, outside every other bracket, brace and `#if`, whose first token starts a declaration
/// (an attribute, a modifier, `let`, `func`, `case`, `#if`, …) and whose line before ended one
/// (with a name, a literal or a closing bracket, and did not start with an attribute). A member
/// parses the same in any type's body, so each part between cuts is parsed inside an `enum` of
/// its own (`SwiftReferences.parseMembers`): a filter then parses only the members that may name
/// an image. A piece the lexer finds an error in, or whose brackets do not balance, is not cut.
package enum SwiftMembers {
    /// The byte offsets of the cuts, in order (none for a piece with no type body).
    package static func cuts(_ source: UnsafeBufferPointer<UInt8>) -> [Int] {
        guard let base = source.baseAddress, !source.isEmpty else { return [] }
        var tracker = LookaheadTracker()
        var cuts: [Int] = []
        let balanced = withUnsafeMutablePointer(to: &tracker) { tracker -> Bool in
            var lexemes = Lexer.tokenize(source, lookaheadTracker: tracker, experimentalFeatures: [])
            var depth = 0
            var typeDeclared = false
            var inTypeBody = false
            // The token before this one, and the first token of the last line begun in a type body.
            var previous: RawTokenKind = .endOfFile
            var previousText: SyntaxText = ""
            var lineStartedWithAttribute = false
            while let lexeme = lexemes.next(), lexeme.rawTokenKind != .endOfFile {
                if let diagnostic = lexeme.diagnostic, diagnostic.severity == .error { return false }
                let kind = lexeme.rawTokenKind
                let text = lexeme.tokenText
                if depth == 1, inTypeBody, lexeme.flags.contains(.isAtStartOfLine) {
                    if startsDeclaration(kind, text), endsDeclaration(previous, previousText), !lineStartedWithAttribute,
                        let start = text.baseAddress.map({ UnsafePointer($0) - UnsafePointer(base) })
                    {
                        var lineStart = start
                        while lineStart > 0, source[lineStart - 1] == UInt8(ascii: " ") || source[lineStart - 1] == UInt8(ascii: "\t") { lineStart -= 1 }
                        // Only after `\n` (a line that `\r` alone ends, or a comment before the token, is not cut).
                        if lineStart > 0, source[lineStart - 1] == 0x0A { cuts.append(lineStart) }
                    }
                    lineStartedWithAttribute = kind == .atSign
                }
                switch kind {
                case .leftBrace, .leftParen, .leftSquare, .poundIf:
                    if depth == 0, kind == .leftBrace {
                        inTypeBody = typeDeclared
                        typeDeclared = false
                    }
                    depth += 1
                case .rightBrace, .rightParen, .rightSquare, .poundEndif:
                    if depth == 0 { return false }
                    depth -= 1
                    if depth == 0 { inTypeBody = false }
                case .keyword where depth == 0:
                    if typeIntroducers.contains(where: { text == $0 }) {
                        typeDeclared = true
                    } else if text == "func" || text == "init" || text == "var" || text == "let" || text == "subscript" {
                        typeDeclared = false
                    }
                case .equal where depth == 0:
                    typeDeclared = false
                default:
                    break
                }
                previous = kind
                previousText = text
            }
            return depth == 0
        }
        return balanced ? cuts : []
    }

    private static let typeIntroducers: [SyntaxText] = ["struct", "class", "enum", "extension", "protocol", "actor"]

    /// The keywords a member's declaration may start with.
    private static let declarationKeywords: [SyntaxText] = [
        "let", "var", "func", "init", "deinit", "subscript", "case", "typealias", "associatedtype", "struct", "class", "enum",
        "protocol", "extension", "actor", "static", "public", "private", "fileprivate", "internal", "open", "package", "final",
        "override", "mutating", "nonmutating", "convenience", "required", "lazy", "weak", "unowned", "dynamic", "nonisolated",
        "indirect", "optional", "macro",
    ]

    private static func startsDeclaration(_ kind: RawTokenKind, _ text: SyntaxText) -> Bool {
        switch kind {
        case .atSign, .poundIf: return true
        // The lexer makes only reserved words keywords: `final`, `override` and the like come as
        // identifiers, and at a line's start in a body after a finished declaration start one.
        case .keyword, .identifier: return declarationKeywords.contains(where: { text == $0 })
        default: return false
        }
    }

    /// Whether a declaration may end with this token (not an operator, a comma, a colon, an
    /// opening bracket, a modifier): the line after it cannot continue the declaration.
    private static func endsDeclaration(_ kind: RawTokenKind, _ text: SyntaxText) -> Bool {
        switch kind {
        case .rightBrace, .rightParen, .rightSquare, .rightAngle, .identifier, .stringQuote, .rawStringPoundDelimiter, .integerLiteral,
            .floatLiteral, .poundEndif, .postfixQuestionMark, .exclamationMark:
            return true
        case .keyword:
            return text == "true" || text == "false" || text == "nil" || text == "self" || text == "Self" || text == "Any"
        default:
            return false
        }
    }
}
