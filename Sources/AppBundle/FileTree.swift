import Crypto
import Foundation
import ImgtraceSupport

/// One file, folder or symbolic link inside an input, named by its path relative to the input's root.
package struct TreeEntry: Sendable {
    package enum Kind: Sendable, Equatable { case file, directory, symlink(String) }
    package var path: String
    package var kind: Kind
    package var size: Int
    /// For a path reached through a followed symbolic link: the link (`Resources`) and its target.
    package var link: String?

    package init(path: String, kind: Kind, size: Int, link: String? = nil) {
        self.path = path
        self.kind = kind
        self.size = size
        self.link = link
    }
}

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
}

extension FileTree {
    /// Trees held in memory give their one buffer.
    package func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try contents(path, maxBytes: maxBytes).withUnsafeBytes { try body($0) }
    }
}

/// Limits that keep a hostile input from costing unbounded time or memory.
enum TreeLimits {
    static let maxEntries = 1_000_000
    static let maxDepth = 64
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

/// A folder on disk, read as the system loads it: through its symbolic links (Debian links a
/// GNUstep app's `Resources` into /usr/share; macOS frameworks use `Versions/Current`). Each
/// folder is read once, by device and inode, so a link back up the tree or two links to one
/// place cannot loop or multiply the walk; the first path to reach a folder is the one listed.
struct DirectoryTree: FileTree {
    let root: String
    private(set) var entries: [TreeEntry] = []
    private(set) var warnings: [String] = []
    /// Folders already read (device, inode) → the path they were listed under.
    private var visited: [FolderIdentity: String] = [:]
    /// The root with every link resolved: a link to a folder that contains it is a loop too.
    private var realRoot = ""
    /// Folder names not to enter (a source tree's build products and version control).
    private let skipsFolder: @Sendable (String) -> Bool
    /// Digests by file identity: two links to one file (a 4 GiB one, in a hostile tree) are read once.
    private let digests = DigestCache()
    /// How many files' bytes were hashed (a digest found by identity is not counted).
    var filesHashed: Int { digests.count }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A file's or folder's identity on this machine.
    struct FolderIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            (device, inode) = PlatformIO.identity(info)
        }
    }

    init(root: String, skipsFolder: @escaping @Sendable (String) -> Bool = { _ in false }) throws {
        self.root = root
        self.skipsFolder = skipsFolder
        var info = stat()
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw InputError(path: root, reason: "no such folder")
        }
        // A top folder that cannot be listed is an unreadable input, never an app that ships nothing.
        guard let top = opendir(root) else {
            throw InputError(path: root, reason: "cannot read the folder (\(MappedFile.describe(errno: errno)))")
        }
        closedir(top)
        visited[FolderIdentity(info)] = ""
        realRoot = DirectoryTree.realPath(root) ?? root
        walk("", depth: 0, link: nil, ancestors: [FolderIdentity(info)])
        entries.sort { $0.path < $1.path }
    }

    private mutating func walk(_ relative: String, depth: Int, link: String?, ancestors: Set<FolderIdentity>) {
        guard depth < TreeLimits.maxDepth else {
            warnings.append("\(relative): folders nested more than \(TreeLimits.maxDepth) deep; not read")
            return
        }
        guard let names = listNames(relative) else { return }
        for name in names {
            guard entries.count < TreeLimits.maxEntries else {
                warnings.append("more than \(TreeLimits.maxEntries) files; the rest are not read")
                return
            }
            let path = relative.isEmpty ? name : relative + "/" + name
            guard let (info, through) = followed(path, link: link) else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if skipsFolder(name) { continue }
                guard let identity = enters(path, info: info, through: through, link: link, ancestors: ancestors) else { continue }
                entries.append(TreeEntry(path: path, kind: .directory, size: 0, link: through))
                walk(path, depth: depth + 1, link: through, ancestors: ancestors.union([identity]))
            case S_IFREG:
                entries.append(TreeEntry(path: path, kind: .file, size: Int(info.st_size), link: through))
            default:
                break  // sockets, devices, pipes are never images
            }
        }
    }

    /// The names in folder `relative`, sorted; nil (and a warning) when it cannot be listed.
    private mutating func listNames(_ relative: String) -> [String]? {
        guard let dir = opendir(relative.isEmpty ? root : root + "/" + relative) else {
            warnings.append("\(relative.isEmpty ? "." : relative): cannot list (\(MappedFile.describe(errno: errno)))")
            return nil
        }
        var names: [String] = []
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        return names.sorted()
    }

    /// What `path` is, a symbolic link followed as the loader would, and the link it was reached
    /// through (`path → target` for a link, else the folder's `link`); nil (and a warning) when it
    /// cannot be read or a link points nowhere.
    private mutating func followed(_ path: String, link: String?) -> (stat, String?)? {
        var info = stat()
        guard lstat(root + "/" + path, &info) == 0 else {
            warnings.append("\(path): cannot read (\(MappedFile.describe(errno: errno)))")
            return nil
        }
        guard info.st_mode & S_IFMT == S_IFLNK else { return (info, link) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = readlink(root + "/" + path, &buffer, buffer.count)
        let target = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
        guard stat(root + "/" + path, &info) == 0 else {
            warnings.append("\(path): symbolic link to \(SafeText.quoted(target)) points nowhere")
            return nil
        }
        return (info, "\(path) → \(target)")
    }

    /// The identity of folder `path` when the walk enters it: not when a link leads to a folder
    /// holding the root, nor to one already read (a loop back up is said; a second way in is not).
    private mutating func enters(_ path: String, info: stat, through: String?, link: String?, ancestors: Set<FolderIdentity>) -> FolderIdentity? {
        if through != link, let real = DirectoryTree.realPath(root + "/" + path), real == "/" || realRoot == real || realRoot.hasPrefix(real + "/") {
            warnings.append("\(path): symbolic link to a folder that holds the bundle itself; not followed")
            return nil
        }
        let identity = FolderIdentity(info)
        if let first = visited[identity] {
            // A link back to a folder above it is a loop; a second way into a folder read
            // elsewhere (`Versions/Current`) is the layout working as meant.
            if ancestors.contains(identity) {
                warnings.append("\(path): symbolic link loops back to \(SafeText.quoted(first.isEmpty ? "." : first)); not followed")
            }
            return nil
        }
        visited[identity] = path
        return identity
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
        let identity = stat(root + "/" + path, &info) == 0 ? FolderIdentity(info) : nil
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
    private var digests: [DirectoryTree.FolderIdentity: String] = [:]
    private let lock = NSLock()

    var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return digests.count
    }

    func digest(for identity: DirectoryTree.FolderIdentity) -> String? {
        lock.lock()
        defer { lock.unlock() }
        return digests[identity]
    }

    func store(_ digest: String, for identity: DirectoryTree.FolderIdentity) {
        lock.lock()
        defer { lock.unlock() }
        digests[identity] = digest
    }
}
