/// Whole-file reads of small documents (config, baseline), through the same regular-file
/// check as every other input, so a pipe, a device or a huge file is refused, not waited on.
package enum SmallFile {
    /// The largest config read: a hand-written file of settings and ignore lists is a few KiB,
    /// and a YAML tree costs many times its text.
    package static let maxConfigBytes = 1 << 20
    /// The largest baseline read: 16 MiB holds about 100,000 findings, and Foundation's JSON
    /// objects cost many times the text.
    package static let maxBaselineBytes = 16 << 20

    /// The bytes of `path`; an `InputError` naming the path when it is not a readable regular
    /// file of at most `maxBytes`. `rawPath`, when given, is what is opened (a name that is not
    /// UTF-8), and `path` only names it.
    package static func read(_ path: String, rawPath: [UInt8]? = nil, maxBytes: Int) throws -> [UInt8] {
        let (fd, size) = try MappedFile.openRegularFile(path, rawPath: rawPath)
        defer { close(fd) }
        guard size <= maxBytes else { throw InputError(path: path, reason: "is \(size) bytes, more than the \(maxBytes) read at most") }
        var buffer = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = buffer.withUnsafeMutableBytes { PlatformIO.read(fd, $0.baseAddress! + done, size - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError(path: path, location: "offset \(done)", reason: MappedFile.describe(errno: errno))
            }
            if n == 0 { break }
            done += n
        }
        return Array(buffer[0..<done])
    }
}
