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
    /// `sha256` of each of `paths`, files that share a size and first 4 KiB, in order.
    func sha256(ofTwins paths: [String]) -> [Result<String, any Error>]
    /// The file's bytes in order, in chunks of bounded size; refused when larger than `maxBytes`.
    func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
    /// Whether several threads may read files at once (each read opens its own file).
    var readsConcurrently: Bool { get }
    /// The size of the file at `path`, whose entry lists `listed` (`TreeEntry.unlisted` when the
    /// tree left it to be learnt on reading).
    func size(of path: String, listed: Int) -> Int
    /// Opens `path` once for reads of its first bytes: `body` gets the file's size and a reader
    /// of its first `n` bytes (fewer when the file is shorter).
    func withStart<R>(of path: String, listed: Int, _ body: (_ size: Int, _ first: (Int) throws -> [UInt8]) throws -> R) throws -> R
}

extension FileTree {
    package var readsConcurrently: Bool { false }

    /// Each file hashed on its own.
    package func sha256(ofTwins paths: [String]) -> [Result<String, any Error>] {
        paths.map { path in Result { try sha256(path) } }
    }

    /// Trees that list every size give it.
    package func size(of path: String, listed: Int) -> Int { listed }

    /// Trees without descriptors read each prefix on its own.
    package func withStart<R>(of path: String, listed: Int, _ body: (_ size: Int, _ first: (Int) throws -> [UInt8]) throws -> R) throws -> R {
        try body(listed) { try prefix(path, $0) }
    }

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
    /// The root held open: each file is looked up from it, not from `/` again (20,000 files of a
    /// bundle deep in DerivedData would walk its dozen folders 20,000 times).
    private let rootFolder: FolderDescriptor
    /// How many files' bytes were hashed (a digest found by identity is not counted).
    var filesHashed: Int { digests.count }
    var readsConcurrently: Bool { true }

    /// Lists `root`; with `sizes: .whenRead`, files' sizes are learnt as they are opened
    /// (`withStart`) or asked for (`size(of:listed:)`).
    init(root: String, sizes: FileSizes = .listed, skipsFolder: @escaping @Sendable (String) -> Bool = { _ in false }) throws {
        self.root = root
        let walk = try DirectoryWalk(root: root, links: .followed, sizes: sizes) { skipsFolder($0) ? .skip : .enter }
        entries = walk.entries
        warnings = walk.warnings
        rootFolder = FolderDescriptor(root)
    }

    private func open(_ path: String) throws -> (fd: Int32, status: stat) {
        guard rootFolder.fd >= 0 else { return try MappedFile.openRegularFile(in: AT_FDCWD, root + "/" + path) }
        return try MappedFile.openRegularFile(in: rootFolder.fd, path, named: root + "/" + path)
    }

    func size(of path: String, listed: Int) -> Int {
        guard listed == TreeEntry.unlisted else { return listed }
        var info = stat()
        // A file that cannot be looked up has no size to give: reading it says why.
        return stat(root + "/" + path, &info) == 0 ? Int(info.st_size) : 0
    }

    func withStart<R>(of path: String, listed: Int, _ body: (_ size: Int, _ first: (Int) throws -> [UInt8]) throws -> R) throws -> R {
        let (fd, status) = try open(path)
        defer { close(fd) }
        let size = Int(status.st_size)
        return try body(size) { try read(fd, count: min($0, size), path: path) }
    }

    func prefix(_ path: String, _ limit: Int) throws -> [UInt8] {
        let (fd, status) = try open(path)
        defer { close(fd) }
        return try read(fd, count: min(limit, Int(status.st_size)), path: path)
    }

