// The one place the C library's module is named: every target that imports ImgtraceSupport gets
// the POSIX calls from here (Glibc on Linux, Darwin on macOS). `scripts/check-portable.sh`
// fails the build when another file names a platform module or a Linux-only API.
#if canImport(Glibc)
    @_exported import Glibc
#elseif canImport(Darwin)
    @_exported import Darwin
#endif

/// The C library calls whose module name differs between Linux (Glibc) and macOS (Darwin),
/// behind one name, so no other file has to spell a platform module.
package enum PlatformIO {
    /// `write(2)`.
    @inline(__always)
    package static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.write(fd, bytes, count)
        #else
            return Darwin.write(fd, bytes, count)
        #endif
    }

    /// `read(2)`.
    @inline(__always)
    package static func read(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            return Glibc.read(fd, bytes, count)
        #else
            return Darwin.read(fd, bytes, count)
        #endif
    }

    /// The device and inode of a `stat` result, whatever width the platform gives them.
    package static func identity(_ info: stat) -> (device: UInt64, inode: UInt64) {
        (UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// Whether `fd` is a terminal.
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Writes all of `text` to standard error, ignoring failures (there is nowhere left to
    /// report them). Standard error reaches terminals and CI runners too: it passes the terminal
    /// guard (docs/output-safety.md).
    package static func writeStandardError(_ text: String) {
        var guardrail = OutputGuard(consumer: .terminal)
        var bytes: [UInt8] = []
        var text = text
        text.withUTF8 { guardrail.filter($0, into: &bytes) }
        guardrail.finish(into: &bytes)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(2, raw.baseAddress! + offset, raw.count - offset)
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                offset += n
            }
        }
    }

    /// Device and inode of the file `path` names, through symbolic links; nil when there is none.
    package static func fileIdentity(_ path: String) -> (device: UInt64, inode: UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return identity(info)
    }

    /// The permission bits of the file `path` names (through links), when it exists.
    package static func fileMode(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & 0o7777
    }

    /// Whether `path` is a symbolic link whose chain ends nowhere.
    package static func isDanglingLink(_ path: String) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return false }
        return stat(path, &info) != 0
    }

    /// The file a symbolic link `path` finally names (absolute), or nil when `path` is no link.
    package static func resolvedLink(_ path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The absolute path of `path` with every link and `..` resolved; nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Whether `path` is a folder (through links).
    package static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// Opens an existing file for appending; it is never created, and a named pipe nobody reads
    /// fails at once (`ENXIO`) instead of blocking. Writes then block as usual.
    package static func openForAppending(_ path: String) -> Int32 {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK)
        if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }
        return fd
    }
}
