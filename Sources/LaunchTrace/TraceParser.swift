import Foundation

/// The regular expression whose first matching line ends the launch window (`--launch-end`,
/// the config's `launchEnd`): compiled once, where it is read, so an invalid one is refused there.
public struct LaunchEndPattern: @unchecked Sendable, Equatable {
    /// The pattern as written.
    public let text: String
    // NSRegularExpression is immutable and documented as safe to share between threads.
    let regex: NSRegularExpression

    /// Why a pattern was refused: NSRegularExpression's own words.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        do {
            regex = try NSRegularExpression(pattern: text)
        } catch {
            throw Invalid(description: "not a valid regular expression")
        }
        self.text = text
    }

    /// Whether `line` matches somewhere.
    func matches(_ line: String) -> Bool { regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }

    public static func == (a: LaunchEndPattern, b: LaunchEndPattern) -> Bool { a.text == b.text }
}

/// Options for reading a trace.
public struct TraceOptions: Sendable {
    /// The first line matching this pattern ends the launch window.
    public var launchEnd: LaunchEndPattern?
    /// Whether the summary lists every distinct name with its tallies (`TraceSummary.names`).
    /// An audit keeps its own per-name state and leaves it off: one copy per name, not two.
    public var listsNames: Bool

    public init(launchEnd: LaunchEndPattern? = nil, listsNames: Bool = true) {
        self.launchEnd = launchEnd
        self.listsNames = listsNames
    }
}

/// The text `imgtrace lldb-script` makes the debugger print when launch is over.
public enum LaunchMarker {
    public static let text = "imgtrace-launch-end"
}

/// The streaming reader behind `TraceReader`: feed lines in order, then `finish()`.
///
/// One pass, one line at a time. Its parts live in their own files: line classification here
/// (`dispatch`), echoed commands (`+Commands`), printed values and diagnostics (`+Values`),
/// stop reports, threads and frames (`+Stops`), the breakpoint table (`BreakpointTable`), the
/// open hit (`OpenHit`) and the counts (`TraceStatistics`). A hit becomes an `ImageLoad` only
/// in `settleOpenHit()`.
struct TraceParser {
    /// Bounds that keep memory independent of what a hostile log repeats.
    static let maxNameLines = 16
    static let maxFrames = TraceReader.maxBacktraceFrames

    let emit: ((ImageLoad) throws -> Void)?
    let launchEnd: LaunchEndPattern?
    var summary = TraceSummary()

    // Where the reader is.
    var section = TraceSection.plain
    var collecting = Collecting.none
    var diagnostic = DiagnosticState()
    /// The log echoes breakpoint actions (`(lldb)  po $arg3`): values belong to echoed commands.
    var echoMode = false

    // What is being assembled.
    var current: OpenHit?
    /// Hits of threads that were not selected at a stop, delivered after the selected one.
    var deferredSkips: [OpenHit] = []
    /// Warnings of lldb that imgtrace's callback said it covered (`imgtrace-covered N`) and that are still to come.
    var coveredSkips = 0
    /// Lines of lldb's "skipping commands" warnings not yet covered or delivered.
    var heldSkips: [Int] = []
    /// Frames printed without an echo, waiting for the hit they belong to.
    var looseBacktrace: (thread: String?, breakpoint: String?, frames: [String])?
    var gdbStop: (breakpoint: String, thread: String?)?
    var gdbThread: String?
    /// The last app-log timestamp. Most lines that carry one are noise, so it is kept as bytes
    /// and becomes a `String` only when a hit takes it.
    let timestampSlot = TimestampSlot()
    var lastTimestamp: String? { timestampSlot.text }
    var lastThreadLine: (bytes: [UInt8], name: String?, reason: String?)?

    // What is known and counted.
    var breakpoints = BreakpointTable()
    var statistics = TraceStatistics()
    private var merger = RequestMerger()
    private var ready: [ImageLoad] = []
    private var present: UInt64 = 0
    private var presentFor = -1
    private var seq = 0

    private let listsNames: Bool

    init(options: TraceOptions, emit: ((ImageLoad) throws -> Void)?) {
        self.emit = emit
        listsNames = options.listsNames
        launchEnd = options.launchEnd
    }

    // MARK: Lines

