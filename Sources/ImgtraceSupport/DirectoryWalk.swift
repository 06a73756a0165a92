/// One file, folder or symbolic link inside an input, named by its path relative to the input's root.
package struct TreeEntry: Sendable {
    package enum Kind: Sendable, Equatable { case file, directory, symlink(String) }
    package var path: String
    package var kind: Kind
    /// The file's size in bytes; `TreeEntry.unlisted` for a file whose walk left its size to its
    /// reader (`FileSizes.whenRead`).
    package var size: Int
    /// For a path reached through a followed symbolic link: the link (`Resources`) and its target.
    package var link: String?
    /// The path's own bytes when they are not UTF-8 (`path` shows them with U+FFFD, which opens
    /// nothing); nil for every other path.
    package var rawPath: [UInt8]?

    package init(path: String, kind: Kind, size: Int, link: String? = nil, rawPath: [UInt8]? = nil) {
        self.path = path
        self.kind = kind
        self.size = size
        self.link = link
        self.rawPath = rawPath
    }

    /// The size of a file listed without it.
    package static let unlisted = -1

    /// The bytes that name the file on disk, relative to the root.
    package var pathBytes: [UInt8] { rawPath ?? Array(path.utf8) }
}

/// A file's or folder's identity on this machine: two paths with one identity are one thing.
package struct FileIdentity: Hashable, Sendable {
    package var device: UInt64
    package var inode: UInt64
    package init(_ info: stat) {
        (device, inode) = PlatformIO.identity(info)
    }
}

/// What a walk does with a symbolic link.
package enum LinkPolicy: Sendable {
    /// Followed as the loader follows it (Debian links a GNUstep app's `Resources` into
    /// /usr/share; macOS frameworks use `Versions/Current`); a link that leads to a folder holding
    /// the root is not followed, and each folder is read once, by identity.
    case followed
    /// Listed as itself (`.symlink`) and never entered: what git, a deletion and a source search see.
    case listed
}

/// When a walk learns the sizes of the files it lists.
package enum FileSizes: Sendable {
    /// Every entry's status is taken while its folder is listed.
    case listed
    /// A name the folder lists as a regular file is not looked up again: its size is
    /// `TreeEntry.unlisted`, left to whoever opens it (a bundle's reader opens each image anyway,
    /// and a status per file was a walk's largest cost). Folders, links and names of unknown
    /// type still get their status.
    case whenRead
}

/// What a walk does with a folder it meets, by its name.
package enum FolderRule: Sendable {
    /// Listed, and its contents walked.
    case enter
    /// Listed, its contents not walked (a package read by another reader).
    case listOnly
    /// Neither listed nor walked (version control, build products).
    case skip
}

