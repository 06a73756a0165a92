import ImgtraceSupport
import LaunchTrace

/// The loads of a log held compactly until the report that lists them can be written (its
/// summary comes first), then handed back in order as `ImageLoad`s.
///
/// A load's JSON is ten times its facts: keys, nulls, a name and a timestamp its neighbours
/// repeat. Held as JSON, a large log's events were written to a temporary file and read back
/// whole; held as facts — the name by its id, a timestamp by "as before" — they are a few
/// bytes each, and the JSON is written once, straight to the report.
package final class LoadSpill {
    private let spill: SpillBuffer
    @exclusivity(unchecked) private var record: [UInt8] = []
    /// Names by the reader's id, each kept once (memory grows with distinct names, not hits).
    @exclusivity(unchecked) private var names: [String?] = []
    /// Loads held.
    @exclusivity(unchecked) package private(set) var count = 0

    /// Held in memory up to `limit` bytes, then in a temporary file (`SpillBuffer`).
    package init(limit: Int = 1 << 20) { spill = SpillBuffer(limit: limit) }

    /// Statuses by their code in a record (`allCases` makes an array at every use).
    fileprivate static let statuses = LoadStatus.allCases
    fileprivate static let kinds = LoadKind.allCases

    /// A name id beyond this is not tabled (the table is indexed by id): its name is held inline.
    private static let maxTabledID = 1 << 24

    private struct Flags: OptionSet {
        let rawValue: UInt32
        static let nameID = Flags(rawValue: 1 << 0)
        static let nameTabled = Flags(rawValue: 1 << 1)
        static let nameInline = Flags(rawValue: 1 << 2)
        static let afterLaunch = Flags(rawValue: 1 << 3)
        static let fromBareLine = Flags(rawValue: 1 << 4)
        static let fromSystemWarning = Flags(rawValue: 1 << 5)
        static let kind = Flags(rawValue: 1 << 6)
        static let microseconds = Flags(rawValue: 1 << 7)
        static let ownMicroseconds = Flags(rawValue: 1 << 8)
        static let backtrace = Flags(rawValue: 1 << 9)
        /// A text of `Text` is present (bit 16 + its index), and the same as the last load's
        /// (bit 24 + its index), when it is written not at all.
        static func present(_ text: Text) -> Flags { Flags(rawValue: 1 << (16 + UInt32(text.rawValue))) }
        static func asBefore(_ text: Text) -> Flags { Flags(rawValue: 1 << (24 + UInt32(text.rawValue))) }
    }

    /// The texts a load's neighbours mostly repeat (the last app-log time, the breakpoint and API
    /// of every hit), each held as "as before" when it is.
    private enum Text: Int, CaseIterable {
        case timestamp, detail, api, breakpoint, thread
    }

    @exclusivity(unchecked) private var lastTexts = [String?](repeating: nil, count: Text.allCases.count)

    /// Holds one load.
    package func add(_ load: ImageLoad) {
        count += 1
        record.removeAll(keepingCapacity: true)
        var flags: Flags = []
        var inlineName = false
        if let id = load.nameID {
            flags.insert(.nameID)
            if let name = load.name {
                if id >= 0, id < names.count, names[id] == name {
                    flags.insert(.nameTabled)
                } else if id >= 0, id < Self.maxTabledID, id >= names.count || names[id] == nil {
                    if id >= names.count { names.append(contentsOf: repeatElement(nil, count: id + 1 - names.count)) }
                    names[id] = name
                    flags.insert(.nameTabled)
                } else {
                    inlineName = true
                }
            }
        } else if load.name != nil {
            inlineName = true
        }
        if inlineName { flags.insert(.nameInline) }
        if load.phase == .afterLaunch { flags.insert(.afterLaunch) }
        if load.fromBareLine { flags.insert(.fromBareLine) }
        if load.fromSystemWarning { flags.insert(.fromSystemWarning) }
        if load.kind != nil { flags.insert(.kind) }
        if load.microseconds != nil { flags.insert(.microseconds) }
        if load.ownMicroseconds != nil { flags.insert(.ownMicroseconds) }
        if !load.backtrace.isEmpty { flags.insert(.backtrace) }

        // A length first, so records can be read back across the spill's chunks.
        for _ in 0..<4 { record.append(0) }
        for _ in 0..<4 { record.append(0) }  // the flags, set below once the texts are known
        record.append(UInt8(truncatingIfNeeded: Self.statuses.firstIndex(of: load.status)!))
        putNumber(load.seq)
        putNumber(load.line)
        putNumber(load.hits)
        if let id = load.nameID { putNumber(id) }
        if inlineName, let name = load.name { putText(name) }
        // In `Text` order.
        putText(load.timestamp?.text, .timestamp, &flags)
        putText(load.detail, .detail, &flags)
        putText(load.api, .api, &flags)
        putText(load.breakpoint, .breakpoint, &flags)
        putText(load.thread, .thread, &flags)
        if let kind = load.kind { record.append(UInt8(truncatingIfNeeded: Self.kinds.firstIndex(of: kind)!)) }
        if let microseconds = load.microseconds { putNumber(microseconds) }
        if let own = load.ownMicroseconds { putNumber(own) }
        if !load.backtrace.isEmpty {
            putNumber(load.backtrace.count)
            for frame in load.backtrace { putText(frame) }
        }
        let length = UInt32(record.count - 4)
        for i in 0..<4 {
            record[i] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(i)))
            record[4 + i] = UInt8(truncatingIfNeeded: flags.rawValue >> (8 * UInt32(i)))
        }
        spill.append(record)
    }

    /// A present text's flags; the text itself only when it is not the last load's.
    private func putText(_ value: String?, _ text: Text, _ flags: inout Flags) {
        guard let value else { return }
        flags.insert(.present(text))
        if lastTexts[text.rawValue] == value {
            flags.insert(.asBefore(text))
        } else {
            lastTexts[text.rawValue] = value
            putText(value)
        }
    }

    /// Why loads were lost (the temporary file could not be written), when they were: `forEach`
    /// then reads none, since what is held is not whole.
    package var failure: String? { spill.failure }

    /// Every load held, in order; the loads stay held for another pass.
    package func forEach(_ body: (ImageLoad) -> Void) {
        guard spill.failure == nil else { return }
        var decoder = Decoder(names: names)
        var partial: [UInt8] = []
        spill.forEachChunk { chunk in
            var at = 0
            while at < chunk.count {
                if !partial.isEmpty || chunk.count - at < 4 {
                    // A record cut by the chunk's end: gathered, then read whole.
                    let need = partial.count < 4 ? 4 - partial.count : Self.length(partial) + 4 - partial.count
                    let take = min(need, chunk.count - at)
                    partial.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[at..<(at + take)]))
                    at += take
                    if partial.count >= 4, partial.count == Self.length(partial) + 4 {
                        partial.withUnsafeBufferPointer { body(decoder.load(UnsafeBufferPointer(rebasing: $0[4...]))) }
                        partial.removeAll(keepingCapacity: true)
                    }
                    continue
                }
                let length = Self.length(UnsafeBufferPointer(rebasing: chunk[at..<(at + 4)]))
                guard chunk.count - at - 4 >= length else {
                    partial.append(contentsOf: UnsafeBufferPointer(rebasing: chunk[at...]))
                    at = chunk.count
                    continue
                }
                body(decoder.load(UnsafeBufferPointer(rebasing: chunk[(at + 4)..<(at + 4 + length)])))
                at += 4 + length
            }
        }
    }

    private static func length<Bytes: Collection>(_ bytes: Bytes) -> Int where Bytes.Element == UInt8, Bytes.Index == Int {
        let s = bytes.startIndex
        return Int(bytes[s]) | Int(bytes[s + 1]) << 8 | Int(bytes[s + 2]) << 16 | Int(bytes[s + 3]) << 24
    }

    private func putNumber(_ value: Int) {
        // Zig-zag, then seven bits a byte: lines and counts are small and never negative, but a
        // value is what it is.
        var rest = UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))
        while rest >= 0x80 {
            record.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        record.append(UInt8(rest))
    }

    private func putText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            putNumber(utf8.count)
            record.append(contentsOf: utf8)
        }
    }

    /// Reads records back; the last timestamp is decoded once for the loads that repeat it.
    private struct Decoder {
        let names: [String?]
        /// The last of each `Text`, for the loads that repeat it; the timestamp decoded once.
        var lastTexts = [String?](repeating: nil, count: Text.allCases.count)
        var lastTimestamp: LogTimestamp?
        var bytes = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var at = 0

        init(names: [String?]) { self.names = names }

        mutating func load(_ record: UnsafeBufferPointer<UInt8>) -> ImageLoad {
            bytes = record
            at = 5
            var raw: UInt32 = 0
            for i in 0..<4 { raw |= UInt32(record[i]) << (8 * UInt32(i)) }
            let flags = Flags(rawValue: raw)
            let status = LoadSpill.statuses[Int(record[4])]
            let seq = number(), line = number(), hits = number()
            let nameID = flags.contains(.nameID) ? number() : nil
            var name: String?
            if flags.contains(.nameInline) {
                name = text()
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
            if flags.contains(.kind) {
                load.kind = LoadSpill.kinds[Int(bytes[at])]
                at += 1
            }
            if flags.contains(.microseconds) { load.microseconds = number() }
            if flags.contains(.ownMicroseconds) { load.ownMicroseconds = number() }
            if flags.contains(.backtrace) {
                let frames = number()
                load.backtrace.reserveCapacity(frames)
                for _ in 0..<frames { load.backtrace.append(text()) }
            }
            return load
        }

        /// A text of the record, or the last load's when it is as before; nil when absent.
        private mutating func textField(_ kind: Text, _ flags: Flags) -> String? {
            guard flags.contains(.present(kind)) else { return nil }
            if !flags.contains(.asBefore(kind)) { lastTexts[kind.rawValue] = text() }
            return lastTexts[kind.rawValue]
        }

        private mutating func number() -> Int {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                let byte = bytes[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            // Undone with logical shifts: an arithmetic one would read Int.max back as -1.
            return Int(truncatingIfNeeded: Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1))))
        }

        private mutating func text() -> String {
            let count = number()
            defer { at += count }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<(at + count)]), as: UTF8.self)
        }
    }
}
