/// A file read front to back in fixed-size chunks: memory stays bounded by the chunk size.
package struct ChunkedFile {
    package let path: String
    private let chunkSize: Int

    /// The path that stands for standard input (a pipe: `lldb … | imgtrace analyze -`).
    package static let standardInput = "-"

    /// Checks that `path` is a readable regular file (or `-`, standard input); throws `InputError` otherwise.
    package init(path: String, chunkSize: Int = 1 << 20) throws {
        self.path = path
        self.chunkSize = chunkSize
        guard path != ChunkedFile.standardInput else { return }
        let (fd, _) = try MappedFile.openRegularFile(path)
        close(fd)
    }

    /// Calls `body` with each chunk in order. A read error mid-file is an `InputError` with the offset.
    package func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let isStandardInput = path == ChunkedFile.standardInput
        let fd = isStandardInput ? 0 : try MappedFile.openRegularFile(path).fd
        defer { if !isStandardInput { close(fd) } }
        #if os(Linux)
            if !isStandardInput { _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL) }
        #endif
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var offset = 0
        while true {
            let n = PlatformIO.read(fd, buffer, chunkSize)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(path: isStandardInput ? "standard input" : path, location: "offset \(offset)", reason: MappedFile.describe(errno: errno))
            }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(start: buffer, count: n))
            offset += n
        }
    }
}
