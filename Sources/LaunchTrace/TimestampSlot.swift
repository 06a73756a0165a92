/// The bytes of the last timestamp and their `LogTimestamp`, made on first use. One buffer, reused:
/// storing a timestamp is a copy of a few bytes, no allocation.
final class TimestampSlot {
    @exclusivity(unchecked) private var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
    @exclusivity(unchecked) private var capacity = 64
    @exclusivity(unchecked) private var count = -1
    @exclusivity(unchecked) private var cached: LogTimestamp?

    deinit { buffer.deallocate() }

    func store(_ line: ByteLine) {
        if line.count > capacity {
            buffer.deallocate()
            capacity = line.count
            buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        }
        buffer.update(from: line.base, count: line.count)
        count = line.count
        cached = nil
    }

    var timestamp: LogTimestamp? {
        guard count >= 0 else { return nil }
        if let cached { return cached }
        let made = LogTimestamp(String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self))
        cached = made
        return made
    }
}
