import ImgtraceSupport
import Reporters

/// Writes a report to standard output, or to a file that appears only when complete.
enum ReportFile {
    /// The name write errors on standard output are reported under.
    static let standardOutputName = "standard output"

    /// Runs `body` with a sink for `path` (standard output when nil or `-`). A file is written
    /// beside its final name and renamed into place only when every byte reached the disk, so a
    /// failed run (a full disk included) leaves no partial output behind and exits 2.
    static func write(to path: String?, _ body: (ByteSink) throws -> Void) throws {
        guard let path, path != "-" else {
            let sink = ByteSink()
            try body(sink)
            try finishStandardOutput(sink)
            return
        }
        var template = Array((PathText.directory(path) + "/.imgtrace-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw failInput(InputError(path: path, reason: "cannot create the output file: \(String(cString: strerror(errno)))"))
        }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var open = true
        do {
            let sink = ByteSink(fd: fd)
            try body(sink)
            do { try sink.finish() } catch {
                throw failInput(InputError(path: path, reason: "cannot write the output file: \(error)"))
            }
            fchmod(fd, 0o644)
            open = false
            guard close(fd) == 0 else {
                throw failInput(InputError(path: path, reason: "cannot write the output file: \(String(cString: strerror(errno)))"))
            }
            guard rename(temporary, path) == 0 else {
                throw failInput(InputError(path: path, reason: "cannot write the output file: \(String(cString: strerror(errno)))"))
            }
        } catch {
            if open { close(fd) }
            unlink(temporary)
            throw error
        }
    }

    /// Flushes a standard-output sink; a failed write (`> /dev/full`, a closed pipe) exits 2.
    static func finishStandardOutput(_ sink: ByteSink) throws {
        do { try sink.finish() } catch {
            throw failInput(InputError(path: standardOutputName, reason: "cannot write: \(error)"))
        }
    }
}
