#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read front to back in fixed-size chunks: memory stays bounded by the chunk size.
public struct ChunkedFile {
    public let path: String
    private let chunkSize: Int

    /// Checks that `path` is a readable regular file; throws `InputError` otherwise.
    public init(path: String, chunkSize: Int = 1 << 20) throws {
        self.path = path
        self.chunkSize = chunkSize
        let (fd, _) = try MappedFile.openRegularFile(path)
        close(fd)
    }

    /// Calls `body` with each chunk in order. A read error mid-file is an `InputError` with the offset.
    public func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let (fd, _) = try MappedFile.openRegularFile(path)
        defer { close(fd) }
        #if os(Linux)
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        #endif
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while true {
            let n = read(fd, buffer, chunkSize)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(path: path, location: "offset \(offset)", reason: MappedFile.describe(errno: errno))
            }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(start: buffer, count: n))
            offset += n
        }
    }
}