    /// Consumes one normalised line (no terminator, no CR, no ANSI codes).
    mutating func consume(_ line: ByteLine, number: Int) throws {
        if let held = diagnostic.heldLine {
            diagnostic.heldLine = nil
            if isCaretLine(line) { return }
            try held.bytes.withUnsafeBufferPointer { buffer in
                try dispatch(ByteLine(base: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: buffer.count), number: held.number)
            }
        }
        if summary.launchEnd == nil {
            if let launchEnd, launchEnd.matches(line.string) {
                summary.launchEnd = LaunchEnd(line: number, source: .pattern)
            }
        }
        if diagnostic.expectExpressionEcho {
            diagnostic.expectExpressionEcho = false
            if !line.isEmpty, !line.startsWithBlank, !line.hasPrefix("error:"), !line.hasPrefix("(lldb)") {
                diagnostic.heldLine = (line.bytes, number)
                return
            }
        }
        try dispatch(line, number: number)
    }

    mutating func dispatch(_ line: ByteLine, number: Int) throws {
        guard !line.isEmpty else {
            endText()
            return
        }
        let first = line[0]
        if first != UInt8(ascii: "e") && first != 0x20 && first != 0x09 && first != 0x5E { diagnostic.inside = false }
        if first != 0x20 && first != 0x09 && first != 0x2A && first != 0x23 { endLooseBacktrace() }
        switch first {
        case UInt8(ascii: "("):
            if line.hasPrefix("(lldb)") { return try echo(line.dropFirst(6), number: number, debugger: .lldb) }
            if line.hasPrefix("(gdb) ") { return try echo(line.dropFirst(5), number: number, debugger: .gdb) }
            if let close = line.index(of: 0x29), close + 2 < line.count, line[close + 1] == 0x20 {
                if let value = typedValue(line, typeEnd: close) { return try value_(value, line: number) }
            }
        case UInt8(ascii: "\""):
            if let value = line.quoted(from: 0) { return try value_(value, line: number) }
        case UInt8(ascii: "$"):
            if line.count > 1, isDigit(line[1]) {
                let digits = line.digitRun(from: 1)
                if line.hasPrefix(" = ", at: 1 + digits) {
                    statistics.gdbEvidence += 1
                    return try gdbValue(line.dropFirst(4 + digits), line: number)
                }
            }
        case UInt8(ascii: "0"):
            let hex = line.hexLiteral(at: 0)
            if hex == line.count { return try bareNumber(line, number: number) }
            if hex > 0, hex < line.count, line[hex] == 0x3A {
                // x/s: `0x7fff…: "text"` (gdb separates with a TAB).
                var q = hex + 1
                while q < line.count, line[q] == 0x20 || line[q] == 0x09 { q += 1 }
                if q < line.count, line[q] == 0x22, let value = line.quoted(from: q) { return try value_(value, line: number) }
                return
            }
            if hex > 0, line.hasPrefix(" in ", at: hex) { return frame(line.string, number: number) }
            if line.digitRun(from: 0) == line.count { return try bareNumber(line, number: number) }
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            if try digitLine(line, number: number) { return }
        case UInt8(ascii: "-"):
            if line.hasPrefix("->") { return }
            if line.isDecimalLiteral { return try bareNumber(line, number: number) }
        case UInt8(ascii: "<"):
            if line.hasPrefix("<object return") && line.hasSuffix("empty description>") {
                if line.hasPrefix("<object returns") { statistics.gdbEvidence += 1 }
                return try value_(.empty, line: number)
            }
            if line.count == 5 && line.hasPrefix("<nil>") { return try value_(.nilValue, line: number) }
        case UInt8(ascii: "n"):
            if line.count == 3 && line.hasPrefix("nil") { return try value_(.nilValue, line: number) }
            if line.hasPrefix("note: ") { return }
        case UInt8(ascii: "e"):
            if line.hasPrefix("error: ") || line.hasPrefix("error:") { return try error(line, number: number) }
        case UInt8(ascii: "w"):
            if line.hasPrefix("warning: ") { return try warning(line, number: number) }
        case UInt8(ascii: "P"):
            if line.hasPrefix("Process "), line.count > 8, isDigit(line[8]) { return try process(line, number: number) }
            if line.hasPrefix("Program ") || line.hasPrefix("Printing description of ") || line.hasPrefix("Pending breakpoint") { return }
        case UInt8(ascii: "B"):
            if line.hasPrefix("Breakpoint "), line.count > 11, isDigit(line[11]) { return try breakpointLine(line, number: number) }
        case UInt8(ascii: "T"):
            if line.hasPrefix("Thread "), let hit = line.range(of: " hit Breakpoint ") { return gdbThreadHit(line, hitAt: hit, number: number) }
            if line.hasPrefix("Target ") || line.hasPrefix("Temporary breakpoint") { return }
            if line.hasPrefix("The program stopped in another thread") {
                statistics.gdbEvidence += 1
                return try skipped(number: number, detail: "gdb abandoned the action: the program stopped in another thread")
            }
        case UInt8(ascii: "C"):
            if line.hasPrefix("Cannot access memory at address ") {
                statistics.gdbEvidence += 1
                let rest = line.dropFirst(32)
                if rest.isHexLiteral, rest.isZeroHex(0, rest.count) { return try value_(.nilValue, line: number) }
                return try failed(line.string, line: number)
            }
            if line.hasPrefix("Command #") || line.hasPrefix("Current executable set to") || line.hasPrefix("Current language:") || line.hasPrefix("Continuing.") { return }
        case UInt8(ascii: "["):
            // imgtrace's callback without timestamps names the kind: an app's `[tag] text: "x"` does not.
            if let hit = ActionLine.parse(line), hit.kind != nil { return try callbackHit(hit, timestamp: nil, number: number) }
            gdbBracket(line)
            return
        case UInt8(ascii: "*"), UInt8(ascii: " "), UInt8(ascii: "\t"):
            return try indented(line, number: number)
        case UInt8(ascii: "#"):
            if line.count > 1, isDigit(line[1]) { return frame(line.string, number: number) }
        case UInt8(ascii: "W"), UInt8(ascii: "F"):
            if line.hasPrefix("WARNING:  Unable to resolve breakpoint") || line.hasPrefix("Function \"") {
                resolution(line)
                return
            }
        case UInt8(ascii: "i"):
            if line.hasPrefix("imgtrace-covered ") {
                coveredHits(line)
                return
            }
            if line.hasPrefix("imgtrace-launch-end") {
                if summary.launchEnd == nil { summary.launchEnd = LaunchEnd(line: number, source: .marker) }
                return
            }
        default:
            break
        }
        try bare(line, number: number)
    }