    /// Up to `count` bytes from the start, read straight into the array (nothing zeroed or copied).
    private func read(_ fd: Int32, count: Int, path: String) throws -> [UInt8] {
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(done))
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = errno }
                if n <= 0 { break }
                done += n
            }
            initialized = done
        }
        if let failure { throw InputError(path: path, reason: MappedFile.describe(errno: failure)) }
        return bytes
    }

    func contents(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let (fd, status) = try open(path)
        defer { close(fd) }
        let size = Int(status.st_size)
        guard size <= maxBytes else { throw InputError(path: path, reason: "larger than \(maxBytes) bytes; not read") }
        return try read(fd, count: size, path: path)
    }

    func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let (fd, status) = try open(path)
        close(fd)
        guard Int(status.st_size) <= maxBytes else { throw InputError(path: path, reason: "larger than \(maxBytes) bytes; not read") }
        try ChunkedFile(path: root + "/" + path).forEachChunk(body)
    }

    /// One open per file: its status names it for the cache, and its bytes are read in 256 KiB chunks.
    func sha256(_ path: String) throws -> String {
        let (fd, status) = try open(path)
        defer { close(fd) }
        let identity = FileIdentity(status)
        if let known = digests.digest(for: identity) { return known }
        let digest = try hash(fd, status, path: path)
        digests.store(digest, for: identity)
        return digest
    }

    /// The files of one size and first 4 KiB, each opened once: one whose identity, or whose bytes
    /// (up to `comparedBytes`), are those of a file already hashed takes its digest. Duplicates
    /// are mostly copies: one hash a content, not one a file.
    func sha256(ofTwins paths: [String]) -> [Result<String, any Error>] {
        var hashed: [(bytes: [UInt8], digest: String)] = []
        return paths.map { path in
            Result {
                let (fd, status) = try open(path)
                defer { close(fd) }
                let identity = FileIdentity(status)
                if let known = digests.digest(for: identity) { return known }
                let size = Int(status.st_size)
                let digest: String
                if size > 0, size <= Self.comparedBytes {
                    let bytes = try readWhole(fd, size: size, path: path)
                    if let twin = hashed.first(where: { Self.equal($0.bytes, bytes) }) {
                        digest = twin.digest
                    } else {
                        digest = hex(SHA256.hash(data: bytes))
                        if hashed.count < Self.comparedContents { hashed.append((bytes, digest)) }
                    }
                } else {
                    digest = try hash(fd, status, path: path)
                }
                digests.store(digest, for: identity)
                return digest
            }
        }
    }

    /// Files up to this size are read whole and compared; larger ones are hashed as they are read.
    private static let comparedBytes = 1 << 20
    /// How many distinct contents of one group are kept to compare with.
    private static let comparedContents = 8

    private static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.count == b.count && a.withUnsafeBytes { a in b.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }

    /// The `size` bytes an open file had when opened, read from its start; errors as `hash` gives them.
    private func readWhole(_ fd: Int32, size: Int, path: String) throws -> [UInt8] {
        var failure: (offset: Int, code: Int32)?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            var offset = 0
            while offset < size {
                let n = PlatformIO.read(fd, buffer.baseAddress! + offset, size - offset)
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = (offset, errno) }
                if n <= 0 { break }
                offset += n
            }
            initialized = offset
        }
        if let failure { throw InputError(path: path, location: "offset \(failure.offset)", reason: MappedFile.describe(errno: failure.code)) }
        return bytes
    }

    /// SHA-256 of an open file's bytes, read in 256 KiB chunks.
    private func hash(_ fd: Int32, _ status: stat, path: String) throws -> String {
        var hasher = SHA256()
        let chunk = min(max(Int(status.st_size), 1), 256 << 10)
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        // Up to the size it had when opened (no read only to learn the end); a size of 0 may be
        // a file whose size the system does not know, read to its end.
        while status.st_size == 0 || offset < Int(status.st_size) {
            let n = PlatformIO.read(fd, buffer, chunk)
            if n < 0, errno == EINTR { continue }
            if n < 0 { throw InputError(path: path, location: "offset \(offset)", reason: MappedFile.describe(errno: errno)) }
            if n == 0 { break }
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: buffer, count: n))
            offset += n
        }
        return hex(hasher.finalize())
    }
}

/// A folder held open for `openat(2)`, closed with the last value that holds it; -1 when it
/// could not be opened (paths are then opened whole).
private final class FolderDescriptor: Sendable {
    let fd: Int32

    init(_ path: String) { fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }

    deinit { if fd >= 0 { close(fd) } }
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
