#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import ImgtraceSupport
import Reporters

/// Writes a report to standard output, or to a file that appears only when complete.
enum ReportFile {
    /// Runs `body` with a sink for `path` (stdout when nil). A file is written beside its final
    /// name and renamed into place, so a failed run leaves no partial output behind.
    static func write(to path: String?, _ body: (ByteSink) throws -> Void) throws {
        guard let path else {
            let sink = ByteSink()
            try body(sink)
            sink.flush()
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        var template = Array(((directory.isEmpty ? "." : directory) + "/.imgtrace-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw failInput(InputError(path: path, reason: "cannot create the output file: \(String(cString: strerror(errno)))"))
        }
        let temporary = String(cString: template)
        do {
            let sink = ByteSink(fd: fd)
            try body(sink)
            sink.flush()
            fchmod(fd, 0o644)
            close(fd)
            guard rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw failInput(InputError(path: path, reason: "cannot write the output file: \(reason)"))
            }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
    }
}
