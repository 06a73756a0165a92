import Foundation
import ImgtraceSupport

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
    /// The dialects' table by first byte, read through a stored copy: a static's every access is
    /// a lazy-initialisation check, and this runs once per line.
    let dialectTable = LineDialects.byFirstByte
    var summary = TraceSummary()

    // Where the reader is.
    var section = TraceSection.plain
    var collecting = Collecting.none
    var diagnostic = DiagnosticState()
    /// The log echoes breakpoint actions (`(lldb)  po $arg3`): values belong to echoed commands.
    var echoMode = false
    /// imgtrace's callback printed a request line: it prints every name itself, so bare text
    /// (the program's own output between the lines) is never a name.
    var callbackSeen = false
    /// The program's last stop the debugger reported, while nothing has resumed it since: its
    /// line and the selected thread's stop reason.
    var openStop: (line: Int, reason: String?)?

    // What is being assembled.
    var current: OpenHit?
    /// The bytes of the open hit's bare `po` lines (`OpenHit.nameLineCount`).
    var nameText: [UInt8] = []
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
    var lastTimestamp: LogTimestamp? { timestampSlot.timestamp }
    var lastThreadLine: (bytes: [UInt8], name: String?, reason: String?)?

    // What is known and counted.
    var breakpoints = BreakpointTable()
    var statistics = TraceStatistics()
    var merger = RequestMerger()
    var ready: [ImageLoad] = []
    var present: UInt64 = 0
    var presentFor = -1
    var seq = 0

    private let listsNames: Bool
    /// `TraceOptions.namesOnly`.
    let namesOnly: Bool

    init(options: TraceOptions, emit: ((ImageLoad) throws -> Void)?) {
        self.emit = emit
        listsNames = options.listsNames
        namesOnly = options.namesOnly
        launchEnd = options.launchEnd
    }

    // MARK: Lines

    /// Where and how the debugger crashed: nothing after it is read (its crash report's lines
    /// would be taken for names).
    private var debuggerCrash: (line: Int, text: String)?

    /// Consumes one normalised line (no terminator, no CR, no ANSI codes).
    mutating func consume(_ line: ByteLine, number: Int) throws {
        if debuggerCrash != nil { return }
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

    /// Gives one line to the dialect that owns it (`LineDialects`: a table by first byte) and acts
    /// on what it means; a line no dialect owns is bare text.
    mutating func dispatch(_ line: ByteLine, number: Int) throws {
        guard !line.isEmpty else {
            endText()
            return
        }
        let first = line[0]
        if first != UInt8(ascii: "e") && first != 0x20 && first != 0x09 && first != 0x5E { diagnostic.inside = false }
        if first != 0x20 && first != 0x09 && first != 0x2A && first != 0x23 { endLooseBacktrace() }
        guard let recognised = LineDialects.recognise(line, table: dialectTable) else {
            if try systemWarning(line, number: number) { return }
            return try bare(line, number: number)
        }
        switch recognised.evidence {
        case .lldb?: statistics.lldbEvidence += 1
        case .gdb?: statistics.gdbEvidence += 1
        default: break
        }
        try apply(recognised.meaning, line, number: number)
    }

    /// What each kind of line does to the hit being assembled.
    @inline(__always)
    private mutating func apply(_ meaning: consuming TraceLine, _ line: ByteLine, number: Int) throws {
        switch meaning {
        case let .echo(command, debugger): try echo(command, number: number, debugger: debugger)
        case .value(let value): try value_(value, line: number)
        case let .typedValue(value, old):
            if old { statistics.lldbOld += 1 } else { statistics.lldbNew += 1 }
            if let value { try value_(value, line: number) } else { try bare(line, number: number) }
        case .gdbValue(let rest): try gdbValue(rest, line: number)
        case .number: try bareNumber(line, number: number)
        case .failure(let text): try failed(text, line: number)
        case .frame(let text): frame(text, number: number)
        case let .threadLine(selected, body): try threadLine(selected: selected, body: body, number: number)
        case .error(let text): try error(text, number: number)
        case .expressionSkip: try expressionSkipWarning(number: number)
        case .gdbSkip: try skipped(number: number, detail: "gdb abandoned the action: the program stopped in another thread")
        case .process(let event): try process(event, number: number)
        case let .lldbBreakpoint(id, whereSymbol, pending): lldbBreakpoint(id: id, whereSymbol: whereSymbol, pending: pending, number: number)
        case let .gdbBreakpoint(id, pendingSymbol):
            breakpoints.register(id: id, symbol: pendingSymbol ?? breakpoints.pendingSetup?.symbol, line: number)
            if pendingSymbol != nil { breakpoints.markPending(id, true) }
        case let .gdbStop(id, thread, named, symbolText):
            gdbStop = (id, named ? thread : gdbThread)
            if let symbolText { breakpoints.recordStopSymbol(id: id, text: symbolText, line: number) }
        case .gdbThread(let thread): gdbThread = thread
        case .unresolved: if let last = breakpoints.lastID { breakpoints.markPending(last, true) }
        case .resolved(let id): breakpoints.markPending(id, false)
        case .undefinedFunction(let name):
            if summary.undefinedFunctions.count < 64, !summary.undefinedFunctions.contains(name) { summary.undefinedFunctions.append(name) }
        case let .callback(hit, timestamp): try callbackHit(hit, timestamp: timestamp, number: number)
        case .covered(let count): coveredHits(count)
        case .launchMarker: if summary.launchEnd == nil { summary.launchEnd = LaunchEnd(line: number, source: .marker) }
        case .recordingEnd(let fields): if summary.recording == nil { summary.recording = RecordingEnd(fields: fields, line: number) }
        case .recordingStart(let time): if summary.recordingStart == nil { summary.recordingStart = time }
        case .timestamp(let stamp):
            timestampSlot.store(stamp)
            if !echoMode && collecting == .ignore { collecting = .none }
        case .debuggerCrashed(let text): debuggerCrash = (number, text)
        case .ignored: break
        }
    }

    // MARK: Hits

    /// The last hit made a load: its name id, status and line (a system warning just after it is the same request).
    var lastSettled: (nameID: Int?, status: LoadStatus, line: Int)?

    /// The lines within which a system warning after a captured hit of the same name is that
    /// hit's request (the system logs it from inside the call the breakpoint stopped at).
    static let warningFollowsHitLines = 8

    /// Reads the system's own warning of a missing image as a load, unless it follows a captured
    /// hit of the same name: a request is one load, whichever way it was seen. Whether it was one.
    mutating func systemWarning(_ line: ByteLine, number: Int) throws -> Bool {
        guard let warning = SystemWarning.parse(line) else { return false }
        // A timestamped warning (the console dialect leaves it to this path) dates its load.
        if let stamp = Timestamp.length(line) { timestampSlot.store(line.slice(0, stamp)) }
        try settleOpenHit()
        let status: LoadStatus = warning.name.map { $0.isEmpty ? .empty : .ok } ?? .nil
        let nameID = warning.name.flatMap { $0.isEmpty ? nil : statistics.names.intern($0.base, $0.count) }
        if let last = lastSettled, number - last.line <= Self.warningFollowsHitLines, last.status == status, last.nameID == nameID {
            return true
        }
        var hit = OpenHit(line: number)
        hit.setOutcome(status, detail: nil, line: number, timestamp: lastTimestamp)
        hit.nameID = nameID
        hit.kind = warning.kind
        hit.api = String(describing: warning.source)
        hit.fromSystemWarning = true
        current = hit
        summary.systemWarningLoads += 1
        try settleOpenHit()
        return true
    }

    /// Closes the open hit and delivers it, then the skips deferred behind it.
    mutating func settleOpenHit() throws {
        try releaseHeldSkips()
        if var hit = current.take() {
            collecting = collecting == .hit ? .none : collecting
            hit.close(names: &statistics.names, nameText: nameText, lastTimestamp: lastTimestamp)
            try settle(consume hit)
        }
        for skip in deferredSkips { try settle(skip) }
        deferredSkips.removeAll()
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
            launchEndFound: summary.launchEnd != nil,
            typedPrints: summary.firstTypedPrintLine.map { (summary.typedPrintsOutsideStops, $0) })
        if let recording = summary.recording {
            for message in recording.warnings { summary.warnings.append(TraceWarning(line: recording.line, message: message)) }
        }
        appendEndWarnings(cutLines: cutLines)
    }

    /// The warnings only the end of the log can tell: a debugger crash, a program left stopped,
    /// loads that are all the system's warnings, cut lines.
    private mutating func appendEndWarnings(cutLines: (count: Int, first: Int?)) {
        if let crash = debuggerCrash {
            summary.debuggerCrashLine = crash.line
            summary.warnings.append(
                TraceWarning(
                    line: crash.line,
                    message:
                        "the debugger crashed here (\(SafeText.quoted(String(crash.text.prefix(120))))): nothing after this line was captured, so the launch's later requests are missing and the audit is incomplete"
                ))
        }
        // imgtrace's script continues at every breakpoint, so a capture that ends on a stop
        // report ended with the program stopped: a crash, an interrupt, or a batch session that
        // nothing continued (lldb-16 on Linux reports some steps over a breakpoint as `trace` stops
        // when two threads stop at once).
        if callbackSeen, debuggerCrash == nil, let stop = openStop {
            summary.stoppedAtEndLine = stop.line
            let reason = stop.reason.map { " (stop reason = \(SafeText.quoted(String($0.prefix(80)))))" } ?? ""
            summary.warnings.append(
                TraceWarning(
                    line: stop.line,
                    message:
                        "the program stopped here\(reason) and the log ends with it stopped: nothing continued it, so what it loaded after is not in the log"
                ))
        }
        if summary.systemWarningLoads > 0, summary.systemWarningLoads == summary.hits {
            summary.warnings.append(
                TraceWarning(
                    line: nil,
                    message:
                        "every load in this log is the system's own warning of a missing image: a partial launch, what loaded is not in it (capture the whole launch with `imgtrace lldb-script` or `record`)"
                ))
        }
        if cutLines.count > 0 {
            summary.warnings.append(
                TraceWarning(
                    line: cutLines.first,
                    message: "\(counted(cutLines.count, "line was", "lines were")) longer than \(TraceReader.maxLineLength / 1024) KiB and cut there"))
        }
    }
}
