/// A minimal deterministic JSON writer (reports, the baseline file): keys in the order written, no whitespace variance,
/// strings escaped per RFC 8259. Output is built into a byte buffer.
package struct JSONText {
    /// Bytes in a buffer of its own: an `Array` append costs a hundred instructions of generic
    /// bookkeeping, and a report appends a few bytes at a time (a key, a quote, a comma).
    private var store = JSONBytes()

    /// The bytes written so far (a copy).
    package var bytes: [UInt8] { store.withBytes { Array($0) } }

    /// How many bytes are written so far.
    package var byteCount: Int { store.count }

    /// Calls `body` with the bytes written so far, without copying them.
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R { try store.withBytes(body) }

    /// Whether the innermost open object or array already holds a value. Only the outer levels
    /// are kept in an array, touched when a level opens or closes, not for every value.
    private var needsComma = false
    private var outerNeedsComma: [Bool] = []

    package init() {}

    /// A writer with room for about `capacity` bytes: a document of megabytes is not grown (and
    /// copied) a dozen times on the way.
    package init(capacity: Int) { store = JSONBytes(capacity: max(capacity, 1)) }

    /// The bytes written so far and a newline, in one copy (a document's last line).
    package var lineBytes: [UInt8] {
        store.withBytes { written in
            [UInt8](unsafeUninitializedCapacity: written.count + 1) { buffer, count in
                if let base = written.baseAddress { buffer.baseAddress!.update(from: base, count: written.count) }
                buffer[written.count] = 0x0A
                count = written.count + 1
            }
        }
    }

    package mutating func beginObject() { open(UInt8(ascii: "{")) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray() { open(UInt8(ascii: "[")) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    private mutating func open(_ bracket: UInt8) {
        separate()
        put(bracket)
        outerNeedsComma.append(needsComma)
        needsComma = false
    }

    private mutating func close(_ bracket: UInt8) {
        needsComma = outerNeedsComma.removeLast()
        put(bracket)
    }

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
        put(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a key given as its JSON text with the colon (`"seq":`), for writers of a fixed
    /// layout: no escaping to check. The value follows with a `raw…` call.
    package mutating func rawKey(_ keyJSON: StaticString) {
        if needsComma { put(UInt8(ascii: ",")) }
        needsComma = true
        put(keyJSON.utf8Start, keyJSON.utf8CodeUnitCount)
    }

    /// `rawKey` and its string value, or null.
    package mutating func rawField(_ keyJSON: StaticString, _ value: String?) {
        rawKey(keyJSON)
        rawString(value)
    }

    /// `rawKey` and its integer value, or null.
    package mutating func rawField(_ keyJSON: StaticString, _ value: Int?) {
        rawKey(keyJSON)
        rawInt(value)
    }

    /// A value after `rawKey`: a string, or null.
    package mutating func rawString(_ value: String?) {
        if let value { appendString(value) } else { appendNull() }
    }

    /// `rawKey` and its boolean value.
    package mutating func rawField(_ keyJSON: StaticString, _ value: Bool) {
        rawKey(keyJSON)
        put(value ? "true" : "false")
    }

    /// A value after `rawKey`: an integer, or null.
    package mutating func rawInt(_ value: Int?) {
        if let value { appendInt(value) } else { appendNull() }
    }

    /// A value after `rawKey`: an array of strings.
    package mutating func rawStrings(_ values: [String]) {
        put(UInt8(ascii: "["))
        for (i, value) in values.enumerated() {
            if i > 0 { put(UInt8(ascii: ",")) }
            appendString(value)
        }
        put(UInt8(ascii: "]"))
    }

    package mutating func string(_ value: String?) {
        separate()
        rawString(value)
    }

    package mutating func int(_ value: Int?) {
        separate()
        rawInt(value)
    }

    private mutating func appendNull() {
        put("null")
    }

    /// Decimal digits straight into the buffer: no `String` per number.
    private mutating func appendInt(_ value: Int) {
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        guard magnitude >= 10 else { put(0x30 + UInt8(magnitude)); return }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: UInt64.max has 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            while magnitude > 0 {
                at -= 1
                buffer[at] = 0x30 + UInt8(magnitude % 10)
                magnitude /= 10
            }
            put(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + at, buffer.count - at)
        }
    }

    /// A real number with at most three decimals, trailing zeros dropped, so output is stable.
    package mutating func number(_ value: Double?) {
        separate()
        guard let value, value.isFinite else { put("null"); return }
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
            put(text)
        } else {
            put(String(value))
        }
    }

    package mutating func bool(_ value: Bool) {
        separate()
        put(value ? "true" : "false")
    }

    package mutating func null() { separate(); appendNull() }

    /// Inserts already-encoded JSON as one value.
    package mutating func raw(_ encoded: [UInt8]) { separate(); encoded.withUnsafeBufferPointer { put($0.baseAddress, $0.count) } }

    /// Hands the bytes written so far to `body` and forgets them, as `takeBytes` does, without a
    /// copy: a long document goes out a piece at a time.
    package mutating func drain(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        store.withBytes(body)
        makeUnique()
        store.count = 0
    }

    /// Inserts what another writer wrote (values it separated itself) as the next value or values.
    package mutating func raw(_ written: JSONText) {
        separate()
        written.withBytes { put($0.baseAddress, $0.count) }
    }

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
        defer {
            makeUnique()
            store.count = 0
        }
        return bytes
    }

    package mutating func removeAll() {
        makeUnique()
        store.count = 0
        needsComma = false
        outerNeedsComma.removeAll(keepingCapacity: true)
    }

    private mutating func separate() {
        if needsComma { put(UInt8(ascii: ",")) }
        needsComma = true
    }

    /// Appends `s` quoted and escaped. Runs of bytes that need no escape are copied whole: this
    /// is the hot path of every JSON report (names, paths, messages).
    private mutating func appendString(_ s: String) {
        var text = s
        text.withUTF8 { utf8 in
            // Most strings need no escape: then one check of the buffer and one copy, quotes included.
            var plain = true
            for b in utf8 where b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F {
                plain = false
                break
            }
            if plain {
                makeUnique()
                store.appendQuoted(utf8.baseAddress, utf8.count)
                return
            }
            put(UInt8(ascii: "\""))
            var runStart = 0
            for i in 0..<utf8.count {
                let b = utf8[i]
                guard b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F else { continue }
                if runStart < i { put(utf8.baseAddress! + runStart, i - runStart) }
                appendEscape(b)
                runStart = i + 1
            }
            if runStart < utf8.count { put(utf8.baseAddress! + runStart, utf8.count - runStart) }
            put(UInt8(ascii: "\""))
        }
    }

    // MARK: The buffer

    /// The buffer, made unique first (a copy of the writer keeps its own bytes).
    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&store) { store = store.copy() }
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        makeUnique()
        store.append(byte)
    }

    @inline(__always)
    private mutating func put(_ source: UnsafePointer<UInt8>?, _ count: Int) {
        guard let source, count > 0 else { return }
        makeUnique()
        store.append(source, count)
    }

    private mutating func put(_ text: StaticString) { put(text.utf8Start, text.utf8CodeUnitCount) }

    private mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { put($0.baseAddress, $0.count) }
    }

    private mutating func appendEscape(_ b: UInt8) {
        put(0x5C)
        switch b {
        case 0x22, 0x5C: put(b)
        case 0x0A: put(UInt8(ascii: "n"))
        case 0x0D: put(UInt8(ascii: "r"))
        case 0x09: put(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { digits in
                put(UInt8(ascii: "u"))
                put(0x30)
                put(0x30)
                put(digits[Int(b >> 4)])
                put(digits[Int(b & 0xF)])
            }
        }
    }
}

