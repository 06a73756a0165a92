@_spi(Testing) import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

/// The images `unused` judges, as Swift source could name them: a piece of source whose bytes
/// cannot name one is not parsed, since nothing it holds could keep an image alive or be quoted
/// as evidence. Parsing is most of `unused`'s time on a real tree.
///
/// Decided on bytes alone, and never wrong in the direction that matters: every reference the
/// syntax tree gives that matches a name is found here too, whatever else the bytes hold.
/// - A string literal matches a spelling when it is the spelling, the spelling with an image
///   suffix (`@2x`, `~ipad`, `.png`) or a path ending so: the bytes hold the spelling right after
///   `"` or `/` and right before `"`, `.`, `~` or `@` (or, for a string the parser recovers, after
///   `'` and before `'` or the line's end).
/// - An identifier matches a symbol key when its letters and digits, lower-cased, are the key:
///   with `_` dropped, it is a run of ASCII letters and digits, or several such runs joined by
///   characters that are not ASCII (which the key may drop) — every joining is tried.
/// - A name built at run time (`"flag_\(code)"`, `"flag_" + code`, `String(format:)`) is looked
///   for only where the bytes hold `\(`, `\#`, a `+` or `format`: there swift-syntax's lexer (a
///   third of the parser's cost) finds every string literal, and each is tried as the patterns the
///   syntax tree could make of it — with its holes, with a hole on the side of each `+` next to
///   it, cut short where a literal after it could take its end as an image suffix, with a hole for
///   each `%` conversion — against the spellings, by `patternMatches`, without asking that the
///   pattern name a family (a wider pattern than the tree's may not).
///
/// Text Swift lower-cases to ASCII from other characters (`K` the Kelvin sign, `İ`), a multi-line
/// or single-quoted string and anything the lexer reports as an error make a piece parsed; a
/// name that is not ASCII makes the filter pass everything.
public struct ImageNameFilter: Sendable {
    private let spellings: NeedleTable
    private let symbolKeys: NeedleTable
    private let patternMatches: @Sendable (String) -> Bool
    /// False when a name could not be looked for in bytes: then every piece is parsed.
    let isEnabled: Bool

    /// - Parameters:
    ///   - spellings: the lower-cased names a literal may equal (with or without an image suffix).
    ///   - symbolKeys: the keys of the generated symbols (`AssetSymbol.key`) the images have.
    ///   - patternMatches: whether a pattern (`*` for each hole), normalised as the judgement
    ///     normalises patterns, fits one of the spellings.
    public init(spellings: some Sequence<String>, symbolKeys: some Sequence<String>, patternMatches: @escaping @Sendable (String) -> Bool) {
        self.patternMatches = patternMatches
        let literalNeedles = spellings.map { Array($0.utf8).filter { $0 != UInt8(ascii: "_") } }
        let symbolNeedles = symbolKeys.map { Array($0.utf8) }
        isEnabled = (literalNeedles + symbolNeedles).allSatisfy { needle in !needle.isEmpty && needle.allSatisfy { $0 < 0x80 && !(0x41...0x5A).contains($0) } }
        self.spellings = NeedleTable(literalNeedles)
        self.symbolKeys = NeedleTable(symbolNeedles)
    }

    /// Whether `source` (a Swift file or a piece of one cut at a top-level declaration) may hold a
    /// reference to one of the images.
    public func mayName(_ source: UnsafeBufferPointer<UInt8>) -> Bool {
        guard isEnabled else { return true }
        let (text, signs) = Self.keyText(source)
        if signs.contains(.lowersToASCII) || signs.contains(.multiLineString) { return true }
        let (found, formats) = text.withUnsafeBufferPointer { text in
            (holdsSpelling(text) || holdsSymbol(text), Self.contains(text, "format"))
        }
        if found || holdsRecoveredLiteral(source) { return true }
        guard signs.contains(.runTimeName) || formats else { return false }
        return buildsName(source, formats: formats)
    }

