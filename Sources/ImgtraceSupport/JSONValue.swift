/// A JSON document read into small values, for imgtrace's own files (baselines): Foundation's
/// reader builds an object graph of many times the text, this one about twice the text.
///
/// RFC 8259, strictly: one value with only white space around it; strings with every escape
/// (`\uXXXX` surrogate pairs included, a lone surrogate shown as U+FFFD); numbers kept as their
/// text. Nesting deeper than `maxDepth` is refused rather than recursed into.
package enum JSONValue: Equatable, Sendable {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    /// A number as written (`12`, `-0.5e3`): callers take what they need of it.
    case number(String)
    case bool(Bool)
    case null

    /// The deepest nesting read.
    package static let maxDepth = 64

    /// Parses `bytes`; a `FormatError` names the byte offset of the first fault.
    package static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.at == bytes.count else { throw FormatError(offset: reader.at, reason: "text after the JSON value") }
        return value
    }

    /// The member `key` of an object (the first, if repeated); nil for anything else.
    package subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    package var string: String? {
        if case let .string(text) = self { return text }
        return nil
    }

    /// A whole number that fits an `Int` (no fraction, no exponent).
    package var bool: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    package var int: Int? {
        if case let .number(text) = self { return Int(text) }
        return nil
    }

    package var array: [JSONValue]? {
        if case let .array(items) = self { return items }
        return nil
    }

    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case let (.array(x), .array(y)): return x == y
        case let (.string(x), .string(y)), let (.number(x), .number(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    private struct Reader {
        let bytes: [UInt8]
        var at = 0

        mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 { at += 1 }
        }

        func fault(_ reason: String) -> FormatError { FormatError(offset: at, reason: reason) }

        mutating func value(depth: Int) throws -> JSONValue {
            guard depth < JSONValue.maxDepth else { throw fault("nested deeper than \(JSONValue.maxDepth) levels") }
            guard at < bytes.count else { throw fault("a value is missing") }
            switch bytes[at] {
            case UInt8(ascii: "{"):
                at += 1
                var members: [(key: String, value: JSONValue)] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
                    at += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw fault("an object key must be a string") }
                    let key = try string()
                    skipSpace()
                    guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw fault("`:` expected after an object key") }
                    at += 1
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard at < bytes.count else { throw fault("the object is not closed") }
                    if bytes[at] == UInt8(ascii: ",") {
                        at += 1
                    } else if bytes[at] == UInt8(ascii: "}") {
                        at += 1
                        return .object(members)
                    } else {
                        throw fault("`,` or `}` expected in an object")
                    }
                }
            case UInt8(ascii: "["):
                at += 1
                var items: [JSONValue] = []
                skipSpace()
                if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
                    at += 1
                    return .array(items)
                }
                while true {
                    skipSpace()
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard at < bytes.count else { throw fault("the array is not closed") }
                    if bytes[at] == UInt8(ascii: ",") {
                        at += 1
                    } else if bytes[at] == UInt8(ascii: "]") {
                        at += 1
                        return .array(items)
                    } else {
                        throw fault("`,` or `]` expected in an array")
                    }
                }
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            default:
                return .number(try number())
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) throws -> JSONValue {
            let count = word.utf8CodeUnitCount
            guard at + count <= bytes.count, (0..<count).allSatisfy({ bytes[at + $0] == word.utf8Start[$0] }) else {
                throw fault("not a JSON value")
            }
            at += count
            return value
        }

        mutating func number() throws -> String {
            let start = at
            if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
            func digits() -> Int {
                let from = at
                while at < bytes.count, (0x30...0x39).contains(bytes[at]) { at += 1 }
                return at - from
            }
            let whole = digits()
            guard whole > 0, !(whole > 1 && bytes[at - whole] == 0x30) else { throw FormatError(offset: start, reason: "not a JSON value") }
            if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
                at += 1
                guard digits() > 0 else { throw fault("digits expected after `.`") }
            }
            if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
                at += 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
                guard digits() > 0 else { throw fault("digits expected in an exponent") }
            }
            return String(decoding: bytes[start..<at], as: UTF8.self)
        }

        mutating func string() throws -> String {
            at += 1
            var out: [UInt8] = []
            var runStart = at
            while at < bytes.count {
                let b = bytes[at]
                if b == UInt8(ascii: "\"") {
                    out.append(contentsOf: bytes[runStart..<at])
                    at += 1
                    guard let text = String(validating: out, as: UTF8.self) else { throw fault("a string is not UTF-8") }
                    return text
                }
                guard b >= 0x20 else { throw fault("a control character inside a string") }
                guard b == UInt8(ascii: "\\") else {
                    at += 1
                    continue
                }
                out.append(contentsOf: bytes[runStart..<at])
                at += 1
                guard at < bytes.count else { break }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var unit = try hex4()
                    var scalar = Unicode.Scalar(unit)
                    if (0xD800...0xDBFF).contains(unit), at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") {
                        let mark = at
                        at += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            scalar = Unicode.Scalar(unit)
                        } else {
                            at = mark
                        }
                    }
                    out.append(contentsOf: Array(String(Character(scalar ?? "\u{FFFD}")).utf8))
                default:
                    throw fault("an unknown escape in a string")
                }
                runStart = at
            }
            throw fault("a string is not closed")
        }

        mutating func hex4() throws -> UInt32 {
            guard at + 4 <= bytes.count else { throw fault("four hex digits expected after \\u") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[at]
                let digit: UInt8
                switch b {
                case 0x30...0x39: digit = b - 0x30
                case 0x41...0x46: digit = b - 0x41 + 10
                case 0x61...0x66: digit = b - 0x61 + 10
                default: throw fault("four hex digits expected after \\u")
                }
                value = value << 4 | UInt32(digit)
                at += 1
            }
            return value
        }
    }
}
