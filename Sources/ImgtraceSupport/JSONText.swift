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

    /// `"key":[{…},{…}]`: one object per item, its fields written by `fields`.
    package mutating func objects<Items: Sequence>(_ key: String, _ items: Items, _ fields: (inout JSONText, Items.Element) -> Void) {
        self.key(key)
        beginArray()
        for item in items {
            beginObject()
            fields(&self, item)
            endObject()
        }
        endArray()
    }

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

    /// The bytes written so far, handed over and forgotten; the nesting and comma state stay,
    /// so a long document is written out in pieces instead of held whole.
    package mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = [false]
    }

    private mutating func separate() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    /// Appends `s` quoted and escaped. Runs of bytes that need no escape are copied whole: this
    /// is the hot path of every JSON report (names, paths, messages).
    private mutating func appendString(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = s
        text.withUTF8 { utf8 in
            var runStart = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F else { continue }
                if runStart < i { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
                appendEscape(b)
                runStart = i + 1
            }
            if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ b: UInt8) {
        bytes.append(0x5C)
        switch b {
        case 0x22, 0x5C: bytes.append(b)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                bytes.append(UInt8(ascii: "u"))
                bytes.append(0x30)
                bytes.append(0x30)
                bytes.append(digits[Int(b >> 4)])
                bytes.append(digits[Int(b & 0xF)])
            }
        }
    }
}