/// The growable byte buffer behind `JSONText` (copied on write by it).
final class JSONBytes {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    var count = 0

    init(capacity: Int = 256) {
        self.capacity = capacity
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    func copy() -> JSONBytes {
        let other = JSONBytes(capacity: max(capacity, 1))
        other.base.update(from: base, count: count)
        other.count = count
        return other
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(1) }
        base[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ source: UnsafePointer<UInt8>, _ extra: Int) {
        if capacity - count < extra { grow(extra) }
        (base + count).update(from: source, count: extra)
        count += extra
    }

    /// `"` + the bytes + `"`, with one check for room.
    @inline(__always)
    func appendQuoted(_ source: UnsafePointer<UInt8>?, _ extra: Int) {
        if capacity - count < extra + 2 { grow(extra + 2) }
        base[count] = 0x22
        if let source, extra > 0 { (base + count + 1).update(from: source, count: extra) }
        base[count + 1 + extra] = 0x22
        count += extra + 2
    }

    /// Makes room for `extra` more bytes.
    private func grow(_ extra: Int) {
        // Through locals: these properties passed `inout` made every access to them a checked one
        // (analyze's JSON took 50 % more instructions).
        var base = base, capacity = capacity
        growBytes(&base, capacity: &capacity, keeping: count, extra: extra)
        (self.base, self.capacity) = (base, capacity)
    }

    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }
}

/// Moves the first `count` bytes at `base` to a new allocation with room for `extra` more (at least
/// twice the old capacity), for the byte writers that fill a raw buffer: `JSONBytes`, the trace
/// events' writer and the load spill's records. Each keeps its own room check on the hot path and
/// calls this only when the room runs out.
package func growBytes(_ base: inout UnsafeMutablePointer<UInt8>, capacity: inout Int, keeping count: Int, extra: Int) {
    let grown = max(capacity * 2, count + extra)
    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    bigger.update(from: base, count: count)
    base.deallocate()
    base = bigger
    capacity = grown
}
