import Crypto
import ImgtraceSupport

/// A tree of files held in memory: tests and fuzz targets build bundles with it, no disk needed.
package struct MemoryTree: FileTree {
    package private(set) var entries: [TreeEntry] = []
    package var warnings: [String] { [] }
    private var files: [String: [UInt8]] = [:]

    /// A tree of `files` (path → bytes); parent folders are added, paths that climb out are dropped.
    package init(_ files: [String: [UInt8]]) {
        var folders = Set<String>()
        for (path, bytes) in files {
            guard let safe = ZipTree.safePath(path), !safe.isEmpty else { continue }
            self.files[safe] = bytes
            var parent = Substring(safe)
            while let slash = parent.lastIndex(of: "/") {
                parent = parent[..<slash]
                folders.insert(String(parent))
            }
        }
        for folder in folders where self.files[folder] == nil {
            entries.append(TreeEntry(path: folder, kind: .directory, size: 0))
        }
        for (path, bytes) in self.files where !folders.contains(path) {
            entries.append(TreeEntry(path: path, kind: .file, size: bytes.count))
        }
        entries.sort { $0.path < $1.path }
    }

    private func bytes(_ path: String) throws -> [UInt8] {
        guard let bytes = files[path] else { throw InputError(path: path, reason: "no such file") }
        return bytes
    }

    package func prefix(_ path: String, _ limit: Int) throws -> [UInt8] { Array(try bytes(path).prefix(limit)) }

    package func contents(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let found = try bytes(path)
        guard found.count <= maxBytes else { throw InputError(path: path, reason: "larger than \(maxBytes) bytes; not read") }
        return found
    }

    package func sha256(_ path: String) throws -> String { hex(SHA256.hash(data: try bytes(path))) }
}
