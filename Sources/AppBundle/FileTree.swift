import Crypto
import Foundation
import ImgtraceSupport

/// A read-only tree of files: a folder on disk or a zip archive read in place.
package protocol FileTree {
    /// Every entry, sorted by path; nothing outside the root.
    var entries: [TreeEntry] { get }
    /// Problems met while listing (entries skipped for safety, unreadable folders).
    var warnings: [String] { get }
    /// The first `limit` bytes of a file (fewer when the file is shorter).
    func prefix(_ path: String, _ limit: Int) throws -> [UInt8]
    /// The whole file, refused when larger than `maxBytes`.
    func contents(_ path: String, maxBytes: Int) throws -> [UInt8]
    /// SHA-256 of the file's bytes, lowercase hex.
    func sha256(_ path: String) throws -> String
    /// The file's bytes in order, in chunks of bounded size; refused when larger than `maxBytes`.
    func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Whether several threads may read files at once (each read opens its own file).
    var readsConcurrently: Bool { get }
}

extension FileTree {
    package var readsConcurrently: Bool { false }

    /// Trees held in memory give their one buffer.
    package func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try contents(path, maxBytes: maxBytes).withUnsafeBytes { try body($0) }
    }
}

/// Limits that keep a hostile input from costing unbounded time or memory (a folder on disk
/// has `DirectoryWalk`'s).
enum TreeLimits {
    static let maxEntries = DirectoryWalk.maxEntries
    /// A declared size beyond this, or a ratio beyond `maxRatio` for entries over `ratioFloor`, is a zip bomb.
    static let maxEntryBytes: UInt64 = 2 << 30
    static let maxRatio: UInt64 = 100
    static let ratioFloor: UInt64 = 1 << 20
}

/// Hex digits of a digest.
func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    for b in digest {
        out.append(digits[Int(b >> 4)])
        out.append(digits[Int(b & 0xF)])
    }
    return String(decoding: out, as: UTF8.self)
}

/// Joins a link's directory and its target lexically; `nil` when the result leaves the root.
func resolveInside(_ directory: String, _ target: String) -> String? {
    guard !target.hasPrefix("/") else { return nil }
    var parts = directory.isEmpty ? [] : directory.split(separator: "/").map(String.init)
    for part in target.split(separator: "/") {
        if part == "." || part.isEmpty { continue }
        if part == ".." {
            guard !parts.isEmpty else { return nil }
            parts.removeLast()
        } else {
            parts.append(String(part))
        }
    }
    return parts.joined(separator: "/")
}

/// A folder on disk, read as the system loads it: through its symbolic links (`DirectoryWalk`'s
/// `.followed`), each folder once, the first path to reach a folder the one listed.
struct DirectoryTree: FileTree {
    let root: String
    let entries: [TreeEntry]
    let warnings: [String]
    /// Digests by file identity: two links to one file (a 4 GiB one, in a hostile tree) are read once.
    private let digests = DigestCache()
    /// How many files' bytes were hashed (a digest found by identity is not counted).
    var filesHashed: Int { digests.count }
    var readsConcurrently: Bool { true }

    init(root: String, skipsFolder: @escaping @Sendable (String) -> Bool = { _ in false }) throws {
        self.root = root
        let walk = try DirectoryWalk(root: root, links: .followed) { skipsFolder($0) ? .skip : .enter }
        entries = walk.entries
        warnings = walk.warnings
    }

    private func open(_ path: String) throws -> (Int32, Int) {
        try MappedFile.openRegularFile(root + "/" + path)
    }

    func prefix(_ path: String, _ limit: Int) throws -> [UInt8] {
        let (fd, size) = try open(path)
        defer { close(fd) }
        return try read(fd, count: min(limit, size), path: path)
    }

    private func read(_ fd: Int32, count: Int, path: String) throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(done)) }
            if n < 0 { throw InputError(path: path, reason: MappedFile.describe(errno: errno)) }
            if n == 0 { break }
            done += n
        }
        return Array(buffer[0..<done])
    }

    func contents(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let (fd, size) = try open(path)
        defer { close(fd) }
        guard size <= maxBytes else { throw InputError(path: path, reason: "larger than \(maxBytes) bytes; not read") }
        return try read(fd, count: size, path: path)
    }

    func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let (fd, size) = try open(path)
        close(fd)
        guard size <= maxBytes else { throw InputError(path: path, reason: "larger than \(maxBytes) bytes; not read") }
        try ChunkedFile(path: root + "/" + path).forEachChunk(body)
    }

    func sha256(_ path: String) throws -> String {
        var info = stat()
        let identity = stat(root + "/" + path, &info) == 0 ? FileIdentity(info) : nil
        if let identity, let known = digests.digest(for: identity) { return known }
        var hasher = SHA256()
        try ChunkedFile(path: root + "/" + path).forEachChunk { hasher.update(bufferPointer: $0) }
        let digest = hex(hasher.finalize())
        if let identity { digests.store(digest, for: identity) }
        return digest
    }
}

/// Digests already taken, by (device, inode); the inventory hashes on one thread, the lock keeps
/// the tree `Sendable` for any other.
private final class DigestCache: @unchecked Sendable {
    private var digests: [FileIdentity: String] = [:]
    private let lock = NSLock()

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return digests.count
    }

    func digest(for identity: FileIdentity) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return digests[identity]
    }

    func store(_ digest: String, for identity: FileIdentity) {
        lock.lock()
        defer { lock.unlock() }
        digests[identity] = digest
    }
}
