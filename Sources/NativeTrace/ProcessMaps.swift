/// One line of `/proc/PID/maps`: an address range, its permissions, the file offset and path.
public struct MemoryMapping: Equatable, Sendable {
    public var start: UInt64
    public var end: UInt64
    public var executable: Bool
    public var offset: UInt64
    /// The mapped file, `nil` for anonymous memory, `[heap]`, `[stack]` and the like.
    public var path: String?

    /// Parses the text of `/proc/PID/maps`; lines that do not parse are skipped.
    public static func parse(_ text: String) -> [MemoryMapping] {
        var out: [MemoryMapping] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5 else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt64(range[0], radix: 16), let end = UInt64(range[1], radix: 16),
                let offset = UInt64(fields[2], radix: 16)
            else { continue }
            var path: String?
            if fields.count == 6 {
                let text = fields[5].trimmingLeadingSpaces()
                if text.hasPrefix("/") { path = text.hasSuffix(" (deleted)") ? nil : text }
            }
            out.append(MemoryMapping(start: start, end: end, executable: fields[1].contains("x"), offset: offset, path: path))
        }
        return out
    }

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

extension Substring {
    fileprivate func trimmingLeadingSpaces() -> String { String(drop { $0 == " " }) }
}
