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

    /// The bytes after `prefix`, when the line starts with it: named prefixes, no counted offsets.
    @inline(__always) func removingPrefix(_ prefix: StaticString) -> ByteLine? {
        hasPrefix(prefix) ? dropFirst(prefix.utf8CodeUnitCount) : nil
    }

    /// The bytes after the first `needle`, when the line holds it.
    func after(_ needle: StaticString) -> ByteLine? {
        range(of: needle).map { dropFirst($0 + needle.utf8CodeUnitCount) }
    }

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
        // Eight digits at a time while they are all `0`–`9`, `a`–`f` or `A`–`F` (addresses are 16).
        while i + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
            guard Self.allHexDigits(word) else { break }
            i += 8
        }
        while i < count, isHexDigit(base[i]) { i += 1 }
        return i - from > 2 ? i - from : 0
    }

    /// Whether all eight bytes of `word` are ASCII hex digits: each byte, lowercased, is in
    /// `0`–`9` or `a`–`f` (per-byte range tests on the whole word; bytes ≥ 0x80 fail).
    @inline(__always) static func allHexDigits(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        // x in [lo, hi] per byte, for bytes < 0x80: (x + (0x80 - lo)) and not (x + (0x7F - hi)) have bit 7 set.
        func inRange(_ x: UInt64, _ lo: UInt64, _ hi: UInt64) -> UInt64 {
            ((x &+ ones &* (0x80 - lo)) & ~(x &+ ones &* (0x7F - hi))) & high
        }
        guard word & high == 0 else { return false }
        let digit = inRange(word, 0x30, 0x39)
        let letter = inRange(word | (ones &* 0x20), 0x61, 0x66)
        return digit | letter == high
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

extension ByteLine: CustomStringConvertible {
    /// The line's text (for diagnostics and tests: never its address).
    var description: String { string }
}
