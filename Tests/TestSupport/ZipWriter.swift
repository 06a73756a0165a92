/// Writes small zip archives byte by byte (stored entries), so tests can also write the fields
/// no honest tool writes: ZIP64 sizes beyond any file, links that claim gigabytes.
public enum ZipWriter {
    public struct Entry {
        public var path: String
        public var bytes: [UInt8]
        public var isSymlink = false
        /// Replaces the central directory's sizes with all-ones and a ZIP64 block of these values.
        public var zip64: (uncompressed: UInt64, compressed: UInt64)?
        /// Sizes the central directory claims instead of the real ones.
        public var claimedSize: UInt32?

        public init(path: String, bytes: [UInt8], isSymlink: Bool = false, zip64: (UInt64, UInt64)? = nil, claimedSize: UInt32? = nil) {
            self.path = path
            self.bytes = bytes
            self.isSymlink = isSymlink
            self.zip64 = zip64.map { (uncompressed: $0.0, compressed: $0.1) }
            self.claimedSize = claimedSize
        }
    }

    /// An archive of plain files and links (path → target).
    public static func zip(_ files: [(String, [UInt8])], links: [(String, String)] = []) -> [UInt8] {
        zip(files.map { Entry(path: $0.0, bytes: $0.1) } + links.map { Entry(path: $0.0, bytes: Array($0.1.utf8), isSymlink: true) })
    }

    public static func zip(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let name = Array(entry.path.utf8)
            let crc = ImageWriter.crc32(entry.bytes)
            let size = UInt32(entry.bytes.count)
            let offset = UInt32(out.count)
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21) + le32(crc)
            out += le32(size) + le32(size) + le16(UInt16(name.count)) + le16(0) + name + entry.bytes
            var extra: [UInt8] = []
            var claimed = entry.claimedSize ?? size
            var compressed = entry.claimedSize ?? size
            if let zip64 = entry.zip64 {
                claimed = 0xFFFF_FFFF
                compressed = 0xFFFF_FFFF
                extra = le16(1) + le16(16) + le64(zip64.uncompressed) + le64(zip64.compressed)
            }
            let madeBy: UInt16 = 3 << 8 | 20
            let mode: UInt32 = entry.isSymlink ? 0o120777 : 0o100644
            central += le32(0x0201_4B50) + le16(madeBy) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21) + le32(crc)
            central += le32(compressed) + le32(claimed) + le16(UInt16(name.count)) + le16(UInt16(extra.count)) + le16(0)
            central += le16(0) + le16(0) + le32(mode << 16) + le32(offset) + name + extra
        }
        let centralOffset = UInt32(out.count)
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(centralOffset) + le16(0)
        return out
    }

    /// The archive `zip` (as `zip(_:)` writes it) with a ZIP64 end record and locator put before
    /// its end record, the way ZIP64 writers do. `offset` and `count` default to the archive's
    /// real directory; `locatorPointer` to where the record really is. `keepEndFields` leaves the
    /// end record's 32-bit fields as they were instead of all-ones.
    public static func withZIP64End(
        _ zip: [UInt8], count: UInt64? = nil, offset: UInt64? = nil, locatorPointer: UInt64? = nil,
        keepEndFields: Bool = false
    ) -> [UInt8] {
        let end = zip.count - 22
        func u16(_ at: Int) -> UInt64 { UInt64(zip[at]) | UInt64(zip[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt64 { u16(at) | u16(at + 2) << 16 }
        let realCount = u16(end + 10), realSize = u32(end + 12), realOffset = u32(end + 16)
        var out = Array(zip[..<end])
        out += le32(0x0606_4B50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0)
        out += le64(count ?? realCount) + le64(count ?? realCount) + le64(realSize) + le64(offset ?? realOffset)
        out += le32(0x0706_4B50) + le32(0) + le64(locatorPointer ?? UInt64(end)) + le32(1)
        if keepEndFields {
            out += zip[end...]
        } else {
            out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(0xFFFF) + le16(0xFFFF) + le32(0xFFFF_FFFF) + le32(0xFFFF_FFFF) + le16(0)
        }
        return out
    }
}

public func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
