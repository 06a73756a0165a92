import ImgtraceSupport
import LaunchTrace

extension LoadSpill {
    /// Every load held, as the objects `TraceJSONReport.encode` writes, comma-separated, handed to
    /// `out` a piece at a time. Written from the records themselves: a name is escaped once for all
    /// its loads, a repeated text is copied as it was last written, and no `ImageLoad` is built
    /// again (decoding loads and encoding them field by field was most of the document's cost).
    ///
    /// Every text from the log (names, timestamps, details, frames) passes a guard for `consumer`
    /// when it is first written and is repeated as guarded; the rest is the writer's own keys and
    /// numbers. So what `out` gets is what the consumer's sink would make of the plain JSON, and it
    /// may go to the sink unguarded (`ByteSink.writeGuarded`).
    package func writeJSON(for consumer: OutputConsumer, _ out: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard failure == nil else { return }
        let writer = EventJSONWriter(names: names, consumer: consumer)
        var first = true
        forEachRecord { record in
            if !first { writer.put(UInt8(ascii: ",")) }
            first = false
            writer.event(record)
            if writer.count >= 1 << 16 { writer.drain(out) }
        }
        writer.drain(out)
    }
}

/// Writes the JSON of one record at a time into a buffer of its own (bytes, not `String`s).
private final class EventJSONWriter {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity = 1 << 17
    @exclusivity(unchecked) private(set) var count = 0

    /// Every tabled name as its JSON string, quoted, escaped and guarded: name `id` is the bytes
    /// from `nameStarts[id]` to `nameStarts[id + 1]`.
    private let nameBytes: UnsafeMutablePointer<UInt8>
    private let nameStarts: UnsafeMutablePointer<Int>
    /// Each `LoadSpill.Text` as last read, quoted, escaped and guarded: most loads repeat it.
    private let texts = UnsafeMutablePointer<[UInt8]>.allocate(capacity: LoadSpill.Text.allCases.count)
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    @exclusivity(unchecked) private var fields = LoadSpill.Fields()
    private let consumer: OutputConsumer

