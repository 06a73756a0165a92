#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library calls whose module name differs between Linux (Glibc) and macOS (Darwin),
/// behind one name, so no other file has to spell a platform module.
public enum PlatformIO {
    /// `write(2)`.
    @inline(__always)
    public static func write(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.write(fd, bytes, count)
        #else
        return Darwin.write(fd, bytes, count)
        #endif
    }

    /// `read(2)`.
    @inline(__always)
    public static func read(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.read(fd, bytes, count)
        #else
        return Darwin.read(fd, bytes, count)
        #endif
    }

    /// Writes all of `text` to standard error, ignoring failures (there is nowhere left to report them).
    public static func writeStandardError(_ text: String) {
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
