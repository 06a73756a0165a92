import ImgtraceSupport

/// A view of one line's bytes (no terminator). Valid only while its storage is.
struct ByteLine {
    let base: UnsafePointer<UInt8>
    let count: Int

    /// Unchecked in release builds for speed; debug builds, tests and the fuzz replays trap
    /// on any read outside the line (and the ASan fuzz build catches the rest).
    @inline(__always) subscript(i: Int) -> UInt8 {
        assert(i >= 0 && i < count, "ByteLine index \(i) outside 0..<\(count)")
        return base[i]
    }

    @inline(__always) var isEmpty: Bool { count == 0 }

    @inline(__always) func hasPrefix(_ prefix: StaticString) -> Bool {
        let n = prefix.utf8CodeUnitCount
        return n <= count && memcmp(base, prefix.utf8Start, n) == 0
    }

    @inline(__always) func hasPrefix(_ prefix: StaticString, at offset: Int) -> Bool {
        let n = prefix.utf8CodeUnitCount
        return offset >= 0 && offset + n <= count && memcmp(base + offset, prefix.utf8Start, n) == 0
    }

    @inline(__always) func hasSuffix(_ suffix: StaticString) -> Bool {
        let n = suffix.utf8CodeUnitCount
        return n <= count && memcmp(base + count - n, suffix.utf8Start, n) == 0
    }

    /// First index of `byte` at or after `from`.
    @inline(__always) func index(of byte: UInt8, from: Int = 0) -> Int? {
        guard from < count else { return nil }
        guard let p = memchr(base + from, Int32(byte), count - from) else { return nil }
        return UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self) - base
    }

    /// First index of `needle` at or after `from`.
    func range(of needle: StaticString, from: Int = 0) -> Int? {
        let n = needle.utf8CodeUnitCount
        guard n > 0 else { return from }
        let first = needle.utf8Start[0]
        var i = from
        while i + n <= count, let j = index(of: first, from: i) {
            if j + n > count { return nil }
            if memcmp(base + j, needle.utf8Start, n) == 0 { return j }
            i = j + 1
        }
        return nil
    }

    func contains(_ needle: StaticString) -> Bool { range(of: needle) != nil }

    /// Bytes `from..<to`.
    @inline(__always) func slice(_ from: Int, _ to: Int) -> ByteLine {
        assert(from >= 0 && from <= count && to <= count, "ByteLine slice \(from)..<\(to) outside 0..<\(count)")
        return ByteLine(base: base + from, count: max(0, to - from))
    }

    @inline(__always) func dropFirst(_ n: Int) -> ByteLine { slice(min(n, count), count) }

    /// Without leading and trailing spaces and tabs.
    func trimmed() -> ByteLine {
        var start = 0
        var end = count
        while start < end, base[start] == 0x20 || base[start] == 0x09 { start += 1 }
        while end > start, base[end - 1] == 0x20 || base[end - 1] == 0x09 { end -= 1 }
        return slice(start, end)
    }

    @inline(__always) var startsWithBlank: Bool { count > 0 && (base[0] == 0x20 || base[0] == 0x09) }

    var string: String { String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self) }

    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    func equals(_ other: [UInt8]) -> Bool {
        other.count == count && other.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, count) == 0 }
    }

    /// Whether the bytes are well-formed UTF-8 (no overlongs, surrogates or truncation).
    var isValidUTF8: Bool {
        var i = 0
        while i < count {
            let b = base[i]
            if b < 0x80 { i += 1; continue }
            var need = 0
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: need = 1
            case 0xE0: need = 2; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: need = 2
            case 0xED: need = 2; high = 0x9F
            case 0xF0: need = 3; low = 0x90
            case 0xF1...0xF3: need = 3
            case 0xF4: need = 3; high = 0x8F
            default: return false
            }
            guard i + need < count else { return false }
            let second = base[i + 1]
            guard second >= low, second <= high else { return false }
            var k = 2
            while k <= need {
                guard base[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i += need + 1
        }
        return true
    }
}

@inline(__always) func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
@inline(__always) func isHexDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 || (b | 0x20) &- 0x61 < 6 }

extension ByteLine {
    /// Number of leading decimal digits from `from`.
    func digitRun(from: Int) -> Int {
        var i = from
        while i < count, isDigit(base[i]) { i += 1 }
        return i - from
    }

    /// Length of `0x` + hex digits at `from`, or 0.
    func hexLiteral(at from: Int) -> Int {
        guard hasPrefix("0x", at: from) else { return 0 }
        var i = from + 2
        while i < count, isHexDigit(base[i]) { i += 1 }
        return i - from > 2 ? i - from : 0
    }

    /// Whether the whole line is `0x` + hex digits.
    var isHexLiteral: Bool { count > 2 && hexLiteral(at: 0) == count }
    /// Whether the whole line is decimal digits (optionally negative).
    var isDecimalLiteral: Bool {
        let s = count > 0 && base[0] == 0x2D ? 1 : 0
        return count > s && digitRun(from: s) == count - s
    }
    /// Whether a hex literal's digits are all zero.
    func isZeroHex(_ from: Int, _ length: Int) -> Bool {
        var i = from + 2
        while i < from + length { if base[i] != 0x30 { return false }; i += 1 }
        return true
    }
}
