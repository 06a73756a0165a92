#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a report's bytes go: standard output, buffered.
public final class ByteSink {
    private var buffer: [UInt8] = []
    private let fd: Int32
    private let limit = 1 << 16

    /// A sink writing to `fd` (standard output by default).
    public init(fd: Int32 = 1) {
        self.fd = fd
        buffer.reserveCapacity(limit)
    }

    public func write(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= limit { flush() }
    }

    public func write(_ text: String) { write(Array(text.utf8)) }

    public func flush() {
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { if errno == EINTR { continue }; break }
                offset += n
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    deinit { flush() }
}

/// Holds encoded items in memory up to a limit, then in an unlinked temporary file, so a
/// document whose header must come first can still be written from a stream of any length.
public final class SpillBuffer {
    private var memory: [UInt8] = []
    private var file: UnsafeMutablePointer<FILE>?
    private let limit: Int

    public init(limit: Int = 8 << 20) { self.limit = limit }

    public func append(_ bytes: [UInt8]) {
        memory.append(contentsOf: bytes)
        if memory.count >= limit { spill() }
    }

    private func spill() {
        if file == nil { file = tmpfile() }
        guard let file else { return }
        memory.withUnsafeBytes { _ = fwrite($0.baseAddress, 1, $0.count, file) }
        memory.removeAll(keepingCapacity: true)
    }

    /// Writes everything held, in order, to `sink`, and lets it go.
    public func drain(into sink: ByteSink) {
        replay(into: sink)
        if let file { fclose(file) }
        file = nil
        memory.removeAll()
    }

    /// Writes everything held, in order, to `sink`, keeping it for another replay.
    public func replay(into sink: ByteSink) {
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
