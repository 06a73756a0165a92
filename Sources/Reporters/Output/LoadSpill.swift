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
    let spill: SpillBuffer
    /// Records not yet handed to the spill, one after another (a copy per 64 KiB, not per load).
    @exclusivity(unchecked) private var record = UnsafeMutablePointer<UInt8>.allocate(capacity: 1 << 16 + 256)
    @exclusivity(unchecked) private var recordCapacity = 1 << 16 + 256
    @exclusivity(unchecked) private var recordEnd = 0
    /// Names by the reader's id, each kept once (memory grows with distinct names, not hits).
    @exclusivity(unchecked) private(set) var names: [String?] = []
    /// Loads held.
    @exclusivity(unchecked) package private(set) var count = 0
    /// The last load's sequence number and line: a record holds the steps from them (one byte).
    @exclusivity(unchecked) private var lastSeq = 0
    @exclusivity(unchecked) private var lastLine = 0

    /// How many bytes are read back at a time (small in tests, to cut records everywhere).
    let readSize: Int

    /// Held in memory up to `limit` bytes, then in a temporary file (`SpillBuffer`), read back
    /// `readSize` bytes at a time.
    package init(limit: Int = 1 << 20, readSize: Int = 1 << 16) {
        spill = SpillBuffer(limit: limit)
        self.readSize = readSize
    }

    deinit { record.deallocate() }

    /// Statuses by their code in a record (`allCases` makes an array at every use).
    static let statuses = LoadStatus.allCases
    static let kinds = LoadKind.allCases

    /// A name id beyond this is not tabled (the table is indexed by id): its name is held inline.
    private static let maxTabledID = 1 << 24

    /// What a record holds, written as a number of seven-bit bytes: the bits of a common hit
    /// (a tabled name, a timestamp as before) fit in the first byte.
    struct Flags: OptionSet {
        let rawValue: UInt32
        static let nameID = Flags(rawValue: 1 << 0)
        static let nameTabled = Flags(rawValue: 1 << 1)
        static let nameInline = Flags(rawValue: 1 << 4)
        static let afterLaunch = Flags(rawValue: 1 << 5)
        static let fromBareLine = Flags(rawValue: 1 << 6)
        static let fromSystemWarning = Flags(rawValue: 1 << 7)
        static let kind = Flags(rawValue: 1 << 8)
        static let microseconds = Flags(rawValue: 1 << 9)
        static let ownMicroseconds = Flags(rawValue: 1 << 10)
        static let backtrace = Flags(rawValue: 1 << 11)
        /// A text of `Text` is present, and the same as the last load's, when it is written not
        /// at all: the timestamp's bits are 2 and 3, the others' 12–15 and 16–19.
        static func present(_ text: Text) -> Flags {
            Flags(rawValue: text == .timestamp ? 1 << 2 : 1 << (11 + UInt32(text.rawValue)))
        }
        static func asBefore(_ text: Text) -> Flags {
            Flags(rawValue: text == .timestamp ? 1 << 3 : 1 << (15 + UInt32(text.rawValue)))
        }
        /// Any of detail, API, breakpoint and thread.
        static let described = Flags(rawValue: 0xF << 12)
    }

    /// The texts a load's neighbours mostly repeat (the last app-log time, the breakpoint and API
    /// of every hit), each held as "as before" when it is.
    enum Text: Int, CaseIterable {
        case timestamp, detail, api, breakpoint, thread
    }

    @exclusivity(unchecked) private var lastTexts = [String?](repeating: nil, count: Text.allCases.count)

    /// The most bytes a record's length takes, written in front of it.
    static let lengthRoom = 5
    /// Records gathered before they go to the spill.
    private static let batch = 1 << 16

    /// Holds one load.
    package func add(_ load: ImageLoad) {
        count += 1
        // One byte for the length, which is all a record under 128 bytes needs.
        let recordStart = recordEnd
        reserve(1)
        recordEnd += 1
        let (flags, inlineName) = flagsAndName(of: load)
        putNumber(Int(flags.rawValue), zigZag: false)
        putByte(UInt8(truncatingIfNeeded: load.status.ordinal))
        putNumber(load.seq &- lastSeq)
        putNumber(load.line &- lastLine)
        lastSeq = load.seq
        lastLine = load.line
        putNumber(load.hits)
        if let id = load.nameID { putNumber(id) }
        if inlineName, let name = load.name { putText(name) }
        // In `Text` order.
        putText(load.timestamp?.text, .timestamp, flags)
        if !flags.isDisjoint(with: .described) {
            putText(load.detail, .detail, flags)
            putText(load.api, .api, flags)
            putText(load.breakpoint, .breakpoint, flags)
            putText(load.thread, .thread, flags)
        }
        if let kind = load.kind { putByte(UInt8(truncatingIfNeeded: kind.ordinal)) }
        if let microseconds = load.microseconds { putNumber(microseconds) }
        if let own = load.ownMicroseconds { putNumber(own) }
        if !load.backtrace.isEmpty {
            putNumber(load.backtrace.count)
            for frame in load.backtrace { putText(frame) }
        }
        closeRecord(from: recordStart)
        if recordEnd >= Self.batch { handOver() }
    }

    /// What the record holds, and whether the name goes in it (not by its id): a name is tabled
    /// the first time its id comes, and held inline when its id already names another.
    @inline(__always)
    private func flagsAndName(of load: ImageLoad) -> (Flags, inline: Bool) {
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
        // The texts are compared first: whether each is "as before" is a bit of the flags, which
        // lead the record.
        compare(load.timestamp?.text, .timestamp, &flags)
        compare(load.detail, .detail, &flags)
        compare(load.api, .api, &flags)
        compare(load.breakpoint, .breakpoint, &flags)
        compare(load.thread, .thread, &flags)
        return (flags, inlineName)
    }

    /// Writes the length of the record that starts at `recordStart` right in front of its
    /// fields: a long record's fields move up to make room.
    @inline(__always)
    private func closeRecord(from recordStart: Int) {
        let length = recordEnd - recordStart - 1
        let size = Self.numberSize(UInt64(length))
        if size > 1 {
            reserve(size - 1)
            memmove(record + recordStart + size, record + recordStart + 1, length)
            recordEnd += size - 1
        }
        var at = recordStart
        var rest = UInt64(length)
        while rest >= 0x80 {
            record[at] = UInt8(truncatingIfNeeded: rest) | 0x80
            rest >>= 7
            at += 1
        }
        record[at] = UInt8(rest)
    }

    /// Gives the gathered records to the spill.
    func handOver() {
        guard recordEnd > 0 else { return }
        spill.append(UnsafeBufferPointer(start: record, count: recordEnd))
        recordEnd = 0
    }

    /// Marks a present text, and whether it is the last load's.
    @inline(__always)
    private func compare(_ value: String?, _ text: Text, _ flags: inout Flags) {
        guard let value else { return }
        flags.insert(.present(text))
        if lastTexts[text.rawValue] == value { flags.insert(.asBefore(text)) }
    }

    /// A present text, only when it is not the last load's (the flags say which).
    private func putText(_ value: String?, _ text: Text, _ flags: Flags) {
        guard let value, !flags.contains(.asBefore(text)) else { return }
        lastTexts[text.rawValue] = value
        putText(value)
    }

    /// Why loads were lost (the temporary file could not be written), when they were: `forEach`
    /// then reads none, since what is held is not whole.
    package var failure: String? {
        // The records still gathered go to the spill first, so a failure to hold them shows.
        handOver()
        return spill.failure
    }

    private static func numberSize(_ value: UInt64) -> Int {
        var size = 1
        var rest = value >> 7
        while rest > 0 {
            size += 1
            rest >>= 7
        }
        return size
    }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if recordCapacity - recordEnd < extra { growBytes(&record, capacity: &recordCapacity, keeping: recordEnd, extra: extra) }
    }

    @inline(__always)
    private func putByte(_ byte: UInt8) {
        reserve(1)
        record[recordEnd] = byte
        recordEnd += 1
    }

    /// Zig-zag (unless told not to), then seven bits a byte: steps, lines and counts are small,
    /// but a value is what it is.
    @inline(__always)
    private func putNumber(_ value: Int, zigZag: Bool = true) {
        reserve(10)
        var rest = zigZag ? UInt64(bitPattern: Int64((value << 1) ^ (value >> 63))) : UInt64(bitPattern: Int64(value))
        while rest >= 0x80 {
            record[recordEnd] = UInt8(truncatingIfNeeded: rest) | 0x80
            recordEnd += 1
            rest >>= 7
        }
        record[recordEnd] = UInt8(rest)
        recordEnd += 1
    }

    private func putText(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            putNumber(utf8.count)
            reserve(utf8.count)
            if let base = utf8.baseAddress { (record + recordEnd).update(from: base, count: utf8.count) }
            recordEnd += utf8.count
        }
    }
}
