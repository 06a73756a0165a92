/// A minimal deterministic JSON writer: keys in the order written, no whitespace variance,
/// strings escaped per RFC 8259. Output is built into a byte buffer.
public struct JSONText {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    public init() {}

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    public mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    public mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// Writes `"key":`; the value written next belongs to it.
    public mutating func key(_ key: String) {
        separate()
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    public mutating func string(_ value: String?) {
        separate()
        if let value { appendString(value) } else { bytes.append(contentsOf: "null".utf8) }
    }

    public mutating func int(_ value: Int?) {
        separate()
        bytes.append(contentsOf: (value.map(String.init) ?? "null").utf8)
    }

    /// A real number with at most three decimals, trailing zeros dropped, so output is stable.
    public mutating func number(_ value: Double?) {
        separate()
        guard let value, value.isFinite else { bytes.append(contentsOf: "null".utf8); return }
        let thousandths = (value * 1000).rounded()
        if thousandths.magnitude < 9e15 {
            let whole = Int(thousandths)
            var text = String(whole / 1000)
            if whole < 0 && whole / 1000 == 0 { text = "-0" }
            var fraction = String(abs(whole % 1000))
            if fraction != "0" {
                fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
                while fraction.hasSuffix("0") { fraction.removeLast() }
                text += "." + fraction
            }
            bytes.append(contentsOf: text.utf8)
        } else {
            bytes.append(contentsOf: String(value).utf8)
        }
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }

    /// Inserts already-encoded JSON as one value.
    public mutating func raw(_ encoded: [UInt8]) { separate(); bytes.append(contentsOf: encoded) }

    public mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    public mutating func field(_ name: String, _ value: Int?) { key(name); int(value) }
    public mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    public mutating func field(_ name: String, number value: Double?) { key(name); number(value) }
    public mutating func field(_ name: String, strings: [String]) {
        key(name)
        beginArray()
        for s in strings { string(s) }
        endArray()
    }

    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = [false]
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func appendString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
