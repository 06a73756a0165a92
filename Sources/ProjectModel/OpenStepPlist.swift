import ImgtraceSupport

/// A value of an OpenStep ("old-style") property list, the text format of `project.pbxproj`.
/// The format has only strings, data, arrays and dictionaries: numbers are unquoted strings.
public indirect enum OpenStepValue: Equatable, Sendable {
    case string(String)
    case data([UInt8])
    case array([OpenStepValue])
    case dictionary([String: OpenStepValue])

    public var string: String? { if case .string(let s) = self { return s } else { return nil } }
    public var array: [OpenStepValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var dictionary: [String: OpenStepValue]? { if case .dictionary(let d) = self { return d } else { return nil } }
    /// The strings of an array value (an object's list of ids).
    public var strings: [String] { array?.compactMap(\.string) ?? [] }
}

/// Reads OpenStep property list text: a pure function of bytes to a value, every error at the
/// byte where the text stops making sense.
public enum OpenStepPlist {
    /// Nesting deeper than this is refused: Xcode writes five levels; recursion must stay bounded.
    public static let maximumDepth = 128

    /// Parses `bytes` (UTF-8, comments allowed) as one value followed by nothing but blanks.
    public static func parse(_ bytes: [UInt8]) throws -> OpenStepValue {
        var parser = Parser(bytes: bytes)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.i = 3 }
        let value = try parser.value(depth: 0)
        try parser.skipBlanks()
        guard parser.i == bytes.count else { throw FormatError(offset: parser.i, reason: "text after the property list's end") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var i = 0

        mutating func skipBlanks() throws {
            while i < bytes.count {
                let b = bytes[i]
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C || b == 0x0B {
                    i += 1
                } else if b == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2F {
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                } else if b == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A {
                    let start = i
                    i += 2
                    while i + 1 < bytes.count, !(bytes[i] == 0x2A && bytes[i + 1] == 0x2F) { i += 1 }
                    guard i + 1 < bytes.count else { throw FormatError(offset: start, reason: "comment `/*` never closed") }
                    i += 2
                } else {
                    return
                }
            }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws {
            try skipBlanks()
            guard i < bytes.count, bytes[i] == byte else {
                throw FormatError(offset: i, reason: i < bytes.count ? "expected \(what), found \(describe(bytes[i]))" : "expected \(what), found the end")
            }
            i += 1
        }

        mutating func value(depth: Int) throws -> OpenStepValue {
            guard depth < OpenStepPlist.maximumDepth else {
                throw FormatError(offset: i, reason: "nested deeper than \(OpenStepPlist.maximumDepth) levels")
            }
            try skipBlanks()
            guard i < bytes.count else { throw FormatError(offset: i, reason: "expected a value, found the end") }
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var entries: [String: OpenStepValue] = [:]
                while true {
                    try skipBlanks()
                    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
                        i += 1
                        return .dictionary(entries)
                    }
                    let keyOffset = i
                    guard case .string(let key) = try value(depth: depth + 1) else {
                        throw FormatError(offset: keyOffset, reason: "a dictionary key must be a string")
                    }
                    try expect(UInt8(ascii: "="), "`=` after a key")
                    entries[key] = try value(depth: depth + 1)
                    try expect(UInt8(ascii: ";"), "`;` after a dictionary entry")
                }
            case UInt8(ascii: "("):
                i += 1
                var items: [OpenStepValue] = []
                while true {
                    try skipBlanks()
                    if i < bytes.count, bytes[i] == UInt8(ascii: ")") {
                        i += 1
                        return .array(items)
                    }
                    items.append(try value(depth: depth + 1))
                    try skipBlanks()
                    if i < bytes.count, bytes[i] == UInt8(ascii: ",") {
                        i += 1
                    } else {
                        try expect(UInt8(ascii: ")"), "`,` or `)` in an array")
                        return .array(items)
                    }
                }
            case UInt8(ascii: "<"):
                return try data()
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                return .string(try quoted())
            default:
                let start = i
                while i < bytes.count, Parser.isUnquoted(bytes[i]) { i += 1 }
                guard i > start else { throw FormatError(offset: i, reason: "expected a value, found \(describe(bytes[i]))") }
                return .string(String(decoding: bytes[start..<i], as: UTF8.self))
            }
        }

        /// Letters, digits and `_$+/:.-`, as the format defines them; bytes above ASCII too, which
        /// Xcode never writes unquoted but other writers do.
        static func isUnquoted(_ b: UInt8) -> Bool {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
            case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"):
                return true
            default: return b >= 0x80
            }
        }

        mutating func data() throws -> OpenStepValue {
            let start = i
            i += 1
            var out: [UInt8] = []
            var high: UInt8?
            while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
                let b = bytes[i]
                i += 1
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { continue }
                guard let nibble = Parser.hexValue(b) else { throw FormatError(offset: i - 1, reason: "data holds \(describe(b)), not a hex digit") }
                if let h = high {
                    out.append(h << 4 | nibble)
                    high = nil
                } else {
                    high = nibble
                }
            }
            guard i < bytes.count else { throw FormatError(offset: start, reason: "data `<` never closed") }
            guard high == nil else { throw FormatError(offset: i, reason: "data has an odd number of hex digits") }
            i += 1
            return .data(out)
        }

        static func hexValue(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
            default: return nil
            }
        }

        mutating func quoted() throws -> String {
            let start = i
            let quote = bytes[i]
            i += 1
            var out: [UInt8] = []
            while i < bytes.count, bytes[i] != quote {
                guard bytes[i] == UInt8(ascii: "\\") else {
                    out.append(bytes[i])
                    i += 1
                    continue
                }
                i += 1
                guard i < bytes.count else { break }
                let escaped = bytes[i]
                i += 1
                if let control = CEscape.control(escaped) {
                    out.append(control)
                    continue
                }
                switch escaped {
                case UInt8(ascii: "U"):
                    // `\U` and up to four hex digits: a UTF-16 unit (a lone surrogate becomes U+FFFD).
                    var unit: UInt32 = 0, digits = 0
                    while digits < 4, i < bytes.count, let nibble = Parser.hexValue(bytes[i]) {
                        unit = unit << 4 | UInt32(nibble)
                        digits += 1
                        i += 1
                    }
                    out.append(contentsOf: Array(String(Unicode.Scalar(unit).map(Character.init) ?? "\u{FFFD}").utf8))
                case UInt8(ascii: "0")...UInt8(ascii: "7"):
                    var code = UInt32(escaped - UInt8(ascii: "0")), digits = 1
                    while digits < 3, i < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[i]) {
                        code = code << 3 | UInt32(bytes[i] - UInt8(ascii: "0"))
                        digits += 1
                        i += 1
                    }
                    out.append(contentsOf: Array(String(Unicode.Scalar(code).map(Character.init) ?? "\u{FFFD}").utf8))
                default: out.append(escaped)
                }
            }
            guard i < bytes.count else { throw FormatError(offset: start, reason: "string quote never closed") }
            i += 1
            return String(decoding: out, as: UTF8.self)
        }

        func describe(_ b: UInt8) -> String {
            (0x21...0x7E).contains(b) ? "`\(Character(Unicode.Scalar(b)))`" : "byte 0x\(String(b, radix: 16))"
        }
    }
}
