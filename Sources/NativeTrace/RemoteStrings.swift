import ImgtraceSupport

/// Reads another process's memory (or, in tests, bytes standing in for it).
public protocol MemoryReading {
    /// `count` bytes at `address`, or nil when any of them cannot be read.
    func read(_ address: UInt64, count: Int) -> [UInt8]?
    /// The NUL-terminated bytes at `address`, at most `limit` of them (a reader that holds some
    /// bytes already answers from them).
    func cString(at address: UInt64, limit: Int) -> [UInt8]?
    /// The little-endian word at `address`, or nil (a reader that holds the bytes answers
    /// without copying them).
    func loadWord(_ address: UInt64) -> UInt64?
}

extension MemoryReading {
    func word(at address: UInt64?) -> UInt64? {
        guard let address else { return nil }
        return loadWord(address)
    }

    public func loadWord(_ address: UInt64) -> UInt64? {
        read(address, count: 8)?.withUnsafeBytes { try? ByteReader($0).u64le(0) }
    }

    func word32(at address: UInt64?) -> UInt32? {
        guard let address else { return nil }
        return read(address, count: 4)?.withUnsafeBytes { try? ByteReader($0).u32le(0) }
    }

    func cString(at address: UInt64) -> [UInt8]? { cString(at: address, limit: 1 << 16) }

    /// The NUL-terminated bytes at `address`, read in pages, at most `limit` of them.
    public func cString(at address: UInt64, limit: Int) -> [UInt8]? { pagedCString(at: address, limit: limit) }

    /// `cString` read page by page from the process.
    func pagedCString(at address: UInt64, limit: Int) -> [UInt8]? {
        var out: [UInt8] = []
        var at = address
        while out.count < limit {
            // Up to the end of the page, so a string near an unmapped page still reads.
            let chunk = Int(4096 - at % 4096)
            // A string that runs into memory that cannot be read is no string: not a prefix of one.
            guard let bytes = read(at, count: chunk) ?? read(at, count: 1) else { return nil }
            if let end = bytes.firstIndex(of: 0) { return out + bytes[..<end] }
            out += bytes
            guard let next = at.checkedAdding(UInt64(bytes.count)) else { return out }
            at = next
        }
        return out
    }
}

/// What a hit's name argument held.
public enum RemoteName: Equatable, Sendable {
    case name([UInt8])
    case nilName
    /// An object of a class whose layout imgtrace does not know: reported, never guessed.
    case unknownClass(String)
    case unreadable
}

/// Reads name arguments: C strings, and GNUstep `NSString` objects laid out as GCC's runtime and
/// gnustep-base 1.28 lay them out (docs/native-tracer.md §3), without running code in the tracee.
public enum RemoteStrings {
    /// The longest name read.
    static let maxLength = 1 << 20

    public static func cString(at address: UInt64, in memory: MemoryReading) -> RemoteName {
        guard address != 0 else { return .nilName }
        guard let bytes = memory.cString(at: address) else { return .unreadable }
        return .name(bytes)
    }

    /// An `NSString *`: the class is found by walking the object's class chain by name.
    public static func gnustepString(at object: UInt64, in memory: MemoryReading) -> RemoteName {
        guard object != 0 else { return .nilName }
        guard var cls = memory.word(at: object), cls != 0 else { return .unreadable }
        var first: String?
        for _ in 0..<8 {
            guard let namePointer = memory.word(at: cls.checkedAdding(16)), let nameBytes = memory.cString(at: namePointer, limit: 256) else {
                return .unreadable
            }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if first == nil { first = name }
            switch name {
            case "NSConstantString", "NXConstantString":
                guard let contents = memory.word(at: object.checkedAdding(8)), let count = memory.word32(at: object.checkedAdding(16)) else {
                    return .unreadable
                }
                return read8Bit(contents, Int(count), memory)
            case "GSString", "GSMutableString":
                guard let contents = memory.word(at: object.checkedAdding(8)), let count = memory.word32(at: object.checkedAdding(16)),
                    let flags = memory.word32(at: object.checkedAdding(20))
                else { return .unreadable }
                return flags & 1 != 0 ? readWide(contents, Int(count), memory) : read8Bit(contents, Int(count), memory)
            default:
                guard let superclass = memory.word(at: cls.checkedAdding(8)), superclass != 0, superclass != cls else {
                    return .unknownClass(first ?? name)
                }
                cls = superclass
            }
        }
        return .unknownClass(first ?? "?")
    }

    private static func read8Bit(_ contents: UInt64, _ count: Int, _ memory: MemoryReading) -> RemoteName {
        guard count > 0 else { return .name([]) }
        guard count <= maxLength, let bytes = memory.read(contents, count: count) else { return .unreadable }
        return .name(bytes)
    }

    private static func readWide(_ contents: UInt64, _ count: Int, _ memory: MemoryReading) -> RemoteName {
        guard count > 0 else { return .name([]) }
        guard count <= maxLength, let bytes = memory.read(contents, count: count * 2) else { return .unreadable }
        let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8 }
        return .name(Array(String(decoding: units, as: UTF16.self).utf8))
    }
}