    /// What the bytes hold that decides how they are read.
    struct Signs: OptionSet {
        let rawValue: UInt8
        /// An interpolation (`\(`, `\#(`) or a `+` that is not `+=`.
        static let runTimeName = Signs(rawValue: 1)
        /// `"""`: a multi-line string's text is not one run of the file's bytes.
        static let multiLineString = Signs(rawValue: 2)
        /// The Kelvin sign (U+212A) or `İ` (U+0130): the only characters Swift lower-cases to
        /// ASCII letters, so a key or a lowered literal could hold a letter the bytes do not.
        static let lowersToASCII = Signs(rawValue: 4)
    }

    /// The text as keys compare it — ASCII lower-cased, `_` dropped (it joins an identifier's words
    /// and the key drops it; outside identifiers it stands between spaces or symbols) — and the
    /// signs, in one pass over the bytes.
    static func keyText(_ source: UnsafeBufferPointer<UInt8>) -> (text: [UInt8], signs: Signs) {
        var signs: Signs = []
        let count = source.count
        let text = [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
            var out = 0
            var index = 0
            while index < count {
                let byte = source[index]
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    buffer[out] = byte | 0x20
                    out += 1
                    index += 1
                    continue
                case UInt8(ascii: "_"):
                    index += 1
                    continue
                case UInt8(ascii: "\\"):
                    if index + 1 < count, source[index + 1] == UInt8(ascii: "(") || source[index + 1] == UInt8(ascii: "#") { signs.insert(.runTimeName) }
                case UInt8(ascii: "+"):
                    if index + 1 >= count || source[index + 1] != UInt8(ascii: "=") { signs.insert(.runTimeName) }
                case UInt8(ascii: "\""):
                    if index + 2 < count, source[index + 1] == UInt8(ascii: "\""), source[index + 2] == UInt8(ascii: "\"") { signs.insert(.multiLineString) }
                case 0xC4:
                    if index + 1 < count, source[index + 1] == 0xB0 { signs.insert(.lowersToASCII) }
                case 0xE2:
                    if index + 2 < count, source[index + 1] == 0x84, source[index + 2] == 0xAA { signs.insert(.lowersToASCII) }
                default:
                    break
                }
                buffer[out] = byte
                out += 1
                index += 1
            }
            written = out
        }
        return (text, signs)
    }

    /// Whether a string literal of `source`, read by swift-syntax's lexer, could be part of a
    /// pattern that fits a spelling (see the type's notes for the patterns tried).
    private func buildsName(_ source: UnsafeBufferPointer<UInt8>, formats: Bool) -> Bool {
        var scan = LiteralScan()
        var tracker = LookaheadTracker()
        return withUnsafeMutablePointer(to: &tracker) { tracker in
            var lexemes = Lexer.tokenize(source, lookaheadTracker: tracker, experimentalFeatures: [])
            while let lexeme = lexemes.next() {
                if let diagnostic = lexeme.diagnostic, diagnostic.severity == .error { return true }
                let (literal, step) = scan.take(lexeme.rawTokenKind, lexeme.tokenText, atStartOfLine: lexeme.flags.contains(.isAtStartOfLine))
                if let literal, literal.patterns(formats: formats).contains(where: patternMatches) { return true }
                switch step {
                case .next: continue
                case .unreadable: return true
                case .end: return false
                }
            }
            return false
        }
    }

    /// Whether `text` holds `word` (ASCII, not empty).
    private static func contains(_ text: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: length)
        var index = 0
        while index + length <= text.count {
            if text[index] == bytes[0], text[index..<index + length].elementsEqual(bytes) { return true }
            index += 1
        }
        return false
    }

    /// A spelling right after `"` or `/` and right before `"`, `.`, `~` or `@` — or after `'` and
    /// before the line's end, as the parser reads the strings Swift does not have (`'tab'`, a
    /// string left open) when it recovers from them.
    private func holdsSpelling(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !spellings.isEmpty else { return false }
        for start in 1..<max(1, text.count + 1) {
            switch text[start - 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "'"): break
            default: continue
            }
            var hash = NeedleTable.seed
            var length = 0
            while length < spellings.longest, start + length < text.count {
                let byte = text[start + length]
                // A single-line literal ends at the line's end (multi-line ones are parsed).
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
                hash = NeedleTable.step(hash, byte)
                length += 1
                let end = start + length
                let after = end < text.count ? text[end] : UInt8(ascii: "\n")
                switch after {
                case UInt8(ascii: "\""), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "@"), UInt8(ascii: "'"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    if spellings.contains(hash: hash, UnsafeBufferPointer(rebasing: text[start..<end])) { return true }
                default:
                    continue
                }
            }
        }
        return false
    }

    /// A literal the parser makes when it recovers from `@` or `'` where an expression starts
    /// (Objective-C's `@"…"`, a single-quoted string, either without its quote): the identifiers
    /// right after it on its line, joined without what stands between them (`@ tab bar` is
    /// `"tabbar"`), up to the first token that is not an identifier. Read from the source's bytes:
    /// a run of letters, digits and `_` that is not a reserved word continues the chain; spaces,
    /// control characters, characters that are not ASCII (an identifier's letter or text the lexer
    /// cannot read) and a block comment on the line are passed over; anything else ends it. The
    /// chain's letters and digits are searched for a spelling anywhere; a backslash (an
    /// interpolation) or a backtick in it is not read.
    private func holdsRecoveredLiteral(_ source: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !spellings.isEmpty else { return false }
        var joined: [UInt8] = []
        for start in source.indices where source[start] == UInt8(ascii: "@") || source[start] == UInt8(ascii: "'") {
            joined.removeAll(keepingCapacity: true)
            var index = start + 1
            chain: while index < source.count {
                let byte = source[index]
                switch byte {
                case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                    break chain
                case UInt8(ascii: "\\"), UInt8(ascii: "`"):
                    return true
                case UInt8(ascii: "/"):
                    // A block comment on the line is passed over; a line comment ends the line.
                    guard index + 1 < source.count, source[index + 1] == UInt8(ascii: "*") else { break chain }
                    var end = index + 2
                    while end + 1 < source.count, !(source[end] == UInt8(ascii: "*") && source[end + 1] == UInt8(ascii: "/")) {
                        if source[end] == UInt8(ascii: "\n") || source[end] == UInt8(ascii: "\r") { break chain }
                        end += 1
                    }
                    index = end + 2
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "_"):
                    var end = index
                    while end < source.count, Self.isIdentifierByte(source[end]) || source[end] >= 0x80 { end += 1 }
                    let run = UnsafeBufferPointer(rebasing: source[index..<end])
                    if Self.reservedWords.contains(where: { $0.elementsEqual(run) }) { break chain }
                    for byte in run where byte < 0x80 && byte != UInt8(ascii: "_") { joined.append((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) }
                    index = end
                case 0...0x20, 0x7F, 0x80...:
                    index += 1
                default:
                    break chain
                }
            }
            if joined.withUnsafeBufferPointer({ spellings.occurs(in: $0) }) { return true }
        }
        return false
    }

    @inline(__always)
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): return true
        default: return false
        }
    }

    /// The words swift-syntax's lexer makes keywords (every other word is an identifier to it,
    /// `final` and `weak` too): one ends a recovered literal's chain of identifiers.
    private static let reservedWords: [[UInt8]] = [
        "Any", "as", "associatedtype", "break", "case", "catch", "class", "continue", "default", "defer", "deinit", "do", "else",
        "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard", "if", "import", "in", "init", "inout",
        "internal", "is", "let", "nil", "operator", "precedencegroup", "private", "protocol", "public", "repeat", "rethrows",
        "return", "self", "Self", "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias",
        "var", "where", "while",
    ].map { Array($0.utf8) }

    @inline(__always)
    private static func isWordByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Whether `byte` may join two runs of letters and digits into one identifier: a byte of a
    /// character that is not ASCII, or anything but a line's end or a backtick inside backticks
    /// (where an identifier may hold spaces).
    @inline(__always)
    private static func joins(_ byte: UInt8, inBackticks: Bool) -> Bool {
        byte >= 0x80 || (inBackticks && byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\r") && byte != UInt8(ascii: "`"))
    }

    /// An identifier whose key is a symbol key: each run of letters and digits, and each chain
    /// of runs that may be joined, joined every way that is not longer than the longest key.
    private func holdsSymbol(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !symbolKeys.isEmpty else { return false }
        var chain: [Range<Int>] = []
        var inBackticks = false
        var index = 0
        let count = text.count
        while index < count {
            let byte = text[index]
            if Self.isWordByte(byte) {
                let start = index
                var hash = NeedleTable.seed
                repeat {
                    hash = NeedleTable.step(hash, text[index])
                    index += 1
                } while index < count && Self.isWordByte(text[index])
                let joinedAfter = index < count && Self.joins(text[index], inBackticks: inBackticks)
                if chain.isEmpty && !joinedAfter {
                    // One run alone, the usual case: looked up as it was hashed.
                    if index - start <= symbolKeys.longest, symbolKeys.contains(hash: hash, UnsafeBufferPointer(rebasing: text[start..<index])) { return true }
                } else {
                    chain.append(start..<index)
                    if !joinedAfter {
                        if chainHoldsSymbol(chain, text) { return true }
                        chain.removeAll(keepingCapacity: true)
                    }
                }
                continue
            }
            if !Self.joins(byte, inBackticks: inBackticks) {
                if byte == UInt8(ascii: "`") {
                    inBackticks.toggle()
                } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                    inBackticks = false
                }
                if !chain.isEmpty {
                    if chainHoldsSymbol(chain, text) { return true }
                    chain.removeAll(keepingCapacity: true)
                }
            }
            index += 1
        }
        return !chain.isEmpty && chainHoldsSymbol(chain, text)
    }

    /// Whether runs that may be joined, taken one after another from any of them, spell a key.
    private func chainHoldsSymbol(_ chain: [Range<Int>], _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var joined: [UInt8] = []
        for first in chain.indices {
            joined.removeAll(keepingCapacity: true)
            for run in chain[first...] {
                joined.append(contentsOf: text[run])
                if joined.count > symbolKeys.longest { break }
                let hash = joined.reduce(NeedleTable.seed, NeedleTable.step)
                if joined.withUnsafeBufferPointer({ symbolKeys.contains(hash: hash, $0) }) { return true }
            }
        }
        return false
    }
}

