import ImgtraceSupport

/// Interns names by their bytes, so a hit costs a hash and a compare, not a new `String`.
/// Memory grows with the number of distinct names only.
struct NameTable {
    private var storage: [UInt8] = []
    private var starts: [Int] = []
    private var lengths: [Int] = []
    private var hashes: [UInt64] = []
    private(set) var strings: [String] = []
    /// Whether the name's bytes are well-formed UTF-8.
    private(set) var valid: [Bool] = []
    private var slots = [Int32](repeating: -1, count: 1024)

    var count: Int { strings.count }

    /// The id of the name with these bytes, adding it when new.
    mutating func intern(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let hash = NameTable.hash(base, count)
        var slot = Int(truncatingIfNeeded: hash) & (slots.count - 1)
        while true {
            let id = Int(slots[slot])
            if id < 0 { break }
            if hashes[id] == hash, lengths[id] == count,
                storage.withUnsafeBufferPointer({ memcmp($0.baseAddress! + starts[id], base, count) == 0 })
            {
                return id
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        let id = strings.count
        starts.append(storage.count)
        lengths.append(count)
        hashes.append(hash)
        storage.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        let bytes = UnsafeBufferPointer(start: base, count: count)
        strings.append(String(decoding: bytes, as: UTF8.self))
        valid.append(ByteLine(base: base, count: count).isValidUTF8)
        slots[slot] = Int32(id)
        if strings.count * 2 > slots.count { grow() }
        return id
    }

    mutating func intern(_ bytes: [UInt8]) -> Int {
        if bytes.isEmpty {
            var zero: UInt8 = 0
            return withUnsafePointer(to: &zero) { intern($0, 0) }
        }
        return bytes.withUnsafeBufferPointer { intern($0.baseAddress!, $0.count) }
    }

    private mutating func grow() {
        var bigger = [Int32](repeating: -1, count: slots.count * 2)
        for id in 0..<strings.count {
            var slot = Int(truncatingIfNeeded: hashes[id]) & (bigger.count - 1)
            while bigger[slot] >= 0 { slot = (slot + 1) & (bigger.count - 1) }
            bigger[slot] = Int32(id)
        }
        slots = bigger
    }

    /// FNV-1a, eight bytes at a time for long names.
    @inline(__always) static func hash(_ base: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        var i = 0
        let raw = UnsafeRawPointer(base)
        while i + 8 <= count {
            h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x100000001b3
            h ^= h >> 29
            i += 8
        }
        while i < count {
            h = (h ^ UInt64(base[i])) &* 0x100000001b3
            i += 1
        }
        return h ^ (h >> 32)
    }
}
