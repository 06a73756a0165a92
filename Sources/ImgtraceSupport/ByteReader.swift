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
public struct ByteReader {
    /// The bytes read; they must outlive the reader.
    public let bytes: UnsafeRawBufferPointer

    /// A reader over `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// How many bytes there are.
    public var count: Int { bytes.count }

    // The readers are inlinable: every catalog, zip and ELF reader calls them per field, and a
    // call across modules for each field was a large part of the catalog reader's time. The
    // bounds check stays; only its failure (the message) is out of line. The type is `public`,
    // not `package`: Swift 6.3 does not inline a `package` @inlinable body into another module
    // (the calls stayed, 34 of them in the catalog reader; public: none).

    /// Throws a `FormatError` at `offset` unless `length` bytes from there are inside the input.
    @inlinable @inline(__always)
    public func check(_ offset: Int, _ length: Int, _ what: @autoclosure () -> String) throws {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw outOfBounds(offset, length, what())
        }
    }

    /// A fixed-width field known to be in bounds, read as one unaligned load.
    @inlinable @inline(__always)
    func load<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
        bytes.baseAddress.unsafelyUnwrapped.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    @usableFromInline
    func outOfBounds(_ offset: Int, _ length: Int, _ what: String) -> FormatError {
        FormatError(offset: offset, reason: "\(what) needs \(length) bytes but the file has \(max(0, count - max(0, offset))) there")
    }

    /// The byte at `offset`.
    @inlinable
    public func u8(_ offset: Int) throws -> UInt8 {
        try check(offset, 1, "a byte")
        return bytes[offset]
    }

    /// A little-endian 16-bit field at `offset`.
    @inlinable @inline(__always)
    public func u16le(_ offset: Int) throws -> UInt16 {
        try check(offset, 2, "a 16-bit value")
        return UInt16(littleEndian: load(offset, as: UInt16.self))
    }

    /// A little-endian 32-bit field at `offset`.
    @inlinable @inline(__always)
    public func u32le(_ offset: Int) throws -> UInt32 {
        try check(offset, 4, "a 32-bit value")
        return UInt32(littleEndian: load(offset, as: UInt32.self))
    }

    /// A little-endian 64-bit field at `offset`.
    @inlinable
    public func u64le(_ offset: Int) throws -> UInt64 {
        UInt64(try u32le(offset)) | UInt64(try u32le(offset + 4)) << 32
    }

    /// A big-endian 16-bit field at `offset`.
    @inlinable @inline(__always)
    public func u16be(_ offset: Int) throws -> UInt16 {
        try check(offset, 2, "a 16-bit value")
        return UInt16(bigEndian: load(offset, as: UInt16.self))
    }

    /// A big-endian 32-bit field at `offset`.
    @inlinable @inline(__always)
    public func u32be(_ offset: Int) throws -> UInt32 {
        try check(offset, 4, "a 32-bit value")
        return UInt32(bigEndian: load(offset, as: UInt32.self))
    }

    /// Raw bytes `offset..<offset+length`.
    public func slice(_ offset: Int, _ length: Int) throws -> UnsafeRawBufferPointer {
        try check(offset, length, "a field")
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + length)])
    }

    /// A NUL-padded string field (stops at the first NUL, or at the field's end).
    public func paddedString(_ offset: Int, _ length: Int) throws -> String {
        let field = try slice(offset, length)
        guard let base = field.baseAddress else { return "" }
        let nul = memchr(base, 0, field.count)
        let end = nul.map { base.distance(to: UnsafeRawPointer($0)) } ?? field.count
        return String(decoding: UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: end), as: UTF8.self)
    }

    /// Whether the bytes at `offset` are the ASCII text `ascii` (a magic number); false when
    /// they would run past the end.
    @inlinable @inline(__always)
    public func matches(_ offset: Int, _ ascii: StaticString) -> Bool {
        let n = ascii.utf8CodeUnitCount
        guard offset >= 0, n <= count, offset <= count - n, let base = bytes.baseAddress else { return false }
        return memcmp(base + offset, ascii.utf8Start, n) == 0
    }
}
