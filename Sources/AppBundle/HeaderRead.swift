import Crypto
import ImageHeaders
import ImgtraceSupport

/// What reading one image file's first bytes told: its header (or why there is none), a hash of
/// its first 4 KiB for the duplicate pass, and, when the file was read whole, its digest.
struct HeaderRead {
    var header: Result<ImageInfo?, any Error>
    var firstBytes: Int?
    /// SHA-256 of the whole file, lowercase hex; nil when only its first bytes were read.
    var digest: String?

    /// Reads `path`'s header as `addFile` always has: the first 4 KiB, more while the header asks.
    /// With `mayHaveTwin` (another file has its size), a file those reads took whole is digested
    /// from the same bytes, so the duplicate pass need not open it again.
    init(_ tree: FileTree, path: String, size: Int, mayHaveTwin: Bool) {
        var firstBytes: Int?
        var digest: String?
        header = Result(catching: {
            try ImageHeaderReader.read(fileSize: size) { length in
                let bytes = try tree.prefix(path, length)
                if firstBytes == nil { firstBytes = prefixHash(bytes) }
                if mayHaveTwin, bytes.count == size { digest = hex(SHA256.hash(data: bytes)) }
                return bytes
            }
        })
        self.firstBytes = firstBytes
        self.digest = digest
    }
}

extension InventoryBuilder {
    /// Reads the headers of `candidates` (indices into `tree.entries`) on every core, ahead of the
    /// one-file-at-a-time pass that builds the inventory (opening, reading and parsing 20,000 headers
    /// is most of `catalog`'s time). Returns a read per entry of the tree, nil where none was made
    /// (the pass then reads the file itself); none at all for a tree read through one archive.
    func readHeadersAhead(_ tree: FileTree, candidates: [Int]) -> [HeaderRead?] {
        guard tree.readsConcurrently, candidates.count > 1 else { return [] }
        var sharedSizes: [Int: Int] = [:]
        for index in candidates { sharedSizes[tree.entries[index].size, default: 0] += 1 }
        let reads = parallelMap(candidates) { index in
            let entry = tree.entries[index]
            return HeaderRead(tree, path: entry.path, size: entry.size, mayHaveTwin: sharedSizes[entry.size]! > 1)
        }
        var byEntry = [HeaderRead?](repeating: nil, count: tree.entries.count)
        for (index, read) in zip(candidates, reads) { byEntry[index] = read }
        return byEntry
    }
}