    // MARK: Hits

    /// Closes the open hit and delivers it, then the skips deferred behind it.
    mutating func settleOpenHit() throws {
        try releaseHeldSkips()
        if var hit = current.take() {
            collecting = collecting == .hit ? .none : collecting
            hit.close(names: &statistics.names, lastTimestamp: lastTimestamp)
            try settle(hit)
        }
        for skip in deferredSkips { try settle(skip) }
        deferredSkips.removeAll()
    }

    /// The one place a hit becomes an `ImageLoad`: attribution and launch phase; then the hits of
    /// one request are merged into one load (`RequestMerger`) before it is counted and delivered.
    private mutating func settle(_ hit: OpenHit) throws {
        let line = hit.valueLine ?? hit.line
        let status = hit.status ?? .skipped
        var name: String?
        if let id = hit.nameID, status == .ok {
            name = statistics.names.string(id)
            if !statistics.names.isValidUTF8(id) { statistics.recordInvalidName(line: line) }
        }
        var breakpoint = hit.breakpoint
        var api = hit.api
        if api == nil { (breakpoint, api) = breakpoints.attribute(breakpoint) }
        if breakpoints.anyPending, let breakpoint { breakpoints.hitResolves(breakpoint) }
        let phase: LaunchPhase = summary.launchEnd.map { line > $0.line } == true ? .afterLaunch : .launch
        var load = ImageLoad(
            seq: 0, line: line, name: name, status: status, detail: hit.detail, api: api,
            breakpoint: breakpoint, thread: hit.thread,
            timestamp: hit.timestamp, backtrace: hit.backtrace, phase: phase,
            nameID: name == nil ? nil : hit.nameID)
        if let kind = hit.kind {
            // A whole request (imgtrace's callback printed it once, at the outermost API).
            merger.finish(into: &ready)
            try deliverReady()
            load.kind = kind
            return try deliver(load)
        }
        switch merger.add(load, present: presentAPIs(hit: api), into: &ready) {
        case let .alone(kind):
            try deliverReady()
            load.kind = kind
            try deliver(load)
        case .taken:
            try deliverReady()
        }
    }