    init(names: [String?], consumer: OutputConsumer) {
        self.consumer = consumer
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        texts.initialize(repeating: [], count: LoadSpill.Text.allCases.count)
        var all: [UInt8] = []
        var starts: [Int] = [0]
        starts.reserveCapacity(names.count + 1)
        for name in names {
            if var text = name { text.withUTF8 { Self.appendQuoted($0, to: &all, for: consumer) } }
            starts.append(all.count)
        }
        nameBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(all.count, 1))
        nameBytes.initialize(from: all, count: all.count)
        nameStarts = UnsafeMutablePointer<Int>.allocate(capacity: starts.count)
        nameStarts.initialize(from: starts, count: starts.count)
    }

    deinit {
        base.deallocate()
        nameBytes.deallocate()
        nameStarts.deallocate()
        texts.deinitialize(count: LoadSpill.Text.allCases.count)
        texts.deallocate()
    }

    func drain(_ out: (UnsafeBufferPointer<UInt8>) -> Void) {
        out(UnsafeBufferPointer(start: base, count: count))
        count = 0
    }

    // MARK: One record

    /// The fields in the contract's order, read in the record's; a common hit's fixed pieces
    /// (the nulls, the launch phase) go out as one piece each.
    func event(_ record: UnsafeBufferPointer<UInt8>) {
        let (flags, status) = fields.begin(record)
        put("{\"seq\":")
        putInt(fields.seq())
        put(",\"line\":")
        putInt(fields.line())
        let hits = fields.number()
        let nameID = flags.contains(.nameID) ? fields.number() : nil
        put(",\"name\":")
        if flags.contains(.nameInline) {
            putText()
        } else if flags.contains(.nameTabled), let nameID {
            put(nameBytes + nameStarts[nameID], nameStarts[nameID + 1] - nameStarts[nameID])
        } else {
            put("null")
        }
        putTexts(status, flags)
        var kind: LoadKind?
        if flags.contains(.kind) { kind = LoadSpill.kinds[Int(fields.byte())] }
        let microseconds = flags.contains(.microseconds) ? fields.number() : nil
        let ownMicroseconds = flags.contains(.ownMicroseconds) ? fields.number() : nil
        putBacktraceToKind(flags, kind)
        putInt(hits)
        if let microseconds {
            put(",\"microseconds\":")
            putInt(microseconds)
            put(",\"ownMicroseconds\":")
            putInt(ownMicroseconds ?? microseconds)
        }
        put("}")
    }

    /// The status, the four texts a hit may describe itself with and the timestamp, read in the
    /// record's order (`Text`) and written in the contract's (the timestamp after).
    @inline(__always)
    private func putTexts(_ status: LoadStatus, _ flags: LoadSpill.Flags) {
        take(.timestamp, flags)
        if flags.isDisjoint(with: .described) {
            put(Self.statusWithoutDescription(status))
        } else {
            take(.detail, flags)
            take(.api, flags)
            take(.breakpoint, flags)
            take(.thread, flags)
            put(",")
            put(TraceJSONReport.statusField(status))
            put(",\"detail\":")
            putValue(.detail, flags)
            put(",\"api\":")
            putValue(.api, flags)
            put(",\"breakpoint\":")
            putValue(.breakpoint, flags)
            put(",\"thread\":")
            putValue(.thread, flags)
            put(",\"timestamp\":")
        }
        putValue(.timestamp, flags)
    }

    /// From the backtrace to the key of `hits`: one piece for a hit at launch without frames or kind.
    @inline(__always)
    private func putBacktraceToKind(_ flags: LoadSpill.Flags, _ kind: LoadKind?) {
        let afterLaunch = flags.contains(.afterLaunch)
        guard flags.contains(.backtrace) || afterLaunch || kind != nil else {
            return put(",\"backtrace\":[],\"phase\":\"launch\",\"kind\":null,\"hits\":")
        }
        put(",\"backtrace\":[")
        if flags.contains(.backtrace) {
            for frame in 0..<fields.number() {
                if frame > 0 { put(",") }
                putText()
            }
        }
        put(afterLaunch ? "],\"phase\":\"afterLaunch\",\"kind\":" : "],\"phase\":\"launch\",\"kind\":")
        if let kind {
            put("\"")
            var name = kind.rawValue
            name.withUTF8 { put($0.baseAddress!, $0.count) }
            put("\"")
        } else {
            put("null")
        }
        put(",\"hits\":")
    }

    /// Reads a text the record holds (not one "as before") into its slot.
    private func take(_ text: LoadSpill.Text, _ flags: LoadSpill.Flags) {
        guard flags.contains(.present(text)), !flags.contains(.asBefore(text)) else { return }
        texts[text.rawValue].removeAll(keepingCapacity: true)
        Self.appendQuoted(fields.text(), to: &texts[text.rawValue], for: consumer)
    }

    /// A text's JSON from its slot, or null when the load has none.
    private func putValue(_ text: LoadSpill.Text, _ flags: LoadSpill.Flags) {
        guard flags.contains(.present(text)) else { return put("null") }
        texts[text.rawValue].withUnsafeBufferPointer { put($0.baseAddress!, $0.count) }
    }

    /// A text of the record, quoted, escaped and guarded.
    private func putText() {
        scratch.removeAll(keepingCapacity: true)
        Self.appendQuoted(fields.text(), to: &scratch, for: consumer)
        scratch.withUnsafeBufferPointer { put($0.baseAddress!, $0.count) }
    }

    /// UTF-8 bytes (a `String`'s, so valid) as a JSON string, escaped as `JSONText` escapes and
    /// then guarded for the consumer.
    private static func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], for consumer: OutputConsumer) {
        // Printable ASCII but `"`, `\` and `#`: nothing to escape, nothing a guard changes.
        if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C && $0 != 0x23 }) {
            out.append(0x22)
            out.append(contentsOf: utf8)
            out.append(0x22)
            return
        }
        // Rare: the one escaper (through a `String`), then the consumer's guard.
        var text = JSONText()
        text.rawString(String(decoding: utf8, as: UTF8.self))
        text.withBytes { out.append(contentsOf: OutputGuard.guarded($0, for: consumer)) }
    }

    // MARK: The buffer

    /// The status and the four texts a common hit lacks, up to the timestamp's value.
    private static func statusWithoutDescription(_ status: LoadStatus) -> StaticString {
        switch status {
        case .ok: return ",\"status\":\"ok\",\"detail\":null,\"api\":null,\"breakpoint\":null,\"thread\":null,\"timestamp\":"
        case .nil: return ",\"status\":\"nil\",\"detail\":null,\"api\":null,\"breakpoint\":null,\"thread\":null,\"timestamp\":"
        case .empty: return ",\"status\":\"empty\",\"detail\":null,\"api\":null,\"breakpoint\":null,\"thread\":null,\"timestamp\":"
        case .error: return ",\"status\":\"error\",\"detail\":null,\"api\":null,\"breakpoint\":null,\"thread\":null,\"timestamp\":"
        case .addressOnly:
            return ",\"status\":\"addressOnly\",\"detail\":null,\"api\":null,\"breakpoint\":null,\"thread\":null,\"timestamp\":"
        case .skipped: return ",\"status\":\"skipped\",\"detail\":null,\"api\":null,\"breakpoint\":null,\"thread\":null,\"timestamp\":"
        }
    }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if capacity - count < extra { growBytes(&base, capacity: &capacity, keeping: count, extra: extra) }
    }

    @inline(__always)
    func put(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    private func put(_ source: UnsafePointer<UInt8>, _ length: Int) {
        reserve(length)
        (base + count).update(from: source, count: length)
        count += length
    }

    @inline(__always)
    private func put(_ text: StaticString) { put(text.utf8Start, text.utf8CodeUnitCount) }

    /// Decimal digits written backwards into room reserved for the longest.
    @inline(__always)
    private func putInt(_ value: Int) {
        reserve(21)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var magnitude = UInt64(value.magnitude)
        guard magnitude >= 10 else {
            base[count] = 0x30 + UInt8(truncatingIfNeeded: magnitude)
            count += 1
            return
        }
        // The digits counted by comparison, then written two at a time from the back: half the
        // divisions of one digit at a time, which were half this writer's own time.
        var digits = 2
        var bound: UInt64 = 100
        while digits < 20, magnitude >= bound {
            digits += 1
            bound &*= 10
        }
        var end = count + digits
        count = end
        let pairs = Self.digitPairs.utf8Start
        while magnitude >= 100 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) * 2
            magnitude /= 100
            end -= 2
            base[end] = pairs[pair]
            base[end + 1] = pairs[pair + 1]
        }
        if magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude) * 2
            base[end - 2] = pairs[pair]
            base[end - 1] = pairs[pair + 1]
        } else {
            base[end - 1] = 0x30 + UInt8(truncatingIfNeeded: magnitude)
        }
    }

    /// "00" to "99", for two digits at a time.
    private static let digitPairs: StaticString = """
        0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
}
