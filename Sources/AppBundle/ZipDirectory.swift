import ImgtraceSupport

/// The central directory of a zip archive, read by us before ZIPFoundation sees the file.
///
/// ZIPFoundation converts sizes and offsets from the file with trapping conversions and
/// allocates what a symbolic link's header claims, so every number it will use is checked
/// here first: an archive whose directory points outside itself or declares sizes no file can
/// have is refused whole, with the offset of the entry at fault. Link targets are read here
/// too, so ZIPFoundation never extracts a link.
package struct ZipDirectory {
    struct Entry: Equatable {
        var path: String
        var method: UInt16
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localHeaderOffset: UInt64
        var isSymlink: Bool
        /// Where the central directory record starts, for errors.
        var recordOffset: Int
    }

    /// Entries in directory order (the order ZIPFoundation iterates in).
    private(set) var entries: [Entry] = []

    /// The largest size or offset accepted (4 EiB): any two of them add up without overflow.
    static let maxValue: UInt64 = 1 << 62

    /// The longest link target read; longer ones are not paths a bundle needs.
    static let maxLinkTarget = 4096

    /// Parses and vets the directory of the archive `bytes`.
    package init(_ bytes: UnsafeRawBufferPointer) throws {
        let r = ByteReader(bytes)
        let end = try ZipDirectory.endRecord(r)
        var entryCount = Int(try r.u16le(end + 10))
        var directorySize = UInt64(try r.u32le(end + 12))
        var directoryOffset = UInt64(try r.u32le(end + 16))
        // ZIPFoundation takes the ZIP64 end record from its fixed place right before the locator
        // whenever both are there, whatever the 32-bit fields say: vet exactly that record.
        if end > 76, r.matches(end - 20, "PK\u{06}\u{07}"), r.matches(end - 76, "PK\u{06}\u{06}"),
            try r.u16le(end - 76 + 14) >= 45
        {
            let at = end - 76
            let pointer = try r.u64le(end - 20 + 8)
            guard pointer == UInt64(at) else {
                throw FormatError(offset: end - 20, reason: "ZIP64 locator points at \(pointer), but the ZIP64 end record is at \(at)")
            }
            let count64 = try r.u64le(at + 32)
            guard count64 <= UInt64(r.count / 46) else {
                throw FormatError(offset: at + 32, reason: "ZIP64 end record claims \(count64) entries, more than the archive can hold")
            }
            entryCount = Int(count64)
            directorySize = try r.u64le(at + 40)
            directoryOffset = try r.u64le(at + 48)
        }
        let size = UInt64(r.count)
        guard directoryOffset <= size, directorySize <= size - directoryOffset else {
            throw FormatError(offset: end, reason: "central directory (\(directorySize) bytes at \(directoryOffset)) is not in the archive")
        }
        guard entryCount <= Int(directorySize) / 46 else {
            throw FormatError(offset: end, reason: "\(entryCount) entries claimed, the central directory holds \(Int(directorySize) / 46) at most")
        }
        var at = Int(directoryOffset)
        entries.reserveCapacity(entryCount)
        for _ in 0..<entryCount {
            let entry = try ZipDirectory.record(r, at: at, archiveSize: size)
            entries.append(entry.entry)
            at = entry.next
        }
    }

    /// The end-of-central-directory record: the last `PK\5\6` within the final 64 KiB + 22 bytes.
    private static func endRecord(_ r: ByteReader) throws -> Int {
        guard r.count >= 22 else { throw FormatError(offset: 0, reason: "shorter than a zip end record") }
        var at = r.count - 22
        let lowest = max(0, r.count - 22 - 0xFFFF)
        while at >= lowest {
            if r.matches(at, "PK\u{05}\u{06}") { return at }
            at -= 1
        }
        throw FormatError(offset: r.count, reason: "no zip end-of-central-directory record")
    }

    private static func record(_ r: ByteReader, at: Int, archiveSize: UInt64) throws -> (entry: Entry, next: Int) {
        guard r.matches(at, "PK\u{01}\u{02}") else { throw FormatError(offset: at, reason: "central directory record has no `PK\\1\\2` signature") }
        let madeBy = try r.u16le(at + 4)
        let method = try r.u16le(at + 10)
        var compressed = UInt64(try r.u32le(at + 20))
        var uncompressed = UInt64(try r.u32le(at + 24))
        let nameLength = Int(try r.u16le(at + 28))
        let extraLength = Int(try r.u16le(at + 30))
        let commentLength = Int(try r.u16le(at + 32))
        let external = try r.u32le(at + 38)
        var localOffset = UInt64(try r.u32le(at + 42))
        let path = String(decoding: try r.slice(at + 46, nameLength), as: UTF8.self)
        // ZIP64 extended information: an 8-byte value for each 32-bit field that is all ones, in order.
        var extra = at + 46 + nameLength
        let extraEnd = extra + extraLength
        try r.check(extra, extraLength, "the extra fields of \(SafeText.quoted(path))")
        while extra + 4 <= extraEnd {
            let id = try r.u16le(extra), length = Int(try r.u16le(extra + 2))
            guard length <= extraEnd - extra - 4 else { break }
            if id == 0x0001 {
                var field = extra + 4
                let fieldEnd = field + length
                // Every 8-byte value in the block must stay clear of ZIPFoundation's signed
                // conversions and of overflow when it adds two of them, whatever the all-ones
                // fields say each stands for.
                var probe = field
                while probe + 8 <= fieldEnd {
                    let value = try r.u64le(probe)
                    guard value <= ZipDirectory.maxValue else {
                        throw FormatError(offset: probe, reason: "\(SafeText.quoted(path)): ZIP64 field \(value) is beyond any archive")
                    }
                    probe += 8
                }
                if uncompressed == 0xFFFF_FFFF, field + 8 <= fieldEnd { uncompressed = try r.u64le(field); field += 8 }
                if compressed == 0xFFFF_FFFF, field + 8 <= fieldEnd { compressed = try r.u64le(field); field += 8 }
                if localOffset == 0xFFFF_FFFF, field + 8 <= fieldEnd { localOffset = try r.u64le(field) }
            }
            extra += 4 + length
        }
        guard localOffset < archiveSize else {
            throw FormatError(offset: at + 42, reason: "\(SafeText.quoted(path)): local header at \(localOffset) is past the end of the archive")
        }
        guard compressed <= archiveSize else {
            throw FormatError(offset: at + 20, reason: "\(SafeText.quoted(path)): \(compressed) compressed bytes in a \(archiveSize)-byte archive")
        }
        guard uncompressed <= ZipDirectory.maxValue, method != 0 || uncompressed <= archiveSize else {
            throw FormatError(offset: at + 24, reason: "\(SafeText.quoted(path)): declares \(uncompressed) bytes, more than the archive can hold")
        }
        let unixMode = madeBy >> 8 == 3 ? external >> 16 : 0
        let entry = Entry(
            path: path, method: method, compressedSize: compressed, uncompressedSize: uncompressed,
            localHeaderOffset: localOffset, isSymlink: unixMode & 0o170000 == 0o120000, recordOffset: at)
        return (entry, extraEnd + commentLength)
    }

    /// The target of a stored (uncompressed) link entry, read from its local header; `nil` when
    /// it is compressed, longer than `maxLinkTarget` or not where the directory says.
    static func linkTarget(_ entry: Entry, in bytes: UnsafeRawBufferPointer) -> String? {
        let r = ByteReader(bytes)
        let at = Int(entry.localHeaderOffset)
        guard entry.method == 0, entry.compressedSize <= UInt64(maxLinkTarget), r.matches(at, "PK\u{03}\u{04}"),
            let nameLength = try? r.u16le(at + 26), let extraLength = try? r.u16le(at + 28),
            let target = try? r.slice(at + 30 + Int(nameLength) + Int(extraLength), Int(entry.compressedSize))
        else { return nil }
        return String(decoding: target, as: UTF8.self)
    }
}
