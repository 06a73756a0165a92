import ImgtraceSupport

/// Reads debugger console logs (lldb, gdb, Xcode; any era) into `ImageLoad` events.
///
/// The log is read once, as bytes: lines are split on LF, trailing CRs and ANSI escape
/// sequences are removed, and every line number refers to the original file. Memory grows
/// with the number of distinct names, not with the size of the log; events are handed to
/// the caller one by one.
public enum TraceReader {
    /// Reads `bytes`, calling `onLoad` for every hit in order, and returns the summary.
    public static func read(
        _ bytes: UnsafeRawBufferPointer, options: TraceOptions = TraceOptions(),
        onLoad: ((ImageLoad) throws -> Void)?
    ) throws -> TraceSummary {
        var parser = TraceParser(options: options, emit: onLoad)
        var splitter = LineSplitter()
        try splitter.feed(bytes, final: true) { line, number in try parser.consume(line, number: number) }
        try parser.finish(
            lines: splitter.lineNumber, bytes: bytes.count, launchEndPattern: options.launchEnd?.text,
            cutLines: (splitter.cutLines, splitter.firstCutLine))
        return parser.summary
    }

    /// Reads a log held in memory and returns every event with the summary.
    public static func read(_ data: [UInt8], options: TraceOptions = TraceOptions()) throws -> (events: [ImageLoad], summary: TraceSummary) {
        var events: [ImageLoad] = []
        let summary = try data.withUnsafeBytes { raw in
            try read(raw, options: options) { events.append($0) }
        }
        return (events, summary)
    }

    /// Reads the log at `path` in fixed-size chunks, so memory stays bounded whatever the
    /// file's size. Throws `InputError` when it cannot be read.
    /// Pass `onLoad: nil` when only the summary is wanted: events are then not built at all.
    public static func read(
        contentsOf path: String, options: TraceOptions = TraceOptions(),
        onLoad: ((ImageLoad) throws -> Void)?
    ) throws -> TraceSummary {
        try read(contentsOf: path, options: options, chunkSize: 1 << 20, onLoad: onLoad)
    }

