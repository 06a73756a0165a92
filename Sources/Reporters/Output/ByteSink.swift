import ImgtraceSupport

/// Where a report's bytes go: a file descriptor (standard output by default), buffered.
///
/// A failed write (a full disk, a closed pipe) is remembered, later writes are dropped, and
/// `finish()` throws it, so a report that did not reach its destination never passes silently.
public final class ByteSink {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let limit = 1 << 16
    /// `errno` of the first failed write, or a reason of our own.
    public private(set) var failure: String?

    /// Keeps everything in memory (`collected`) instead of writing it out.
    private let collects: Bool

    /// A sink writing to `fd` (standard output by default).
    public init(fd: Int32 = 1) {
        self.fd = fd
        collects = false
        buffer.reserveCapacity(limit)
    }

    /// A sink that keeps what is written, for a report that goes on inside another one.
    public init(collecting: Void) {
        fd = -1
        collects = true
    }

    /// Everything written to a collecting sink.
    public var collected: [UInt8] { buffer }

    public func write(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit, !collects { flush() }
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    /// Records a failure found by a producer (e.g. a temporary file that could not hold its part).
    public func fail(_ reason: String) {
        if failure == nil { failure = reason }
    }

    /// Writes out what is buffered; a failure is recorded, not thrown (see `finish()`).
    public func flush() {
        guard !collects else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = PlatformIO.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    failure = n < 0 ? String(cString: strerror(errno)) : "the write made no progress"
                    return
                }
                offset += n
            }
        }
    }

    /// Flushes and throws `SinkError` when any write failed.
    public func finish() throws {
        flush()
        if let failure { throw SinkError(reason: failure) }
    }

    deinit { flush() }
}

/// A report could not be written where it was going.
public struct SinkError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

/// Holds encoded items in memory up to a limit, then in an unlinked temporary file, so a
/// document whose header must come first can still be written from a stream of any length.
package final class SpillBuffer {
    private var memory: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>?
    private let limit: Int

    package init(limit: Int = 8 << 20) { self.limit = limit }

    package func append(_ bytes: [UInt8]) {
        memory.append(contentsOf: bytes)
        if memory.count >= limit { spill() }
    }

    /// Set when the temporary file lost bytes (a full disk); replays then fail their sink.
    private var lost: String?

    private func spill() {
        if file == nil { file = tmpfile() }
        // Without a temporary file the bytes stay in memory: slower to bound, never wrong.
        guard let file, lost == nil else { return }
        let written = memory.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        if written != memory.count { lost = "cannot write a temporary file: \(String(cString: strerror(errno)))" }
        memory.removeAll(keepingCapacity: true)
    }

    /// Writes everything held, in order, to `sink`, and lets it go.
    package func drain(into sink: ByteSink) {
        replay(into: sink)
        if let file { fclose(file) }
        file = nil
        memory.removeAll()
    }

    /// Writes everything held, in order, to `sink`, keeping it for another replay.
    package func replay(into sink: ByteSink) {
        if let lost { sink.fail(lost) }
        if let file {
            fflush(file)
            rewind(file)
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if n <= 0 { break }
                sink.write(Array(chunk[0..<n]))
            }
            fseek(file, 0, SEEK_END)
        }
        sink.write(memory)
    }

    deinit { if let file { fclose(file) } }
}
