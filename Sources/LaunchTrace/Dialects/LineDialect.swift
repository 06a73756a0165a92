/// What one console line means to the hit machine (`TraceParser`), as the dialect that owns the
/// line read it. Dialects only read; the machine decides what a meaning does to the open hit.
/// The few large meanings are `indirect` (one per breakpoint or hit at most): the rest fit in
/// three words, so a dialect's answer comes back in registers, not through memory.
enum TraceLine {
    /// A debugger command echoed after its prompt (`(lldb)  po $arg3`, `(gdb) bt`).
    case echo(command: ByteLine, debugger: DebuggerKind)
    /// A printed value: a quoted name, `nil`, a `po` that printed nothing.
    case value(PrintedValue)
    /// lldb's `(type) [$N = ]value`: `old` for the `$N = ` form of lldb ≤ 16; nil when the value
    /// is no name (a `void *`, an unknown shape), and the line is then read as bare text.
    case typedValue(PrintedValue?, old: Bool)
    /// gdb's `$N = value`: the text after `= `.
    case gdbValue(ByteLine)
    /// A bare integer or address where a name was expected.
    case number
    /// A hit that printed an error instead of its name (`Cannot access memory at …`).
    case failure(String)
    /// A frame of a backtrace, as printed after `frame #N:` or gdb's `#N`.
    case frame(String)
    /// A thread line of a stop report or a `bt` (`* thread #1, queue = …, stop reason = breakpoint
    /// 1.1`): `selected` when starred; the machine reads the name and reason from `body`.
    case threadLine(selected: Bool, body: ByteLine)
    /// `error: …` (a diagnostic may go on over the next lines).
    case error(ByteLine)
    /// lldb skipped a hit's actions while another ran an expression.
    case expressionSkip
    /// gdb abandoned a hit's actions because another thread stopped.
    case gdbSkip
    /// `Process N stopped` and friends.
    case process(ProcessEvent)
    /// lldb confirmed a breakpoint: its id, the `where =` symbol when resolved, pending or not.
    indirect case lldbBreakpoint(id: String, whereSymbol: String?, pending: Bool)
    /// gdb confirmed a breakpoint (`Breakpoint 1 at …`, `Breakpoint 1 (sym) pending.`).
    indirect case gdbBreakpoint(id: String, pendingSymbol: String?)
    /// gdb stopped at a breakpoint: its id, the thread when the line names it, the stop's text.
    indirect case gdbStop(id: String, thread: String?, named: Bool, symbolText: String?)
    /// gdb switched threads; later hits run on this one (an LWP).
    case gdbThread(String?)
    /// A breakpoint that resolved to nothing (the last one set), or whose location was added later.
    case unresolved
    case resolved(id: String)
    /// gdb: a function it could not find.
    case undefinedFunction(String)
    /// imgtrace's callback: one hit (or a whole request when it names its kind).
    indirect case callback(ActionLine.Hit, timestamp: LogTimestamp?)
    /// imgtrace's callback announced N skip warnings it covered.
    case covered(Int)
    /// The marker `imgtrace lldb-script` and `record` print when launch is over.
    case launchMarker
    /// `imgtrace-recording-end …`: how an `imgtrace record` recording ended (the fields after the marker).
    case recordingEnd(String)
    /// `imgtrace-recording-start TIME`: when `record --agent` started the program, in its lines' clock.
    case recordingStart(LogTimestamp)
    /// An app log line's timestamp (the nearest one before a hit is the hit's).
    case timestamp(ByteLine)
    /// The debugger itself crashed (gdb's `Fatal signal: …`, LLVM's bug-report request): what
    /// follows is its crash report, and the capture ends here.
    case debuggerCrashed(String)
    /// A line the dialect owns that means nothing for hits (a prompt's chatter, a source line).
    case ignored
}

/// What `Process N …` says.
enum ProcessEvent {
    case stopped, resumed, exited, other
}

/// A line a dialect recognised: its meaning, and which debugger it is evidence of (only lines
/// that no other debugger prints are; the summary's debugger is the one with more evidence).
struct RecognisedLine {
    var meaning: TraceLine
    var evidence: DebuggerKind?

    init(_ meaning: TraceLine, evidence: DebuggerKind? = nil) {
        self.meaning = meaning
        self.evidence = evidence
    }
}

/// One family of console lines: a debugger's (lldb, gdb), the Xcode console's app output and
/// bare values, imgtrace's own capture lines. Adding a dialect is a new type here and its
/// place in `LineDialects.all`; the hit machine does not change.
protocol LineDialect {
    /// The first bytes of the lines this dialect may own: the reader asks it about those only.
    static var firstBytes: [UInt8] { get }
    /// What `line` means, or nil when it is not this dialect's.
    static func recognise(_ line: ByteLine) -> RecognisedLine?
}

extension LineDialect {
    /// The bytes `a`…`z`-style ranges and single bytes, for `firstBytes`.
    static func bytes(_ text: StaticString) -> [UInt8] {
        Array(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}

/// The dialects, asked in this order: the first that recognises a line owns it. Lines that
/// none owns are bare text (a `po` of an NSString prints the name without quotes).
enum LineDialects {
    // Immutable: a list of types, never written after it is made.
    nonisolated(unsafe) static let all: [any LineDialect.Type] = [
        CaptureDialect.self, ConsoleDialect.self, LLDBDialect.self, GDBDialect.self, FrameVariableDialect.self, CommandEchoDialect.self,
    ]

    /// For each first byte, which dialects to ask, as bits of their places in `all`: a table, so a
    /// line costs one lookup and the few dialects that own its first byte, not a scan of all.
    static let byFirstByte: [UInt32] = {
        precondition(all.count <= 32, "a dialect's place is a bit of a UInt32")
        var table = [UInt32](repeating: 0, count: 256)
        for (place, dialect) in all.enumerated() {
            for byte in dialect.firstBytes { table[Int(byte)] |= 1 << UInt32(place) }
        }
        return table
    }()

    /// The meaning of `line`, from the first dialect (in `all`'s order) that owns it; nil for bare text.
    @inline(__always)
    static func recognise(_ line: ByteLine, table: [UInt32]) -> RecognisedLine? {
        var owners = table[Int(line[0])]
        while owners != 0 {
            let place = owners.trailingZeroBitCount
            owners &= owners - 1
            if let recognised = recognise(line, place: place) { return recognised }
        }
        return nil
    }

    /// Asks the dialect at `place` of `all`, called statically so that each dialect's checks
    /// compile into the reader's loop (a call through the protocol per line cost 10% of a dense
    /// log's time). Its cases follow `all`, which a test checks.
    @inline(__always)
    static func recognise(_ line: ByteLine, place: Int) -> RecognisedLine? {
        switch place {
        case 0: return CaptureDialect.recognise(line)
        case 1: return ConsoleDialect.recognise(line)
        case 2: return LLDBDialect.recognise(line)
        case 3: return GDBDialect.recognise(line)
        case 4: return FrameVariableDialect.recognise(line)
        default: return CommandEchoDialect.recognise(line)
        }
    }
}
