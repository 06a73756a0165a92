/// A hit being assembled from the lines that belong to it. It becomes an `ImageLoad` in one
/// place only: `TraceParser.settleOpenHit()`.
struct OpenHit {
    var line: Int
    var valueLine: Int?
    /// Interned name (see `NameStatistics`), for `ok` hits.
    var nameID: Int?
    var status: LoadStatus?
    var detail: String?
    var detailIsGeneric = false
    /// Bare `po` lines collected as its name; their bytes are the parser's `nameText`, one
    /// buffer reused for every hit (an array per hit was two allocations a hit).
    var nameLineCount = 0
    var breakpoint: String?
    var api: String?
    var thread: String?
    /// The request's kind, when the line was a whole request (imgtrace's callback saw the stack).
    var kind: LoadKind?
    var timestamp: LogTimestamp?
    /// How long the request ran, when the capture timed it.
    var microseconds: Int?
    var ownMicroseconds: Int?
    var backtrace: [String] = []
    /// Opened by a stop report rather than an action echo.
    var fromStop = false
    /// Its name is a bare line of a console without echoes (Xcode's, `po $arg3`), which may be
    /// the app's own output: the audit judges it by whether it resolves, and by its shape.
    var fromBareLine = false
    /// Read from the system's own warning that the image is missing (`SystemWarning`).
    var fromSystemWarning = false
    /// Lines of bare `po` output are being collected.
    var collectingText = false
    var hasValue: Bool { status != nil || nameLineCount > 0 }

    init(line: Int, breakpoint: String? = nil, thread: String? = nil) {
        self.line = line
        self.breakpoint = breakpoint
        self.thread = thread
    }

    /// Records what the hit printed (or why it printed nothing) at `line`; the timestamp is
    /// the last one seen unless the hit has its own.
    mutating func setOutcome(_ status: LoadStatus, detail: String?, line: Int, timestamp: LogTimestamp?) {
        self.status = status
        self.detail = detail
        valueLine = line
        if self.timestamp == nil { self.timestamp = timestamp }
        collectingText = false
    }

    /// The outcome of a hit whose lines are all read: bare `po` lines (`nameText`, joined by
    /// newlines) become its name, and a hit that printed nothing is a skip.
    mutating func close(names: inout NameStatistics, nameText: [UInt8], lastTimestamp: LogTimestamp?) {
        if nameLineCount > 0 && status == nil {
            nameID = names.intern(nameText)
            status = .ok
        }
        if status == nil {
            let why = fromStop ? "stopped at the breakpoint but no name was printed" : "the action printed nothing before the log went on"
            setOutcome(.skipped, detail: why, line: line, timestamp: lastTimestamp)
        }
    }
}

/// Which multi-line block of debugger output the reader is inside: the parser's mode.
enum TraceSection: Equatable {
    /// Between blocks: lines are values, commands or noise.
    case plain
    /// After `Process N stopped`: thread and frame lines describe the stop.
    case stopReport
    /// The frames of a `bt` action (or of a timestamped callback) belong to the open hit.
    case backtrace
    /// Frames printed without an echo (Xcode console `bt`), held until it is known which hit
    /// they belong to.
    case looseBacktrace
}

/// What printed values mean right now.
enum Collecting {
    /// Nothing was asked for: a value may open a hit of its own (logs without echoes).
    case none
    /// Output of an action or of a command typed at a breakpoint stop.
    case hit
    /// Output of a command typed outside a breakpoint stop: never a load.
    case ignore
}

/// lldb diagnostics span lines: `error: …:` announces more, lldb 16 echoes the failing
/// expression on its own line, and a caret line may follow it.
struct DiagnosticState {
    /// The last line was part of an error.
    var inside = false
    /// The last error line announced more lines of the same diagnostic (`…: ` or `Aborting …`).
    var open = false
    /// lldb 16 prints the failing expression after `error: <user expression …>`.
    var expectExpressionEcho = false
    /// That expression, held back until the next line shows whether a caret line follows.
    var heldLine: (bytes: [UInt8], number: Int)?
}
