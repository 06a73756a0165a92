/// Malformed binary input: what was wrong and at which byte offset.
public struct FormatError: Error, Equatable, CustomStringConvertible, Sendable {
    public var offset: Int
    public var reason: String

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "offset \(offset) (0x\(String(offset, radix: 16))): \(reason)" }
}

/// Bounds-checked reads from a byte buffer; every failure names the offset.
package struct ByteReader {
    package let bytes: UnsafeRawBufferPointer

    package init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    package var count: Int { bytes.count }

    // The readers are inlinable: every catalog, zip and ELF reader calls them per field, and a
    // call across modules for each byte pair was most of the catalog reader's time. The
    // bounds check stays; only its failure (the message) is out of line.

    @inlinable
    package func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw outOfBounds(offset, length, what())
        }
    }

    @usableFromInline
    func outOfBounds(_ offset: Int, _ length: Int, _ what: String) -> FormatError {
        FormatError(offset: offset, reason: "\(what) needs \(length) bytes but the file has \(max(0, count - max(0, offset))) there")
    }

    @inlinable
    package func u8(_ offset: Int) throws -> UInt8 {
        try check(offset, 1, "a byte")
        return bytes[offset]
    }

    @inlinable
    package func u16le(_ offset: Int) throws -> UInt16 {
        try check(offset, 2, "a 16-bit value")
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    @inlinable
    package func u32le(_ offset: Int) throws -> UInt32 {
        try check(offset, 4, "a 32-bit value")
        return UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    @inlinable
    package func u64le(_ offset: Int) throws -> UInt64 {
        UInt64(try u32le(offset)) | UInt64(try u32le(offset + 4)) << 32
    }

    @inlinable
    package func u16be(_ offset: Int) throws -> UInt16 {
        try check(offset, 2, "a 16-bit value")
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    @inlinable
    package func u32be(_ offset: Int) throws -> UInt32 {
        try check(offset, 4, "a 32-bit value")
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    /// Raw bytes `offset..<offset+length`.
    package func slice(_ offset: Int, _ length: Int) throws -> UnsafeRawBufferPointer {
        try check(offset, length, "a field")
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
    }

    /// A NUL-padded string field (stops at the first NUL, or at the field's end).
    package func paddedString(_ offset: Int, _ length: Int) throws -> String {
        let field = try slice(offset, length)
        guard let base = field.baseAddress else { return "" }
        let nul = memchr(base, 0, field.count)
        let end = nul.map { base.distance(to: UnsafeRawPointer($0)) } ?? field.count
        return String(decoding: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: end), as: UTF8.self)
    }

    package func matches(_ offset: Int, _ ascii: StaticString) -> Bool {
        let n = ascii.utf8CodeUnitCount
        guard offset >= 0, offset + n <= count else { return false }
        for i in 0..<n where bytes[offset + i] != ascii.utf8Start[i] { return false }
        return true
    }
}
