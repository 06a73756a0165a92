/// Which debugger wrote the log, as far as its lines tell.
public enum DebuggerKind: String, Sendable {
    case lldb
    case gdb
    case unknown
}

/// A breakpoint the log set up, with what it sits on and the actions it runs.
public struct BreakpointInfo: Sendable, Equatable {
    /// The breakpoint number, e.g. `1`.
    public var id: String
    /// The function it sits on (`+[UIImage imageNamed:]`, `image_named`), when known.
    public var symbol: String?
    /// Action commands, in order, when the log shows them.
    public var actions: [String]
    /// A one-shot breakpoint (set-up or launch-end marker), never an image load.
    public var oneShot: Bool
    /// The line where the log reported the breakpoint.
    public var line: Int
    /// The debugger found no location for it (lldb `no locations (pending)`, gdb `pending.`)
    /// and the log never shows it resolved later.
    public var pending = false
}

/// Something the reader noticed that a user should know, with the line it refers to.
public struct TraceWarning: Sendable, Equatable {
    public var line: Int?
    public var message: String
    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }
}

/// Per-name figures, bounded by the number of distinct names.
public struct NameTally: Sendable, Equatable {
    public var name: String
    /// All hits with this name.
    public var count: Int
    /// Hits before the launch-end marker.
    public var launchCount: Int
    /// Line of the first hit.
    public var firstLine: Int
    /// APIs the name was loaded through, sorted.
    public var apis: [String]
}

/// Where the launch window ends.
/// What kind of line ended the launch window. The raw value is the JSON contract's.
public enum LaunchEndSource: String, Sendable, Equatable {
    /// The first line matching `--launch-end` (or the config's `launchEnd`).
    case pattern
    /// The marker `imgtrace lldb-script` makes the debugger print (and `record` writes).
    case marker
}

public struct LaunchEnd: Sendable, Equatable {
    /// Line of the marker; hits after it are `afterLaunch`.
    public var line: Int
    /// Which kind of line ended the launch.
    public var source: LaunchEndSource

    public init(line: Int, source: LaunchEndSource) {
        self.line = line
        self.source = source
    }
}

/// A decode the toolkit made of an image object a lookup returned (`record --agent`): time spent
/// on the image after its lookup, at its first use. Not a load.
public struct ImageDecode: Sendable, Equatable {
    /// The name of the lookup that returned the object; nil when no recorded lookup did.
    public var name: String?
    public var microseconds: Int?
    public var thread: String?
    public var line: Int
    /// Whether it came after the launch-end marker.
    public var afterLaunch: Bool
    /// When it started, in the clock of the hit lines.
    public var timestamp: LogTimestamp?
}

/// Everything about a log except the individual events.
public struct TraceSummary: Sendable, Equatable {
    /// Decodes of looked-up images (timed captures only), in log order.
    public var decodes: [ImageDecode] = []
    /// When the recorder started the program, in the clock of the hit lines (`record --agent`):
    /// with the recording end's `launch-ms`, where the launch ended on the requests' time line.
    public var recordingStart: LogTimestamp?
    public var debugger: DebuggerKind = .unknown
    /// A finer guess at the era, e.g. `lldb 16 or older`, `lldb 17 or newer (Xcode 15+)`.
    public var debuggerVersion: String?
    /// Whether breakpoint actions were echoed (`(lldb)  po $arg3`); Xcode's console does not.
    public var actionsEchoed = false
    public var lines = 0
    public var bytes = 0
    /// Loads: one per request, the hits of nested image APIs merged into it.
    public var hits = 0
    /// Breakpoint hits merged into the request they belong to (a capture that breaks on
    /// `+imageNamed:` and the methods it calls sees one request several times).
    public var mergedHits = 0
    /// Loads by kind of request, where the log tells which API each came from.
    public var kinds: [LoadKind: Int] = [:]
    /// Hits per status; every status present, zero when none.
    public var statusCounts: [LoadStatus: Int] = Dictionary(uniqueKeysWithValues: LoadStatus.allCases.map { ($0, 0) })
    public var launchEnd: LaunchEnd?
    /// How an `imgtrace record` recording ended, when the log says (its last line).
    public var recording: RecordingEnd?
    /// The line where the debugger itself crashed (its crash report follows; nothing after it
    /// was read), if it did.
    public var debuggerCrashLine: Int?
    /// The line of the stop report the log ends on, when a capture by imgtrace's script (whose
    /// breakpoints all continue) ends with the program stopped.
    public var stoppedAtEndLine: Int?
    public var breakpoints: [BreakpointInfo] = []
    /// Distinct names, sorted by name (byte order).
    public var names: [NameTally] = []
    public var warnings: [TraceWarning] = []
    /// Bare lines of a console without echoes not read as names: sentences and log messages
    /// (`Loading feed...`, `fetched: 20`), with the first one's line.
    public var proseLines = 0
    /// Loads read from the system's own warnings of a missing image (`SystemWarning`), not from a capture.
    public var systemWarningLoads = 0
    public var firstProseLine: Int?
    /// Functions the debugger said do not exist (gdb `Function "…" not defined.`), in log order.
    public var undefinedFunctions: [String] = []
    /// Print commands typed at the prompt while no breakpoint stop was open (`(lldb) po $arg3`
    /// with one space): their output is not a load, for nothing says where the process stopped.
    public var typedPrintsOutsideStops = 0
    /// The first of them.
    public var firstTypedPrintLine: Int?

    /// Breakpoints that never resolved to a location (one-shot markers excluded).
    public var pendingBreakpoints: [BreakpointInfo] { breakpoints.filter { $0.pending && !$0.oneShot } }

    /// Hits that produced no name.
    public var hitsWithoutName: Int { hits - (statusCounts[.ok] ?? 0) }

    public init() {}
}
