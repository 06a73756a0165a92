import ImgtraceSupport
import LaunchTrace

/// Reading the records back: as `ImageLoad`s (`forEach`) or as bytes (`forEachRecord`, which the
/// JSON writer reads).
extension LoadSpill {
    /// Every load held, in order; the loads stay held for another pass.
    package func forEach(_ body: (ImageLoad) -> Void) {
        guard failure == nil else { return }
        var decoder = Decoder(names: names)
        forEachRecord { body(decoder.load($0)) }
    }

    /// Every record held, in order, without its length: records cut by a chunk's end are
    /// gathered and handed over whole.
    func forEachRecord(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        handOver()
        var partial: [UInt8] = []
        spill.forEachChunk(upTo: readSize) { chunk in
            var at = 0
            while at < chunk.count {
                if !partial.isEmpty {
                    // A record cut by the last chunk's end: its length first, then its fields.
                    while Self.header(partial) == nil, at < chunk.count {
                        partial.append(chunk[at])
                        at += 1
                    }
                    guard let (length, size) = Self.header(partial) else { continue }
                    let take = min(size + length - partial.count, chunk.count - at)
                    partial.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[at..<(at + take)]))
                    at += take
                    if partial.count == size + length {
                        partial.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[size...])) }
                        partial.removeAll(keepingCapacity: true)
                    }
                    continue
                }
                let rest = UnsafeBufferPointer(rebasing: chunk[at...])
                guard let (length, size) = Self.header(rest), rest.count - size >= length else {
                    partial.append(contentsOf: rest)
                    at = chunk.count
                    continue
                }
                body(UnsafeBufferPointer(rebasing: rest[(rest.startIndex + size)..<(rest.startIndex + size + length)]))
                at += size + length
            }
        }
    }

    /// A record's length and the bytes it takes, or nil when they are not all here.
    private static func header<Bytes: Collection>(_ bytes: Bytes) -> (length: Int, size: Int)? where Bytes.Element == UInt8, Bytes.Index == Int {
        var value = 0
        var size = 0
        for byte in bytes {
            value |= Int(byte & 0x7F) << (7 * size)
            size += 1
            if byte < 0x80 { return (value, size) }
            if size == lengthRoom { return nil }
        }
        return nil
    }

    /// Reads a record's numbers and texts in the order they were written.
    struct Fields {
        var bytes: UnsafeBufferPointer<UInt8>
        var at = 0
        /// The last load's sequence number and line, which the steps in a record start from.
        var lastSeq = 0
        var lastLine = 0

        init() { bytes = UnsafeBufferPointer(start: nil, count: 0) }

        /// Starts on a record: its flags and status read.
        mutating func begin(_ record: UnsafeBufferPointer<UInt8>) -> (Flags, LoadStatus) {
            bytes = record
            at = 0
            let flags = Flags(rawValue: UInt32(truncatingIfNeeded: unsigned()))
            let status = LoadSpill.statuses[Int(bytes[at])]
            at += 1
            return (flags, status)
        }

        mutating func seq() -> Int {
            lastSeq = lastSeq &+ number()
            return lastSeq
        }

        mutating func line() -> Int {
            lastLine = lastLine &+ number()
            return lastLine
        }

        mutating func byte() -> UInt8 {
            defer { at += 1 }
            return bytes[at]
        }

        @inline(__always)
        mutating func unsigned() -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }

        @inline(__always)
        mutating func number() -> Int {
            let value = unsigned()
            // Undone with logical shifts: an arithmetic one would read Int.max back as -1.
            return Int(truncatingIfNeeded: Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
        }

        /// A text's UTF-8 bytes, in place.
        mutating func text() -> UnsafeBufferPointer<UInt8> {
            let count = number()
            defer { at += count }
            return UnsafeBufferPointer(rebasing: bytes[at..<(at + count)])
        }
    }

    /// Reads records back; the last timestamp is decoded once for the loads that repeat it.
    struct Decoder {
        let names: [String?]
        var fields = Fields()
        /// The last of each `Text`, for the loads that repeat it; the timestamp decoded once.
        var lastTexts = [String?](repeating: nil, count: Text.allCases.count)
        var lastTimestamp: LogTimestamp?

        init(names: [String?]) { self.names = names }

        mutating func load(_ record: UnsafeBufferPointer<UInt8>) -> ImageLoad {
            let (flags, status) = fields.begin(record)
            let seq = fields.seq(), line = fields.line(), hits = fields.number()
            let nameID = flags.contains(.nameID) ? fields.number() : nil
            var name: String?
            if flags.contains(.nameInline) {
                name = String(decoding: fields.text(), as: UTF8.self)
            } else if flags.contains(.nameTabled), let nameID {
                name = names[nameID]
            }
            let timestamp = textField(.timestamp, flags)
            if flags.contains(.present(.timestamp)), !flags.contains(.asBefore(.timestamp)), let timestamp {
                lastTimestamp = LogTimestamp(timestamp)
            }
            let detail = textField(.detail, flags), api = textField(.api, flags)
            let breakpoint = textField(.breakpoint, flags), thread = textField(.thread, flags)
            var load = ImageLoad(
                seq: seq, line: line, name: name, status: status,
                detail: detail, api: api, breakpoint: breakpoint, thread: thread,
                timestamp: timestamp == nil ? nil : lastTimestamp,
                phase: flags.contains(.afterLaunch) ? .afterLaunch : .launch, nameID: nameID)
            load.hits = hits
            load.fromBareLine = flags.contains(.fromBareLine)
            load.fromSystemWarning = flags.contains(.fromSystemWarning)
            if flags.contains(.kind) { load.kind = LoadSpill.kinds[Int(fields.byte())] }
            if flags.contains(.microseconds) { load.microseconds = fields.number() }
            if flags.contains(.ownMicroseconds) { load.ownMicroseconds = fields.number() }
            if flags.contains(.backtrace) {
                let frames = fields.number()
                load.backtrace.reserveCapacity(frames)
                for _ in 0..<frames { load.backtrace.append(String(decoding: fields.text(), as: UTF8.self)) }
            }
            return load
        }

        /// A text of the record, or the last load's when it is as before; nil when absent.
        private mutating func textField(_ kind: Text, _ flags: Flags) -> String? {
            guard flags.contains(.present(kind)) else { return nil }
            if !flags.contains(.asBefore(kind)) { lastTexts[kind.rawValue] = String(decoding: fields.text(), as: UTF8.self) }
            return lastTexts[kind.rawValue]
        }
    }
}
