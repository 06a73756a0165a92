/// One line of `/proc/PID/maps`: an address range, its permissions, the file offset and path.
public struct MemoryMapping: Equatable, Sendable {
    public var start: UInt64
    public var end: UInt64
    public var executable: Bool
    public var offset: UInt64
    /// The mapped file, `nil` for anonymous memory, `[heap]`, `[stack]` and the like.
    public var path: String?

    /// Parses the text of `/proc/PID/maps`; lines that do not parse are skipped.
    public static func parse(_ text: String) -> [MemoryMapping] { parse(bytes: Array(text.utf8)) }

    /// The same, from the file's bytes in one pass: the recorder reads the maps at every change
    /// of the loaded libraries, and splitting strings cost seconds of a GNUstep launch.
    public static func parse(bytes: [UInt8]) -> [MemoryMapping] { parse(bytes: bytes, fileStartsOnly: false) }

    /// `fileStartsOnly`: only the mappings at file offset 0 (the rest are skipped before their
    /// path is made a string: a GNUstep app maps each of a hundred libraries four or five times,
    /// and the recorder reads the maps at every change).
    static func parse(bytes: [UInt8], fileStartsOnly: Bool) -> [MemoryMapping] {
        var out: [MemoryMapping] = []
        var i = 0
        let count = bytes.count
        func hex(_ i: inout Int) -> UInt64? {
            var value: UInt64 = 0
            var digits = 0
            while i < count {
                let b = bytes[i]
                let digit: UInt64
                switch b {
                case 0x30...0x39: digit = UInt64(b - 0x30)
                case 0x61...0x66: digit = UInt64(b - 0x61 + 10)
                case 0x41...0x46: digit = UInt64(b - 0x41 + 10)
                default: return digits > 0 && digits <= 16 ? value : nil
                }
                value = value &<< 4 | digit
                digits += 1
                i += 1
            }
            return digits > 0 && digits <= 16 ? value : nil
        }
        func skipSpaces(_ i: inout Int) { while i < count, bytes[i] == 0x20 { i += 1 } }
        func skipField(_ i: inout Int) { while i < count, bytes[i] != 0x20, bytes[i] != 0x0A { i += 1 } }
        while i < count {
            let lineStart = i
            var lineEnd = i
            while lineEnd < count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            defer { i = lineEnd + 1 }
            var at = lineStart
            guard let start = hex(&at), at < lineEnd, bytes[at] == 0x2D else { continue }
            at += 1
            guard let end = hex(&at), at < lineEnd, bytes[at] == 0x20 else { continue }
            skipSpaces(&at)
            let permissions = at
            skipField(&at)
            let executable = bytes[permissions..<min(at, lineEnd)].contains(0x78)
            skipSpaces(&at)
            guard let offset = hex(&at), at <= lineEnd, !fileStartsOnly || offset == 0 else { continue }
            skipSpaces(&at)
            skipField(&at)  // device
            skipSpaces(&at)
            skipField(&at)  // inode
            guard at <= lineEnd else { continue }
            skipSpaces(&at)
            var path: String?
            if at < lineEnd, bytes[at] == 0x2F {
                let text = String(decoding: bytes[at..<lineEnd], as: UTF8.self)
                path = text.hasSuffix(" (deleted)") ? nil : text
            }
            out.append(MemoryMapping(start: start, end: end, executable: executable, offset: offset, path: path))
        }
        return out
    }

    /// Each mapped file once, with its load base, from the text of `/proc/PID/maps`.
    public static func loadBases(bytes: [UInt8]) -> [(path: String, base: UInt64)] { loadBases(parse(bytes: bytes, fileStartsOnly: true)) }

    /// Each mapped file once, with its load base: the start of its mapping at file offset 0.
    public static func loadBases(_ mappings: [MemoryMapping]) -> [(path: String, base: UInt64)] {
        var seen = Set<String>()
        var out: [(String, UInt64)] = []
        for mapping in mappings where mapping.offset == 0 {
            guard let path = mapping.path, seen.insert(path).inserted else { continue }
            out.append((path, mapping.start))
        }
        return out
    }
}