    static func read(
        contentsOf path: String, options: TraceOptions, chunkSize: Int,
        onLoad: ((ImageLoad) throws -> Void)?
    ) throws -> TraceSummary {
        let file = try ChunkedFile(path: path, chunkSize: chunkSize)
        if path != ChunkedFile.standardInput, let what = TextSniffer.nonLogDescription(fileName: PathText.lastComponent(path)) {
            throw InputError(path: path, reason: "is \(what)")
        }
        var parser = TraceParser(options: options, emit: onLoad)
        var splitter = LineSplitter()
        var total = 0
        try file.forEachChunk { chunk in
            // Chunks are far larger than the sniffed prefix, so the first one decides.
            if total == 0, let what = TextSniffer.nonTextDescription(chunk) {
                throw InputError(path: path == ChunkedFile.standardInput ? "standard input" : path, reason: "is \(what)")
            }
            total += chunk.count
            try splitter.feed(chunk, final: false) { line, number in try parser.consume(line, number: number) }
        }
        try splitter.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true) { line, number in
            try parser.consume(line, number: number)
        }
        try parser.finish(
            lines: splitter.lineNumber, bytes: total, launchEndPattern: options.launchEnd?.text,
            cutLines: (splitter.cutLines, splitter.firstCutLine))
        return parser.summary
    }

    /// Frames kept per hit; more are not kept. The captures (`lldb-script --backtrace`,
    /// `record --backtrace`) ask for at most this many.
    public static let maxBacktraceFrames = 512

    /// Longer lines are cut: no debugger value is that long, and memory stays bounded.
    public static let maxLineLength = 1 << 20

    /// Splits bytes into normalised lines, carrying a partial last line between chunks.
    struct LineSplitter {
        private(set) var lineNumber = 0
        private(set) var cutLines = 0
        private(set) var firstCutLine: Int?
        private var carry: [UInt8] = []
        private var carryCut = false
        private var scratch: [UInt8] = []

        /// Adds to the carried partial line, dropping what exceeds the line limit.
        private mutating func carryAppend(_ base: UnsafePointer<UInt8>, _ count: Int) {
            let room = TraceReader.maxLineLength - carry.count
            if count > room { carryCut = true }
            if room > 0 { carry.append(contentsOf: UnsafeBufferPointer(start: base, count: min(room, count))) }
        }

        mutating func feed(
            _ bytes: UnsafeRawBufferPointer, final: Bool,
            _ body: (ByteLine, Int) throws -> Void
        ) throws {
            var start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            var count = bytes.count
            if !carry.isEmpty, let base = start {
                // Complete the line that the previous chunk ended in.
                guard let nl = memchr(base, 0x0A, count) else {
                    carryAppend(base, count)
                    if final { try flushCarry(body) }
                    return
                }
                let head = UnsafeRawPointer(nl).assumingMemoryBound(to: UInt8.self) - base
                carryAppend(base, head)
                try flushCarry(body)
                start = base + head + 1
                count -= head + 1
            }
            guard let begin = start, count > 0 else {
                if final { try flushCarry(body) }
                return
            }
            let end = begin + count
            var cursor = begin
            // The next ESC of the chunk, found once for every line before it: most logs have no
            // colour at all, and a search per line was one more pass over every byte.
            var escape = Self.nextEscape(from: cursor, end: end)
            while cursor < end {
                guard let nl = memchr(cursor, 0x0A, end - cursor) else {
                    if final {
                        try emit(cursor, end - cursor, mayHoldEscape: escape != nil, body)
                    } else {
                        carryAppend(cursor, end - cursor)
                    }
                    return
                }
                let newline = UnsafePointer(nl.assumingMemoryBound(to: UInt8.self))
                let holdsEscape = escape.map { $0 < newline } ?? false
                try emit(cursor, newline - cursor, mayHoldEscape: holdsEscape, body)
                cursor = newline + 1
                if holdsEscape { escape = Self.nextEscape(from: cursor, end: end) }
            }
        }

        private static func nextEscape(from start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) -> UnsafePointer<UInt8>? {
            guard start < end, let found = memchr(start, 0x1B, end - start) else { return nil }
            return UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
        }

        private mutating func flushCarry(_ body: (ByteLine, Int) throws -> Void) throws {
            guard !carry.isEmpty else { return }
            let line = carry
            carry.removeAll(keepingCapacity: true)
            if carryCut {
                carryCut = false
                cutLines += 1
                if firstCutLine == nil { firstCutLine = lineNumber + 1 }
            }
            try line.withUnsafeBufferPointer { try emit($0.baseAddress!, $0.count, body) }
        }

        private mutating func emit(
            _ base: UnsafePointer<UInt8>, _ rawLength: Int, mayHoldEscape: Bool = true, _ body: (ByteLine, Int) throws -> Void
        ) throws {
            lineNumber += 1
            var length = rawLength
            if length > TraceReader.maxLineLength {
                length = TraceReader.maxLineLength
                cutLines += 1
                if firstCutLine == nil { firstCutLine = lineNumber }
            }
            while length > 0, base[length - 1] == 0x0D { length -= 1 }
            if length > 0, mayHoldEscape, memchr(base, 0x1B, length) != nil {
                TraceReader.stripEscapes(base, length, into: &scratch)
                let copy = scratch
                try copy.withUnsafeBufferPointer { try body(ByteLine(base: $0.baseAddress ?? base, count: $0.count), lineNumber) }
            } else {
                try body(ByteLine(base: base, count: length), lineNumber)
            }
        }
    }

    /// Removes ANSI CSI (`ESC [ … final`), OSC (`ESC ] … BEL`) and two-byte escape sequences.
    static func stripEscapes(_ base: UnsafePointer<UInt8>, _ count: Int, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var i = 0
        while i < count {
            let b = base[i]
            guard b == 0x1B else { out.append(b); i += 1; continue }
            i += 1
            guard i < count else { break }
            let kind = base[i]
            i += 1
            if kind == 0x5B {
                while i < count, !(base[i] >= 0x40 && base[i] <= 0x7E) { i += 1 }
                i += 1
            } else if kind == 0x5D {
                while i < count, base[i] != 0x07 {
                    if base[i] == 0x1B, i + 1 < count, base[i + 1] == 0x5C { i += 1; break }
                    i += 1
                }
                i += 1
            }
        }
    }
}
