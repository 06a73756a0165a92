import ImgtraceSupport

/// A folder inside another tree, seen as a tree of its own (the `.app` inside an `.ipa` or `.xcarchive`).
struct SubTree: FileTree {
    let base: FileTree
    let prefix: String
    let entries: [TreeEntry]
    var warnings: [String] { base.warnings }
    var readsConcurrently: Bool { base.readsConcurrently }

    init(_ base: FileTree, folder: String) {
        self.base = base
        let prefix = folder.isEmpty ? "" : folder + "/"
        self.prefix = prefix
        entries = base.entries.compactMap { entry in
            guard entry.path.hasPrefix(prefix), entry.path.count > prefix.count else { return nil }
            var copy = entry
            copy.path = String(entry.path.dropFirst(prefix.count))
            return copy
        }
    }

    func prefix(_ path: String, _ limit: Int) throws -> [UInt8] { try base.prefix(prefix + path, limit) }
    func contents(_ path: String, maxBytes: Int) throws -> [UInt8] { try base.contents(prefix + path, maxBytes: maxBytes) }
    func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try base.forEachChunk(prefix + path, maxBytes: maxBytes, body)
    }
    func sha256(_ path: String) throws -> String { try base.sha256(prefix + path) }
    func sha256(ofTwins paths: [String]) -> [Result<String, any Error>] { base.sha256(ofTwins: paths.map { prefix + $0 }) }
    func size(of path: String, listed: Int) -> Int { base.size(of: prefix + path, listed: listed) }
    func withStart<R>(of path: String, listed: Int, _ body: (_ size: Int, _ first: (Int) throws -> [UInt8]) throws -> R) throws -> R {
        try base.withStart(of: prefix + path, listed: listed, body)
    }
}