/// One walk over a folder on disk. Every reader of a tree on disk lists it here, so the limits
/// (depth, entries), the link policy, the order (by path) and the warnings are one set:
/// bundles, source trees, the projects under a root, `unused --fix`'s deletions, `catalog`'s hint.
package struct DirectoryWalk {
    /// More entries than this is a hostile tree: the rest are not listed, with a warning.
    package static let maxEntries = 1_000_000
    /// Folders nested deeper than this are not entered, with a warning.
    package static let maxDepth = 64

    /// Every entry, sorted by path; nothing outside the root.
    package private(set) var entries: [TreeEntry] = []
    /// Entries skipped for safety and folders that could not be listed, one sentence each.
    package private(set) var warnings: [String] = []

    private let root: String
    private let links: LinkPolicy
    private let limit: Int
    private let rule: (String) -> FolderRule
    private let sizes: FileSizes
    /// Whether the entry limit stopped the walk.
    private var truncated = false
    /// Folders already read → the path they were listed under.
    private var visited: [FileIdentity: String] = [:]
    /// The root with every link resolved: a link to a folder that contains it is a loop too.
    private let realRoot: String

    /// Lists `root`; throws when `root` is not a folder that can be read (an unreadable input is
    /// never an empty one).
    package init(
        root: String, links: LinkPolicy, maxEntries: Int = DirectoryWalk.maxEntries, sizes: FileSizes = .listed,
        folders rule: @escaping (String) -> FolderRule = { _ in .enter }
    ) throws {
        self.root = root
        self.sizes = sizes
        self.links = links
        self.limit = maxEntries
        self.rule = rule
        realRoot = PlatformIO.realPath(root) ?? root
        var info = stat()
        guard stat(root, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw InputError(path: root, reason: "no such folder")
        }
        guard let top = opendir(root) else {
            throw InputError(path: root, reason: "cannot read the folder (\(MappedFile.describe(errno: errno)))")
        }
        closedir(top)
        visited[FileIdentity(info)] = ""
        walk(Folder(path: ""), depth: 0, link: nil, ancestors: [FileIdentity(info)])
        entries.sort { $0.path < $1.path }
    }

    /// A path relative to the root: its text, and its bytes when a name on the way is not UTF-8
    /// (the text then shows U+FFFD, which opens nothing); most paths carry no bytes of their own.
    private struct Folder {
        var path: String
        var raw: [UInt8]?

        func child(_ name: [UInt8]) -> Folder {
            // An ASCII name (nearly every one) needs no validation: its bytes are its text.
            if raw == nil, let text = name.allSatisfy({ $0 < 0x80 }) ? String(decoding: name, as: UTF8.self) : String(validating: name, as: UTF8.self) {
                return Folder(path: path.isEmpty ? text : path + "/" + text)
            }
            let shown = String(decoding: name, as: UTF8.self)
            let base = raw ?? Array(path.utf8)
            return Folder(path: path.isEmpty ? shown : path + "/" + shown, raw: base.isEmpty ? name : base + [UInt8(ascii: "/")] + name)
        }
    }

    private mutating func walk(_ folder: Folder, depth: Int, link: String?, ancestors: Set<FileIdentity>) {
        guard depth < Self.maxDepth else {
            warnings.append("\(folder.path): folders nested more than \(Self.maxDepth) deep; not read")
            return
        }
        guard let names = listNames(folder) else { return }
        for (name, status) in names {
            guard entries.count < limit else {
                // Said once: every folder the walk is inside stops here too.
                if !truncated { warnings.append("more than \(limit) files; the rest are not read") }
                truncated = true
                return
            }
            let child = folder.child(name)
            let path = child.path
            guard let (info, through) = followed(child, status: status, link: link) else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let choice = rule(String(decoding: name, as: UTF8.self))
                if choice == .skip { continue }
                guard let identity = enters(child, info: info, through: through, link: link, ancestors: ancestors) else { continue }
                entries.append(TreeEntry(path: path, kind: .directory, size: 0, link: through, rawPath: child.raw))
                if choice == .enter {
                    walk(child, depth: depth + 1, link: through, ancestors: ancestors.union([identity]))
                }
            case S_IFREG:
                entries.append(TreeEntry(path: path, kind: .file, size: Int(info.st_size), link: through, rawPath: child.raw))
            case S_IFLNK:
                entries.append(TreeEntry(path: path, kind: .symlink(linkTarget(child)), size: 0, rawPath: child.raw))
            default:
                break  // sockets, devices, pipes are never images nor sources
            }
        }
    }

    /// `root/path` as a C string, for the system calls: from the text, or the bytes when it has them.
    private func withPath<T>(_ entry: Folder, _ body: (UnsafePointer<CChar>) -> T) -> T {
        guard let raw = entry.raw else { return (entry.path.isEmpty ? root : root + "/" + entry.path).withCString(body) }
        let bytes = Array(root.utf8) + [UInt8(ascii: "/")] + raw + [0]
        return bytes.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: CChar.self)) }
    }

    /// The names in `folder`, sorted by their bytes (the entries are sorted as text at the end),
    /// each with its own status (`lstat`, taken through the open folder: no path to look up
    /// again per name) or the `errno` that refused it; nil (and a warning) when it cannot be listed.
    /// Names past the entry limit, which the walk never reaches, are listed without a status.
    private mutating func listNames(_ folder: Folder) -> [(name: [UInt8], status: Result<stat, Errno>)]? {
        guard let dir = withPath(folder, { opendir($0) }) else {
            warnings.append("\(folder.path.isEmpty ? "." : folder.path): cannot list (\(MappedFile.describe(errno: errno)))")
            return nil
        }
        defer { closedir(dir) }
        let names = Self.sortedNames { readdir(dir) }
        let descriptor = dirfd(dir)
        let reached = max(0, limit - entries.count + 1)
        let skipsFiles = sizes == .whenRead
        let status = { (index: Int, listed: ListedName) -> (name: [UInt8], status: Result<stat, Errno>) in
            let name = listed.name
            guard index < reached else { return (name, .failure(Errno(code: 0))) }
            var info = stat()
            if skipsFiles, listed.type == UInt8(DT_REG) {
                info.st_mode = S_IFREG
                info.st_size = off_t(TreeEntry.unlisted)
                return (name, .success(info))
            }
            let found = (name + [0]).withUnsafeBytes { fstatat(descriptor, $0.baseAddress!.assumingMemoryBound(to: CChar.self), &info, AT_SYMLINK_NOFOLLOW) }
            return (name, found == 0 ? .success(info) : .failure(Errno(code: errno)))
        }
        // A folder of thousands of files (an app's flat resources) is most of a walk's system
        // calls: their statuses are taken on every core, each independent of the others.
        if !skipsFiles, names.count >= Self.namesStatedInParallel { return parallelMap(Array(names.enumerated())) { status($0.offset, $0.element) } }
        return names.enumerated().map(status)
    }

    /// A name as its folder lists it, with the type the listing gives (`DT_UNKNOWN` on file
    /// systems that do not say).
    private struct ListedName {
        var name: [UInt8]
        var type: UInt8
    }

    /// From how many names a folder's statuses are taken on several threads.
    private static let namesStatedInParallel = 256

    /// The names an open folder lists (not `.` and `..`), sorted by their bytes. They are read into
    /// one buffer and sorted as spans of it, compared by their first sixteen bytes as two numbers
    /// and only on a tie by `memcmp`: sorting 15,000 separate arrays cost a retain and a release
    /// of both on every comparison, most of a large walk's time.
    private static func sortedNames(_ next: () -> UnsafeMutablePointer<dirent>?) -> [ListedName] {
        var bytes: [UInt8] = []
        var spans: [(high: UInt64, low: UInt64, start: Int, count: Int, type: UInt8)] = []
        while let item = next() {
            let type = item.pointee.d_type
            withUnsafeBytes(of: item.pointee.d_name) { raw in
                let name = raw.prefix { $0 != 0 }
                if name.elementsEqual([UInt8(ascii: ".")]) || name.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) { return }
                // The first sixteen bytes, big-endian and zero-padded: their order as numbers is the names' byte order.
                var high: UInt64 = 0
                var low: UInt64 = 0
                for (offset, byte) in name.prefix(16).enumerated() {
                    if offset < 8 { high |= UInt64(byte) << (56 - 8 * offset) } else { low |= UInt64(byte) << (56 - 8 * (offset - 8)) }
                }
                spans.append((high, low, bytes.count, name.count, type))
                bytes.append(contentsOf: name)
            }
        }
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
            spans.sort { a, b in
                if a.high != b.high { return a.high < b.high }
                if a.low != b.low { return a.low < b.low }
                // Equal first sixteen bytes (or a shorter name padded with zeros as a longer one's zero bytes).
                let order = memcmp(base + a.start, base + b.start, min(a.count, b.count))
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
        return spans.map { ListedName(name: Array(bytes[$0.start..<($0.start + $0.count)]), type: $0.type) }
    }

    private func linkTarget(_ entry: Folder) -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = withPath(entry) { readlink($0, &buffer, buffer.count) }
        return n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
    }

    /// An `errno` kept for later (a name's status is taken while its folder is listed).
    private struct Errno: Error { var code: Int32 }

    /// What `entry` is (its `status`, from the listing) — under `.followed`, a symbolic link followed as the loader
    /// would, with the link it was reached through (`path → target` for a link, else the folder's
    /// `link`); nil (and a warning) when it cannot be read or a followed link points nowhere.
    private mutating func followed(_ entry: Folder, status: Result<stat, Errno>, link: String?) -> (stat, String?)? {
        var info: stat
        switch status {
        case .success(let found): info = found
        case .failure(let refused):
            warnings.append("\(entry.path): cannot read (\(MappedFile.describe(errno: refused.code)))")
            return nil
        }
        guard links == .followed, info.st_mode & S_IFMT == S_IFLNK else { return (info, link) }
        let target = linkTarget(entry)
        guard withPath(entry, { stat($0, &info) }) == 0 else {
            warnings.append("\(entry.path): symbolic link to \(SafeText.quoted(target)) points nowhere")
            return nil
        }
        return (info, "\(entry.path) → \(target)")
    }

    /// The identity of folder `path` when the walk enters it: not when a link leads to a folder
    /// holding the root, nor to one already read (a loop back up is said; a second way in is not).
    private mutating func enters(
        _ entry: Folder, info: stat, through: String?, link: String?, ancestors: Set<FileIdentity>
    ) -> FileIdentity? {
        let path = entry.path
        if through != link, let real = withPath(entry, { PlatformIO.realPath(String(cString: $0)) }),
            real == "/" || realRoot == real || realRoot.hasPrefix(real + "/")
        {
            warnings.append("\(path): symbolic link to a folder that holds the bundle itself; not followed")
            return nil
        }
        let identity = FileIdentity(info)
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
}
