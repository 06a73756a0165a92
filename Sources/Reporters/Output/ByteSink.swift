import ImgtraceSupport

/// Where a report's bytes go: a file descriptor (standard output by default), buffered.
///
/// Every byte passes the `OutputGuard` of the sink's consumer on its way in (docs/output-safety.md):
/// whatever a reporter forgot to escape cannot drive a terminal or the GitHub runner.
/// A failed write (a full disk, a closed pipe) is remembered, later writes are dropped, and
/// `finish()` throws it, so a report that did not reach its destination never passes silently.
public final class ByteSink {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let limit = 1 << 16
    private var guardrail: OutputGuard
    /// `errno` of the first failed write, or a reason of our own.
    public private(set) var failure: String?

    /// Keeps everything in memory (`collected`) instead of writing it out.
    private let collects: Bool

    /// Who reads what this sink writes.
    public var consumer: OutputConsumer { guardrail.consumer }

    /// A sink writing to `fd` (standard output by default) for `consumer`; `colour` lets SGR
    /// colour sequences through (the text report on a terminal).
    public init(fd: Int32 = 1, consumer: OutputConsumer = .terminal, colour: Bool = false) {
        self.fd = fd
        collects = false
        guardrail = OutputGuard(consumer: consumer)
        guardrail.allowsColour = colour
        buffer.reserveCapacity(limit)
    }

    /// A sink that keeps what is written, for a report that goes on inside another one.
    public init(collecting consumer: OutputConsumer, colour: Bool = false) {
        fd = -1
        collects = true
        guardrail = OutputGuard(consumer: consumer)
        guardrail.allowsColour = colour
    }

    /// Everything written to a collecting sink.
    public var collected: [UInt8] {
        guardrail.finish(into: &buffer)
        return buffer
    }

    /// Writes `bytes` through the consumer's guard.
    public func write(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        bytes.withUnsafeBufferPointer { guardrail.filter($0, into: &buffer) }
        if buffer.count >= limit, !collects { flush() }
    }

    /// Writes bytes the caller holds (a batch of a recording's lines) through the consumer's guard.
    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil else { return }
        guardrail.filter(bytes, into: &buffer)
        if buffer.count >= limit, !collects { flush() }
    }

    public func write(_ text: String) {
        guard failure == nil else { return }
        var text = text
        text.withUTF8 { guardrail.filter($0, into: &buffer) }
        if buffer.count >= limit, !collects { flush() }
    }

    private static let lineBreak: [UInt8] = [0x0A]

    /// Writes `text` and a line break (a recorder writes one line a hit: no concatenated copy).
    public func writeLine(_ text: String) {
        write(text)
        write(Self.lineBreak)
    }

    /// Writes bytes the reporter composed itself and vouches for (a workflow command line whose
    /// values it escaped): they pass unguarded.
    package func writeTrusted(_ text: String) {
        writeTrusted(Array(text.utf8))
    }

    /// Writes bytes that must reach the file exactly as they are (a patch's context lines are
    /// the tree's own bytes, whatever their encoding): they pass unguarded.
    package func writeTrusted(_ bytes: [UInt8]) {
        guard failure == nil else { return }
        guardrail.trusted(bytes, into: &buffer)
        if buffer.count >= limit, !collects { flush() }
    }

    /// Writes bytes whose untrusted parts already passed a guard for this sink's consumer (the
    /// trace events: each name guarded once, not once per load). A large piece goes out as it
    /// is, without a copy into the buffer.
    package func writeGuarded(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, !bytes.isEmpty else { return }
        if collects || buffer.count + bytes.count < limit {
            guardrail.trusted(bytes, into: &buffer)
            if buffer.count >= limit, !collects { flush() }
            return
        }
        guardrail.finish(into: &buffer)
        flush()
        guard failure == nil else { return }
        writeOut(UnsafeRawBufferPointer(bytes))
        guardrail.wroteTrusted(last: bytes[bytes.count - 1])
    }

    /// Records a failure found by a producer (e.g. a temporary file that could not hold its part).
    public func fail(_ reason: String) {
        if failure == nil { failure = reason }
    }

    /// Writes out what is buffered; a failure is recorded, not thrown (see `finish()`).
    public func flush() {
        guard !collects else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        buffer.withUnsafeBytes { writeOut($0) }
    }

    /// Writes `raw` to the descriptor whole; a failure is recorded.
    private func writeOut(_ raw: UnsafeRawBufferPointer) {
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

    /// Flushes and throws `SinkError` when any write failed.
    public func finish() throws {
        guardrail.finish(into: &buffer)
        flush()
        if let failure { throw SinkError(reason: failure) }
    }

    deinit {
        guardrail.finish(into: &buffer)
        flush()
    }
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

    /// Held in memory up to `limit` bytes, then in a temporary file.
    package init(limit: Int = 1 << 20) { self.limit = limit }

    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    package func append(_ bytes: UnsafeBufferPointer<UInt8>) {
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

    /// Writes everything held, in order, to `sink`, keeping it for another replay.
    package func replay(into sink: ByteSink) {
        if let lost { sink.fail(lost) }
        // In pieces: the sink's guard copies what it is given, and the held bytes can be 8 MB.
        forEachChunk(upTo: 1 << 16) { sink.write($0) }
    }

    /// Why bytes were lost (a full disk), when they were: what is held is then incomplete.
    package var failure: String? { lost }

    /// Calls `body` with everything held, in order, in pieces of at most `size` bytes, keeping
    /// it for another pass.
    package func forEachChunk(upTo size: Int = 1 << 16, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if let file {
            fflush(file)
            rewind(file)
            var chunk = [UInt8](repeating: 0, count: size)
            while true {
                let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                if n <= 0 { break }
                chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            }
            fseek(file, 0, SEEK_END)
        }
        memory.withUnsafeBufferPointer { held in
            var start = 0
            while start < held.count {
                let end = min(start + size, held.count)
                body(UnsafeBufferPointer(rebasing: held[start..<end]))
                start = end
            }
        }
    }

    deinit { if let file { fclose(file) } }
}