/// Byte strings looked up by a hash built one byte at a time, so a slice of a larger text is
/// tried at each length without being copied.
private struct NeedleTable: Sendable {
    private var byHash: [UInt64: [[UInt8]]] = [:]
    /// The longest needle's length.
    private(set) var longest = 0
    var isEmpty: Bool { byHash.isEmpty }

    static let seed: UInt64 = 0xcbf2_9ce4_8422_2325

    /// FNV-1a: deterministic, and cheap enough to run over every byte a candidate spans.
    @inline(__always)
    static func step(_ hash: UInt64, _ byte: UInt8) -> UInt64 { (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }

    init(_ needles: [[UInt8]]) {
        for needle in Set(needles) {
            byHash[needle.reduce(Self.seed, Self.step), default: []].append(needle)
            longest = max(longest, needle.count)
        }
    }

    func mayContain(hash: UInt64) -> Bool { byHash[hash] != nil }

    /// Whether a needle occurs anywhere in `text`.
    func occurs(in text: UnsafeBufferPointer<UInt8>) -> Bool {
        for start in text.indices {
            var hash = Self.seed
            for end in start..<min(text.count, start + longest) {
                hash = Self.step(hash, text[end])
                if byHash[hash] != nil, contains(hash: hash, UnsafeBufferPointer(rebasing: text[start...end])) { return true }
            }
        }
        return false
    }

    func contains(hash: UInt64, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let candidates = byHash[hash] else { return false }
        return candidates.contains { $0.elementsEqual(bytes) }
    }
}
