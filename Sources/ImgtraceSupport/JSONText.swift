/// A minimal deterministic JSON writer (reports, the baseline file): keys in the order written, no whitespace variance,
/// strings escaped per RFC 8259. Output is built into a byte buffer.
package struct JSONText {
    package private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    package init() {}

    package mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    package mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    package mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    package mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// Writes `"key":`; the value written next belongs to it.
    package mutating func key(_ key: String) {
        separate()
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    package mutating func string(_ value: String?) {
        separate()
        if let value { appendString(value) } else { bytes.append(contentsOf: "null".utf8) }
    }

    package mutating func int(_ value: Int?) {
        separate()
        bytes.append(contentsOf: (value.map(String.init) ?? "null").utf8)
    }

    /// A real number with at most three decimals, trailing zeros dropped, so output is stable.
    package mutating func number(_ value: Double?) {
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

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    package mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }

    /// Inserts already-encoded JSON as one value.
    package mutating func raw(_ encoded: [UInt8]) { separate(); bytes.append(contentsOf: encoded) }

    package mutating func field(_ name: String, _ value: String?) { key(name); string(value) }
    package mutating func field(_ name: String, _ value: Int?) { key(name); int(value) }
    package mutating func field(_ name: String, _ value: Bool) { key(name); bool(value) }
    package mutating func field(_ name: String, number value: Double?) { key(name); number(value) }
    package mutating func field(_ name: String, strings: [String]) {
        key(name)
        beginArray()
        for s in strings { string(s) }
        endArray()
    }

    package mutating func removeAll() {
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