    /// The image APIs this capture can hit, as bits of `ImageAPIs` indices: its breakpoints'
    /// functions and the APIs of hits so far. Every bit while the log shows no breakpoint, or one
    /// whose function it does not name (a regular expression): then any API may follow.
    private mutating func presentAPIs(hit api: String?) -> UInt64 {
        if breakpoints.breakpoints.count != presentFor {
            presentFor = breakpoints.breakpoints.count
            var declared: UInt64 = 0
            var known = true
            for breakpoint in breakpoints.breakpoints where !breakpoint.oneShot {
                guard let symbol = breakpoint.symbol else {
                    known = false
                    continue
                }
                if let index = merger.apiIndex(symbol) { declared |= 1 << UInt64(index) }
            }
            present = known && presentFor > 0 ? present | declared : .max
        }
        if present != .max, let api, let index = merger.apiIndex(api) { present |= 1 << UInt64(index) }
        return present
    }

    /// Delivers the requests the merger completed (a buffer kept between hits).
    private mutating func deliverReady() throws {
        guard !ready.isEmpty else { return }
        for request in ready { try deliver(request) }
        ready.removeAll(keepingCapacity: true)
    }

    /// Counts one request and hands it on.
    private mutating func deliver(_ request: consuming ImageLoad) throws {
        var load = request
        seq += 1
        load.seq = seq
        statistics.record(status: load.status, line: load.line, detail: load.detail)
        statistics.mergedHits += load.hits - 1
        if let kind = load.kind { statistics.kindCounts[kind.ordinal] += 1 }
        if let id = load.nameID, load.status == .ok {
            statistics.names.record(id, line: load.line, inLaunch: load.phase == .launch, api: load.api)
        }
        if let emit { try emit(load) }
    }

    // MARK: End

    mutating func finish(lines: Int, bytes: Int, launchEndPattern: String?, cutLines: (count: Int, first: Int?) = (0, nil)) throws {
        if let held = diagnostic.heldLine {
            diagnostic.heldLine = nil
            try held.bytes.withUnsafeBufferPointer { buffer in
                try dispatch(ByteLine(base: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: buffer.count), number: held.number)
            }
        }
        endLooseBacktrace()
        var truncatedAt: Int?
        if let hit = current, !hit.hasValue, !hit.fromStop { truncatedAt = hit.line }
        try settleOpenHit()
        merger.finish(into: &ready)
        try deliverReady()
        summary.lines = lines
        summary.mergedHits = statistics.mergedHits
        summary.kinds = statistics.kinds
        summary.bytes = bytes
        summary.hits = statistics.hits
        summary.statusCounts = statistics.countsByStatus
        (summary.debugger, summary.debuggerVersion) = statistics.debugger
        summary.breakpoints = breakpoints.breakpoints
        if listsNames { summary.names = statistics.names.summary() }
        summary.warnings = statistics.warnings(
            truncatedAt: truncatedAt, launchEndPattern: launchEndPattern,
            launchEndFound: summary.launchEnd != nil)
        if cutLines.count > 0 {
            summary.warnings.append(
                TraceWarning(
                    line: cutLines.first,
                    message: "\(cutLines.count) line\(cutLines.count == 1 ? " was" : "s were") longer than \(TraceReader.maxLineLength / 1024) KiB and cut there"))
        }
    }
}

/// The bytes of the last timestamp and their text, made on first use. One buffer, reused:
/// storing a timestamp is a copy of a few bytes, no allocation.
final class TimestampSlot {
    @exclusivity(unchecked) private var buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
    @exclusivity(unchecked) private var capacity = 64
    @exclusivity(unchecked) private var count = -1
    @exclusivity(unchecked) private var cached: String?

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

    var text: String? {
        guard count >= 0 else { return nil }
        if let cached { return cached }
        let made = String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
        cached = made
        return made
    }
}
