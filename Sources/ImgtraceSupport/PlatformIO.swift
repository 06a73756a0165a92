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

    /// Writes all of `text` to standard error, ignoring failures (there is nowhere left to report them).
    package static func writeStandardError(_ text: String) {
        var bytes = Array(text.utf8)
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
}
