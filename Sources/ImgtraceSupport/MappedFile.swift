/// A read-only file mapped into memory, so large inputs are read in place as bytes.
///
/// The mapping lives as long as the value; use `withBytes` to read it.
package final class MappedFile: @unchecked Sendable {
    /// The path the file was opened from, as given.
    package let path: String
    /// Size of the file in bytes.
    package let count: Int
    private let base: UnsafeMutableRawPointer?

    /// Opens and maps `path`. Throws `InputError` naming the path for a missing file, a
    /// directory, or a file that cannot be read.
    package init(path: String) throws {
        self.path = path
        let (fd, size) = try MappedFile.openRegularFile(path)
        defer { close(fd) }
        count = size
        if count == 0 {
            base = nil
            return
        }
        let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, fd, 0)
        guard let mapped, mapped != MAP_FAILED else {
            throw InputError(path: path, reason: MappedFile.describe(errno: errno))
        }
        // Logs and catalogs are read front to back once.
        _ = madvise(mapped, count, MADV_SEQUENTIAL)
        base = mapped
    }

    deinit {
        if let base { munmap(base, count) }
    }

    /// Calls `body` with the file's bytes. The buffer must not escape the closure.
    package func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(start: base.map { UnsafeRawPointer($0) }, count: count))
    }

    /// Opens `path` for reading and checks it is a regular file: returns the descriptor
    /// (the caller closes it) and the size, or throws `InputError` naming the path.
    package static func openRegularFile(_ path: String, rawPath: [UInt8]? = nil) throws -> (fd: Int32, size: Int) {
        let opened = try openRegularFile(in: AT_FDCWD, path, rawPath: rawPath)
        return (opened.fd, Int(opened.status.st_size))
    }

    /// Opens `relative` (a path inside the folder open as `folder`, or `AT_FDCWD`) as
    /// `openRegularFile(_:rawPath:)` does, and gives its status too (its size and identity): a
    /// tree read file by file looks each name up below its root only, once.
    package static func openRegularFile(
        in folder: Int32, _ relative: String, rawPath: [UInt8]? = nil, named path: @autoclosure () -> String? = nil
    ) throws -> (fd: Int32, status: stat) {
        // Non-blocking, so a named pipe with no writer answers at once instead of blocking
        // `open(2)` forever; it is then refused below as not a regular file. (On the regular
        // files that pass, O_NONBLOCK changes nothing, so it is left set.) A name that is not
        // UTF-8 is opened by its bytes: `path` only names it in messages.
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC
        let fd: Int32
        if let rawPath {
            fd = (rawPath + [0]).withUnsafeBytes { openat(folder, $0.baseAddress!.assumingMemoryBound(to: CChar.self), flags) }
        } else {
            fd = openat(folder, relative, flags)
        }
        guard fd >= 0 else { throw InputError(path: path() ?? relative, reason: describe(errno: errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw InputError(path: path() ?? relative, reason: describe(errno: code))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw InputError(
                path: path() ?? relative,
                reason: kind == S_IFDIR
                    ? "is a directory, expected a file"
                    : kind == S_IFIFO
                        ? "is a named pipe, expected a regular file" : "is not a regular file")
        }
        return (fd, info)
    }

    package static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES: return "permission denied"
        case EISDIR: return "is a directory, expected a file"
        default: return String(cString: strerror(code))
        }
    }
}
