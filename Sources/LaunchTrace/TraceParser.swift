import Foundation

/// Options for reading a trace.
public struct TraceOptions: Sendable {
    /// The first line matching this pattern ends the launch window.
    public var launchEndPattern: String?

    public init(launchEndPattern: String? = nil) {
        self.launchEndPattern = launchEndPattern
    }
}

/// The text `imgtrace lldb-script` makes the debugger print when launch is over.
public enum LaunchMarker {
    public static let text = "imgtrace-launch-end"
}

/// A hit being assembled from the lines that belong to it.
private struct OpenHit {
    var line: Int
    var valueLine: Int?
    /// Interned name (see `NameTable`), for `ok` hits.
    var nameID: Int?
    var status: LoadStatus?
    var detail: String?
    var detailIsGeneric = false
    var nameLines: [[UInt8]] = []
    var breakpoint: String?
    var api: String?
    var thread: String?
    var timestamp: String?
    var backtrace: [String] = []
    /// Opened by a stop report rather than an action echo.
    var fromStop = false
    /// Lines of bare `po` output are being collected.
    var collectingText = false
    var hasValue: Bool { status != nil || !nameLines.isEmpty }
}

/// What echoed command output is expected next.
private enum Collecting {
    case none
    /// Output of an action or of a command typed at a breakpoint stop.
    case hit
    /// Output of a command typed outside a breakpoint stop: never a load.
    case ignore
}

/// The streaming state machine behind `TraceReader`. Feed lines in order, then `finish()`.
struct TraceParser {
    /// Bounds that keep memory independent of what a hostile log repeats.
    static let maxNameLines = 16
    static let maxFrames = 512

    private let emit: ((ImageLoad) throws -> Void)?
    private let launchEndRegex: NSRegularExpression?
    private(set) var summary = TraceSummary()

    private var seq = 0
    private var current: OpenHit?
    private var deferredSkips: [OpenHit] = []
    private var collecting = Collecting.none
    private var echoMode = false
    private var inStopReport = false
    private var inBacktrace = false
    private var stoppedAtBreakpoint = false
    private var inDiagnostic = false
    /// The last error line announced more lines of the same diagnostic (`…: ` or `Aborting …`).
    private var diagnosticOpen = false
    /// lldb 16 prints the failing expression on its own line after `error: <user expression …>`.
    private var expectExpressionEcho = false
    private var heldLine: (bytes: [UInt8], number: Int)?
    private var pendingSetup: BreakpointSetup?
    private var breakpointIndex: [String: Int] = [:]
    /// Bumped whenever the breakpoint table changes, so caches built from it are dropped.
    private var breakpointsVersion = 0
    private typealias CachedCommand = (bytes: [UInt8], text: String, kind: CommandKind, startsHit: Bool, breakpoint: String?)
    /// Echoed commands repeat on every hit: each distinct one is classified once.
    private var commandCache: [CachedCommand] = []
    private var commandCacheVersion = -1
    /// Hit attribution by breakpoint id (`1.1` → breakpoint and API), cached per version.
    private var attribution: [String: (breakpoint: String?, api: String?)] = [:]
    private var attributionVersion = -1
    private var lastAttribution: (key: String, result: (breakpoint: String?, api: String?))?
    private var lastThreadLine: (bytes: [UInt8], name: String?, reason: String?)?
    private var gdbStop: (breakpoint: String, thread: String?)?
    private var gdbThread: String?
    private var lastTimestamp: String?
    /// Frames printed without an echo (Xcode console `bt`), waiting for the hit they belong to.
    private var looseBacktrace: (thread: String?, breakpoint: String?, frames: [String])?
    private var looseBacktraceOpen = false
    private var names = NameStatistics()
    /// Some breakpoint was reported pending (lldb `no locations`, gdb `pending.`).
    private var anyPending = false
    private var statusCounts = [Int](repeating: 0, count: LoadStatus.allCases.count)
    private var lldbEvidence = 0
    private var gdbEvidence = 0
    private var lldbOld = 0
    private var lldbNew = 0
    private var invalidNames = 0
    private var firstInvalidNameLine: Int?
    private var firstSkipLine: Int?
    private var firstErrorLine: Int?
    private var firstErrorDetail: String?

    init(options: TraceOptions, emit: ((ImageLoad) throws -> Void)?) throws {
        self.emit = emit
        if let pattern = options.launchEndPattern {
            launchEndRegex = try NSRegularExpression(pattern: pattern)
        } else {
            launchEndRegex = nil
        }
    }

    // MARK: Lines

    /// Consumes one normalised line (no terminator, no CR, no ANSI codes).
    mutating func consume(_ line: ByteLine, number: Int) throws {
        if let held = heldLine {
            heldLine = nil
            if isCaretLine(line) { return }
            try held.bytes.withUnsafeBufferPointer { buffer in
                try dispatch(ByteLine(base: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: buffer.count), number: held.number)
            }
        }
        if summary.launchEnd == nil {
            if let regex = launchEndRegex {
                let text = line.string
                if regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                    summary.launchEnd = LaunchEnd(line: number, source: "pattern")
                }
            }
        }
        if expectExpressionEcho {
            expectExpressionEcho = false
            if !line.isEmpty, !line.startsWithBlank, !line.hasPrefix("error:"), !line.hasPrefix("(lldb)") {
                heldLine = (line.bytes, number)
                return
            }
        }
        try dispatch(line, number: number)
    }

    private mutating func dispatch(_ line: ByteLine, number: Int) throws {
        guard !line.isEmpty else {
            endText()
            return
        }
        let first = line[0]
        if first != UInt8(ascii: "e") && first != 0x20 && first != 0x09 && first != 0x5E { inDiagnostic = false }
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
                    gdbEvidence += 1
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
                if line.hasPrefix("<object returns") { gdbEvidence += 1 }
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
                gdbEvidence += 1
                return try skipped(number: number, detail: "gdb abandoned the action: the program stopped in another thread")
            }
        case UInt8(ascii: "C"):
            if line.hasPrefix("Cannot access memory at address ") {
                gdbEvidence += 1
                let rest = line.dropFirst(32)
                if rest.isHexLiteral, rest.isZeroHex(0, rest.count) { return try value_(.nilValue, line: number) }
                return try failed(line.string, line: number)
            }
            if line.hasPrefix("Command #") || line.hasPrefix("Current executable set to") || line.hasPrefix("Current language:") || line.hasPrefix("Continuing.") { return }
        case UInt8(ascii: "["):
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
            if line.hasPrefix("imgtrace-launch-end") {
                if summary.launchEnd == nil { summary.launchEnd = LaunchEnd(line: number, source: "marker") }
                return
            }
        default:
            break
        }
        try bare(line, number: number)
    }

    // MARK: Echoed commands

    private mutating func echo(_ rest: ByteLine, number: Int, debugger: DebuggerKind) throws {
        if debugger == .lldb { lldbEvidence += 1 } else { gdbEvidence += 1 }
        endText()
        inStopReport = false
        inBacktrace = false
        inDiagnostic = false
        // Breakpoint actions are echoed with two spaces after `(lldb)`, typed commands with one.
        let isAction = debugger == .lldb && rest.hasPrefix("  ")
        let trimmed = rest.trimmed()
        // Actions repeat on every hit: classify each distinct command once.
        let text: String
        let kind: CommandKind
        if commandCacheVersion != breakpointsVersion {
            commandCache.removeAll(keepingCapacity: true)
            commandCacheVersion = breakpointsVersion
        }
        var index = commandCache.firstIndex(where: { trimmed.equals($0.bytes) }) ?? -1
        if index < 0 {
            let fresh = trimmed.string
            let freshKind = DebuggerCommand.classify(fresh)
            if commandCache.count >= 16 { commandCache.removeFirst() }
            commandCache.append((trimmed.bytes, fresh, freshKind, startsHit(fresh, kind: freshKind), breakpoint(withFirstAction: fresh)))
            index = commandCache.count - 1
        }
        text = commandCache[index].text
        kind = commandCache[index].kind
        let commandStartsHit = commandCache[index].startsHit
        let commandBreakpoint = commandCache[index].breakpoint
        if isAction {
            echoMode = true
            summary.actionsEchoed = true
            switch kind {
            case .printObject, .printValue, .backtrace:
                if commandStartsHit || current == nil || current?.fromStop == true {
                    try finishCurrent()
                    var hit = OpenHit(line: number)
                    hit.breakpoint = commandBreakpoint
                    current = hit
                }
                collecting = .hit
                if kind == .backtrace { inBacktrace = true }
                current?.collectingText = kind == .printObject
            case .resume:
                collecting = .none
            default:
                collecting = .none
            }
            return
        }
        switch kind {
        case .setBreakpoint(let setup):
            pendingSetup = setup
            collecting = .ignore
        case .setActions(let id, let actions):
            if let index = breakpointIndex[id] { summary.breakpoints[index].actions = actions; breakpointsVersion += 1 }
            collecting = .ignore
        case .printObject, .printValue:
            if stoppedAtBreakpoint, current?.fromStop == true {
                collecting = .hit
                current?.collectingText = kind == .printObject
            } else {
                collecting = .ignore
            }
        case .backtrace:
            if stoppedAtBreakpoint, current?.fromStop == true {
                inBacktrace = true
                collecting = .hit
            } else {
                collecting = .ignore
            }
        case .resume:
            stoppedAtBreakpoint = false
            try finishCurrent()
            collecting = .ignore
        case .other:
            collecting = .ignore
        }
    }

    /// The breakpoint whose first action is `command`, when exactly one is.
    private func breakpoint(withFirstAction command: String) -> String? {
        let matches = summary.breakpoints.filter { !$0.oneShot && $0.actions.first == command }
        return matches.count == 1 ? matches[0].id : nil
    }

    /// Whether an echoed action begins a new hit: it is the first action of a breakpoint the
    /// log set up, or, when the set-up is not in the log, any command that prints a value.
    private func startsHit(_ command: String, kind: CommandKind) -> Bool {
        // A one-shot breakpoint's actions (the launch-end marker, a set-up stop) are never loads.
        if summary.breakpoints.contains(where: { $0.oneShot && $0.actions.contains(command) }) { return false }
        var matchesLater = false
        for bp in summary.breakpoints where !bp.oneShot && !bp.actions.isEmpty {
            if bp.actions[0] == command { return true }
            if bp.actions.contains(command) { matchesLater = true }
        }
        if matchesLater { return false }
        return kind != .backtrace
    }

    // MARK: Values

    /// `(char *) $0 = 0x… "AppIcon"`, `(char *) 0x… "AppIcon"`, `(NSString *) $1 = 0x… @"x"`,
    /// `(unsigned long) 0x…`, `(NSString *) $79 = nil`.
    private mutating func typedValue(_ line: ByteLine, typeEnd: Int) -> PrintedValue? {
        var start = typeEnd + 2
        if start < line.count, line[start] == 0x24 {
            // `$N = ` (lldb ≤ 16); a named persistent variable (`$imp = `) is the user's own.
            let digits = line.digitRun(from: start + 1)
            guard digits > 0, line.hasPrefix(" = ", at: start + 1 + digits) else { return nil }
            start += 1 + digits + 3
            lldbOld += 1
        } else {
            lldbNew += 1
        }
        let type = line.slice(1, typeEnd)
        // A `void *` is a pointer the user printed, never an image name.
        if type.hasPrefix("void") { return nil }
        return line.pointerValue(from: start)
    }

    /// gdb: `0x555555556113 "AppIcon"`, `(NSString *) 0x0`, `0x0`, `(void *) 0x…`, `42`.
    private mutating func gdbValue(_ rest: ByteLine, line: Int) throws {
        var start = 0
        if rest.count > 0, rest[0] == 0x28, let close = rest.index(of: 0x29) {
            if rest.slice(1, close).hasPrefix("void") { return }
            start = close + 2
        }
        if let value = rest.pointerValue(from: start) { try value_(value, line: line) }
    }

    private mutating func bareNumber(_ line: ByteLine, number: Int) throws {
        // An integer where a name was expected: `po` of a register without an object runtime.
        if echoMode && (collecting != .hit || current == nil || current?.hasValue == true) { return }
        let zero = line.isHexLiteral ? line.isZeroHex(0, line.count) : (line.count == 1 && line[0] == 0x30)
        try value_(zero ? .nilValue : .address, line: number)
    }

    private mutating func value_(_ value: PrintedValue, line: Int) throws {
        if echoMode {
            if collecting == .ignore { return }
            if current == nil { current = OpenHit(line: line) }
        } else {
            // Output of a command typed outside a breakpoint stop.
            if collecting == .ignore { return }
            if current?.fromStop == true && current?.hasValue == false {
                // A value printed at a stop (Xcode without auto-continue).
            } else {
                try finishCurrent()
                current = OpenHit(line: line)
            }
            if let stop = gdbStop {
                current?.breakpoint = stop.breakpoint
                current?.thread = stop.thread
                gdbStop = nil
            }
            if current?.thread == nil, let thread = gdbThread { current?.thread = thread }
        }
        guard current != nil else { return }
        let status: LoadStatus
        var id: Int?
        switch value {
        case .text(let text, let escaped):
            if escaped {
                let bytes = CString.unescape(text)
                status = bytes.isEmpty ? .empty : .ok
                if !bytes.isEmpty { id = names.intern(bytes) }
            } else {
                status = text.isEmpty ? .empty : .ok
                if !text.isEmpty { id = names.intern(text.base, text.count) }
            }
        case .nilValue: status = .nil
        case .empty: status = .empty
        case .address: status = .addressOnly
        }
        if current!.hasValue {
            // A second printing action of the same hit only helps when the first gave no name.
            guard status == .ok, current!.status != .ok, current!.nameLines.isEmpty else { return }
        }
        current!.status = status
        current!.nameID = id
        current!.detail = status == .addressOnly ? "only an address was printed, not the string" : nil
        current!.valueLine = line
        if current!.timestamp == nil { current!.timestamp = lastTimestamp }
        current!.collectingText = false
    }

    private mutating func failed(_ detail: String, line: Int) throws {
        if echoMode || collecting == .ignore {
            guard collecting == .hit, current != nil, current?.hasValue == false else { return }
        } else {
            try finishCurrent()
            current = OpenHit(line: line)
        }
        current?.status = .error
        current?.detail = detail
        current?.valueLine = line
        if current?.timestamp == nil { current?.timestamp = lastTimestamp }
        current?.collectingText = false
    }

    private mutating func skipped(number: Int, detail: String) throws {
        // The warning belongs to an echoed hit still waiting for its value; anything else is
        // finished first and the skip is a hit of its own.
        if let open = current, open.hasValue || open.fromStop || !echoMode { try finishCurrent() }
        var hit = current.take() ?? OpenHit(line: number)
        hit.status = .skipped
        hit.detail = detail
        hit.valueLine = number
        hit.timestamp = hit.timestamp ?? lastTimestamp
        current = hit
        try finishCurrent()
    }

    /// Bare text: a `po` of an NSString prints the name without quotes, one line per line.
    private mutating func bare(_ line: ByteLine, number: Int) throws {
        if echoMode {
            guard collecting == .hit, var hit = current, hit.collectingText, hit.status == nil else { return }
            // A name is a few lines at most; a long run of bare text after a `po` is app output.
            guard hit.nameLines.count < TraceParser.maxNameLines else {
                current?.collectingText = false
                return
            }
            hit.nameLines.append(line.bytes)
            if hit.valueLine == nil { hit.valueLine = number }
            hit.timestamp = hit.timestamp ?? lastTimestamp
            current = hit
            return
        }
        guard collecting != .ignore, BareText.isLikelyName(line) else { return }
        try value_(.text(line, escaped: false), line: number)
    }

    private mutating func endText() {
        if current?.collectingText == true { current?.collectingText = false }
    }

    // MARK: Diagnostics

    private mutating func error(_ line: ByteLine, number: Int) throws {
        lldbEvidence += 1
        let text = line.string
        let message = ErrorText.message(text)
        if text.hasPrefix("error: <user expression") { expectExpressionEcho = true }
        let continues = inDiagnostic && diagnosticOpen
        diagnosticOpen = message.hasSuffix(":") || ErrorText.isGeneric(message)
        if continues || (echoMode && inDiagnostic), current?.status == .error {
            if current?.detailIsGeneric == true, !ErrorText.isGeneric(message) {
                current?.detail = message
                current?.detailIsGeneric = false
            }
            return
        }
        if echoMode || collecting != .none {
            guard collecting == .hit, current != nil, current?.hasValue == false else { return }
        } else {
            try finishCurrent()
            current = OpenHit(line: number)
        }
        inDiagnostic = true
        current?.status = .error
        current?.detail = message
        current?.detailIsGeneric = ErrorText.isGeneric(message)
        current?.valueLine = number
        if current?.timestamp == nil { current?.timestamp = lastTimestamp }
        current?.collectingText = false
    }

    private mutating func warning(_ line: ByteLine, number: Int) throws {
        if line.hasPrefix("warning: hit breakpoint while running function") {
            lldbEvidence += 1
            try skipped(number: number, detail: "lldb skipped the action: the breakpoint was hit while it ran an expression")
        }
        // Other warnings (`po` fell back to `p`, receiver type) are followed by the value itself.
    }

    private func isCaretLine(_ line: ByteLine) -> Bool {
        let t = line.trimmed()
        guard t.count > 0, t[0] == 0x5E else { return false }
        for i in 1..<t.count where t[i] != 0x7E { return false }
        return true
    }

    // MARK: Process, breakpoints, threads

    private mutating func process(_ line: ByteLine, number: Int) throws {
        lldbEvidence += 1
        if line.contains(" stopped and restarted") { return }
        if line.hasSuffix(" stopped") {
            try finishCurrent()
            inStopReport = true
            stoppedAtBreakpoint = false
            collecting = .ignore
        } else if line.hasSuffix(" resuming") || line.contains(" exited with status") {
            try finishCurrent()
            stoppedAtBreakpoint = false
            inStopReport = false
            // With echoes, later output belongs to the next echoed command; without, it may
            // be an action's output again.
            collecting = echoMode ? .ignore : .none
            if line.contains(" exited with status") { collecting = .ignore }
        }
    }

    private mutating func breakpointLine(_ line: ByteLine, number: Int) throws {
        let text = line.string
        let digits = line.digitRun(from: 11)
        let id = String(text.dropFirst(11).prefix(digits))
        let after = line.dropFirst(11 + digits)
        if after.hasPrefix(": ") {
            // lldb: `Breakpoint 1: where = libFakeUIKit.so\`+[UIImage imageNamed:] + 21 at …, address = …`
            lldbEvidence += 1
            var symbol = pendingSetup?.symbol
            if let range = text.range(of: "where = ") {
                var whereText = text[range.upperBound...]
                if let addr = whereText.range(of: ", address = ", options: .backwards) { whereText = whereText[..<addr.lowerBound] }
                let resolved = DebuggerCommand.symbol(fromWhere: String(whereText))
                if symbol == nil || symbol?.hasPrefix("$") == true || symbol?.hasPrefix("0x") == true { symbol = resolved }
            }
            register(id: id, symbol: symbol, line: number)
            if line.contains("no locations (pending)") { markPending(id, true) }
        } else if after.hasPrefix(", ") {
            // gdb stop: `Breakpoint 1, +[UIImage imageNamed:] (self=…) at …` / `Breakpoint 1, 0x… in main ()`.
            gdbEvidence += 1
            gdbStop = (id, gdbThread)
            recordGdbStopSymbol(id: id, text: String(text.dropFirst(11 + digits + 2)), number: number)
        } else if after.hasPrefix(" at ") || after.hasPrefix(" (") {
            gdbEvidence += 1
            var symbol = pendingSetup?.symbol
            var pending = false
            if after.hasPrefix(" ("), let close = text.range(of: ") pending", options: .backwards) {
                symbol = String(text[text.index(text.startIndex, offsetBy: 11 + digits + 2)..<close.lowerBound])
                pending = true
            }
            register(id: id, symbol: symbol, line: number)
            if pending { markPending(id, true) }
        }
    }

    private mutating func markPending(_ id: String, _ pending: Bool) {
        guard let index = breakpointIndex[id] else { return }
        summary.breakpoints[index].pending = pending
        if pending { anyPending = true }
    }

    /// lldb's `WARNING:  Unable to resolve breakpoint to any actual locations.` follows the
    /// breakpoint it is about; `1 location added to breakpoint 1` resolves one later.
    private mutating func resolution(_ line: ByteLine) {
        if line.hasPrefix("WARNING:  Unable to resolve breakpoint"), let last = summary.breakpoints.last {
            markPending(last.id, true)
        } else if let added = line.range(of: " added to breakpoint ") {
            let rest = line.dropFirst(added + 21)
            markPending(String(decoding: UnsafeBufferPointer(start: rest.base, count: rest.digitRun(from: 0)), as: UTF8.self), false)
        } else if line.count >= 24, line.hasPrefix("Function \""), line.hasSuffix("\" not defined.") {
            // gdb, when the symbol is not (yet) in any loaded object.
            gdbEvidence += 1
            let name = line.slice(10, line.count - 14).string
            if summary.undefinedFunctions.count < 64, !summary.undefinedFunctions.contains(name) { summary.undefinedFunctions.append(name) }
        }
    }

    private mutating func register(id: String, symbol: String?, line: Int) {
        let setup = pendingSetup
        pendingSetup = nil
        breakpointsVersion += 1
        let info = BreakpointInfo(id: id, symbol: symbol, actions: setup?.actions ?? [], oneShot: setup?.oneShot ?? false, line: line)
        if let index = breakpointIndex[id] {
            summary.breakpoints[index] = info
        } else {
            breakpointIndex[id] = summary.breakpoints.count
            summary.breakpoints.append(info)
        }
    }

    private mutating func recordGdbStopSymbol(id: String, text: String, number: Int) {
        // `0x… in SYMBOL (args) …` or `SYMBOL (args) at …`.
        var rest = Substring(text)
        if rest.hasPrefix("0x"), let inRange = rest.range(of: " in ") { rest = rest[inRange.upperBound...] }
        if let paren = rest.range(of: " (") { rest = rest[..<paren.lowerBound] }
        let symbol = String(rest)
        if let index = breakpointIndex[id] {
            if summary.breakpoints[index].symbol == nil, symbol != "??" { summary.breakpoints[index].symbol = symbol; breakpointsVersion += 1 }
        } else {
            register(id: id, symbol: symbol == "??" ? nil : symbol, line: number)
        }
    }

    private mutating func gdbThreadHit(_ line: ByteLine, hitAt: Int, number: Int) {
        gdbEvidence += 1
        let text = line.string
        var thread: String?
        if let open = text.firstIndex(of: "\""), let close = text[text.index(after: open)...].firstIndex(of: "\"") {
            thread = String(text[text.index(after: open)..<close])
        }
        let rest = line.dropFirst(hitAt + 16)
        let digits = rest.digitRun(from: 0)
        let id = String(rest.string.prefix(digits))
        gdbStop = (id, thread)
        if rest.hasPrefix(", ", at: digits) {
            recordGdbStopSymbol(id: id, text: String(rest.string.dropFirst(digits + 2)), number: number)
        }
    }

    private mutating func gdbBracket(_ line: ByteLine) {
        // `[Switching to Thread 0x7ffff44166c0 (LWP 21504)]`: later hits run on that thread.
        if line.hasPrefix("[Switching to Thread ") || line.hasPrefix("[New Thread ") || line.hasPrefix("[Inferior ") {
            gdbEvidence += 1
        }
        if line.hasPrefix("[Switching to "), let lwp = line.range(of: "(LWP ") {
            let tail = line.dropFirst(lwp + 1)
            if let close = tail.index(of: 0x29) { gdbThread = tail.slice(0, close).string }
        }
    }

    /// Thread and frame lines of stop reports and `bt`, disassembly, diagnostics' source lines.
    private mutating func indented(_ line: ByteLine, number: Int) throws {
        let t = line.trimmed()
        var body = t
        if body.count > 0, body[0] == 0x2A { body = body.dropFirst(1).trimmed() }
        if body.hasPrefix("thread #") {
            let parsed: (name: String?, reason: String?)
            if let cached = lastThreadLine, body.equals(cached.bytes) {
                parsed = (cached.name, cached.reason)
            } else {
                let text = body.string
                parsed = (ThreadText.name(text), ThreadText.stopReason(text))
                lastThreadLine = (body.bytes, parsed.name, parsed.reason)
            }
            return try threadLine(selected: t[0] == 0x2A, thread: parsed.name, reason: parsed.reason, number: number)
        }
        if body.hasPrefix("frame #") {
            if let colon = body.index(of: 0x3A) { frame(body.dropFirst(colon + 1).trimmed().string, number: number) }
            return
        }
        // Continuation of a diagnostic or a log entry; never a name.
    }

    private mutating func threadLine(selected: Bool, thread: String?, reason: String?, number: Int) throws {
        if inStopReport {
            guard let reason, reason.hasPrefix("breakpoint ") else { return }
            let id = String(reason.dropFirst(11).split(separator: " ").first ?? "")
            if selected {
                try finishCurrent()
                var hit = OpenHit(line: number)
                hit.fromStop = true
                hit.breakpoint = id
                hit.thread = thread
                current = hit
                stoppedAtBreakpoint = true
            } else {
                var hit = OpenHit(line: number)
                hit.breakpoint = id
                hit.thread = thread
                hit.status = .skipped
                hit.detail = "another thread was selected at this stop; the action printed only its name"
                hit.valueLine = number
                hit.timestamp = hit.timestamp ?? lastTimestamp
                deferredSkips.append(hit)
            }
            return
        }
        if echoMode {
            guard inBacktrace, current != nil else { return }
            if current?.thread == nil { current?.thread = thread }
            if let reason, reason.hasPrefix("breakpoint "), current?.breakpoint == nil {
                current?.breakpoint = String(reason.dropFirst(11).split(separator: " ").first ?? "")
            }
            return
        }
        // Xcode console: a `bt` action printed without an echo.
        endLooseBacktrace()
        var bp: String?
        if let reason, reason.hasPrefix("breakpoint ") { bp = String(reason.dropFirst(11).split(separator: " ").first ?? "") }
        looseBacktrace = (thread, bp, [])
        looseBacktraceOpen = true
    }

    private mutating func frame(_ text: String, number: Int) {
        if inStopReport || inBacktrace {
            if current != nil, collecting != .ignore || inStopReport, current!.backtrace.count < TraceParser.maxFrames {
                current?.backtrace.append(text)
            }
            return
        }
        if looseBacktraceOpen {
            if looseBacktrace!.frames.count < TraceParser.maxFrames { looseBacktrace?.frames.append(text) }
        } else if !echoMode, current != nil, current!.backtrace.count < TraceParser.maxFrames {
            current?.backtrace.append(text)
        }
    }

    /// Gives a backtrace printed without an echo to the hit it belongs to: the open hit when it
    /// has a value and no frames yet (`bt` after the print), else the next hit (`bt` first).
    private mutating func endLooseBacktrace() {
        guard looseBacktraceOpen, let bt = looseBacktrace else { return }
        looseBacktraceOpen = false
        if var hit = current, hit.hasValue, hit.backtrace.isEmpty {
            hit.backtrace = bt.frames
            hit.thread = hit.thread ?? bt.thread
            hit.breakpoint = hit.breakpoint ?? bt.breakpoint
            current = hit
            looseBacktrace = nil
        }
    }

    // MARK: Lines starting with a digit

    /// App log lines (timestamps), timestamped action output, gdb source lines, counters.
    private mutating func digitLine(_ line: ByteLine, number: Int) throws -> Bool {
        if let stampLength = Timestamp.length(line) {
            let stamp = line.slice(0, stampLength).string
            if stampLength + 1 < line.count, line[stampLength] == 0x20, line[stampLength + 1] == 0x5B,
               let hit = ActionLine.parse(line.dropFirst(stampLength + 1)) {
                // Output of a timestamping breakpoint callback: `TIME [thread] api: 'name'`.
                try finishCurrent()
                var open = OpenHit(line: number)
                open.thread = hit.thread
                open.api = hit.api
                open.timestamp = stamp
                open.valueLine = number
                open.timestamp = open.timestamp ?? lastTimestamp
                switch hit.value {
                case .some(let bytes): open.status = bytes.isEmpty ? .empty : .ok; open.nameID = bytes.isEmpty ? nil : names.intern(bytes)
                case .none: open.status = .nil
                }
                // Stay open: the callback may print `frame #N:` lines of a backtrace next.
                current = open
                inBacktrace = true
                collecting = .hit
                return true
            }
            lastTimestamp = stamp
            if !echoMode && collecting == .ignore { collecting = .none }
            return true
        }
        if line.isDecimalLiteral {
            try bareNumber(line, number: number)
            return true
        }
        let digits = line.digitRun(from: 0)
        if digits < line.count, line[digits] == 0x09 { return true } // gdb source listing
        if line.contains(" added to breakpoint ") {
            resolution(line)
            return true
        }
        return false
    }

    // MARK: Hits

    private mutating func finishCurrent() throws {
        if var hit = current.take() {
            collecting = collecting == .hit ? .none : collecting
            if !hit.nameLines.isEmpty && hit.status == nil {
                var joined: [UInt8] = []
                for (i, part) in hit.nameLines.enumerated() {
                    if i > 0 { joined.append(0x0A) }
                    joined.append(contentsOf: part)
                }
                hit.nameID = names.intern(joined)
                hit.status = .ok
            }
            if hit.status == nil {
                hit.status = .skipped
                hit.detail = hit.fromStop
                    ? "stopped at the breakpoint but no name was printed"
                    : "the action printed nothing before the log went on"
                hit.valueLine = hit.line
                hit.timestamp = hit.timestamp ?? lastTimestamp
            }
            try deliver(hit)
        }
        for skip in deferredSkips { try deliver(skip) }
        deferredSkips.removeAll()
    }

    private mutating func deliver(_ hit: OpenHit) throws {
        seq += 1
        let line = hit.valueLine ?? hit.line
        var name: String?
        if let id = hit.nameID, hit.status == .ok {
            name = names.string(id)
            if !names.isValidUTF8(id) {
                invalidNames += 1
                if firstInvalidNameLine == nil { firstInvalidNameLine = line }
            }
        }
        var breakpoint = hit.breakpoint
        var api = hit.api
        if api == nil {
            let resolved = attribute(breakpoint)
            breakpoint = resolved.breakpoint
            api = resolved.api
        }
        // A hit proves its breakpoint resolved, whatever the log said when it was set (checked
        // only while some breakpoint is pending: this is the per-hit path).
        if anyPending, let breakpoint, let number = breakpoint.split(separator: ".").first, let index = breakpointIndex[String(number)],
           summary.breakpoints[index].pending {
            summary.breakpoints[index].pending = false
        }
        let phase: LaunchPhase = summary.launchEnd.map { line > $0.line } == true ? .afterLaunch : .launch
        let status = hit.status ?? .skipped
        summary.hits += 1
        statusCounts[statusIndex(status)] += 1
        switch status {
        case .skipped: if firstSkipLine == nil { firstSkipLine = line }
        case .error:
            if firstErrorLine == nil { firstErrorLine = line; firstErrorDetail = hit.detail }
        default: break
        }
        if let id = hit.nameID, status == .ok {
            names.record(id, line: line, inLaunch: phase == .launch, api: api)
        }
        if let emit {
            try emit(ImageLoad(seq: seq, line: line, name: name, status: status, detail: hit.detail, api: api,
                               breakpoint: breakpoint, thread: hit.thread,
                               timestamp: hit.timestamp, backtrace: hit.backtrace, phase: phase,
                               nameID: name == nil ? nil : hit.nameID))
        }
    }

    @inline(__always) private func statusIndex(_ status: LoadStatus) -> Int {
        switch status {
        case .ok: return 0
        case .nil: return 1
        case .empty: return 2
        case .error: return 3
        case .addressOnly: return 4
        case .skipped: return 5
        }
    }

    /// The API of a hit from its breakpoint id (`1.1` → breakpoint 1's symbol); a hit with no
    /// id belongs to the only breakpoint that is not one-shot, when there is just one.
    private mutating func attribute(_ id: String?) -> (breakpoint: String?, api: String?) {
        if attributionVersion != breakpointsVersion {
            attribution.removeAll(keepingCapacity: true)
            lastAttribution = nil
            attributionVersion = breakpointsVersion
        }
        let key = id ?? ""
        if let last = lastAttribution, last.key == key, attributionVersion == breakpointsVersion { return last.result }
        if let cached = attribution[key] { lastAttribution = (key, cached); return cached }
        var result: (breakpoint: String?, api: String?) = (id, nil)
        if let id {
            let number = String(id.split(separator: ".").first ?? "")
            if let index = breakpointIndex[number] { result.api = summary.breakpoints[index].symbol }
        } else {
            let candidates = summary.breakpoints.filter { !$0.oneShot }
            if candidates.count == 1 { result = (candidates[0].id, candidates[0].symbol) }
        }
        attribution[key] = result
        lastAttribution = (key, result)
        return result
    }

    // MARK: End

    mutating func finish(lines: Int, bytes: Int, launchEndPattern: String?, cutLines: (count: Int, first: Int?) = (0, nil)) throws {
        if let held = heldLine {
            heldLine = nil
            try held.bytes.withUnsafeBufferPointer { buffer in
                try dispatch(ByteLine(base: buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: buffer.count), number: held.number)
            }
        }
        endLooseBacktrace()
        var truncatedAt: Int?
        if let hit = current, !hit.hasValue, !hit.fromStop { truncatedAt = hit.line }
        try finishCurrent()
        summary.lines = lines
        summary.bytes = bytes
        for status in LoadStatus.allCases { summary.statusCounts[status] = statusCounts[statusIndex(status)] }
        summary.debugger = lldbEvidence > 0 && lldbEvidence >= gdbEvidence ? .lldb : (gdbEvidence > 0 ? .gdb : .unknown)
        switch summary.debugger {
        case .lldb:
            if lldbNew > lldbOld { summary.debuggerVersion = "lldb 17 or newer (Xcode 15+)" } else if lldbOld > 0 { summary.debuggerVersion = "lldb 16 or older" }
        case .gdb: summary.debuggerVersion = "gdb"
        case .unknown: summary.debuggerVersion = summary.hits > 0 ? "no debugger lines (Xcode console?)" : nil
        }
        summary.names = names.summary()
        summary.warnings = warnings(truncatedAt: truncatedAt, launchEndPattern: launchEndPattern)
        if cutLines.count > 0 {
            summary.warnings.append(TraceWarning(line: cutLines.first, message: "\(cutLines.count) line\(cutLines.count == 1 ? " was" : "s were") longer than \(TraceReader.maxLineLength / 1024) KiB and cut there"))
        }
    }

    private func warnings(truncatedAt: Int?, launchEndPattern: String?) -> [TraceWarning] {
        var out: [TraceWarning] = []
        let counts = summary.statusCounts
        let ok = counts[.ok] ?? 0
        if summary.hits == 0 {
            out.append(TraceWarning(line: nil, message: "no image loads found: expected the output of a breakpoint action such as `po $arg3` on +[UIImage imageNamed:] (see `imgtrace lldb-script`)"))
        } else if ok == 0 {
            if counts[.error] == summary.hits {
                if let register = ErrorText.undeclaredRegister(firstErrorDetail) {
                    out.append(TraceWarning(line: firstErrorLine, message: "every hit failed: `\(register)` is not a register on this architecture — use `$arg3`"))
                } else {
                    out.append(TraceWarning(line: firstErrorLine, message: "every hit failed: \(firstErrorDetail ?? "the action reported an error")"))
                }
            } else if (counts[.addressOnly] ?? 0) > 0 && (counts[.error] ?? 0) == 0 && (counts[.skipped] ?? 0) == 0 {
                out.append(TraceWarning(line: nil, message: "every hit printed an address, not a name: the debugger found no object description — print the string with `p (char *)[$arg3 UTF8String]`"))
            } else {
                out.append(TraceWarning(line: nil, message: "no hit printed a name"))
            }
        } else {
            if let errors = counts[.error], errors > 0 {
                out.append(TraceWarning(line: firstErrorLine, message: "\(errors) hit\(errors == 1 ? "" : "s") failed: \(firstErrorDetail ?? "the action reported an error")"))
            }
            if let addresses = counts[.addressOnly], addresses > 0 {
                out.append(TraceWarning(line: nil, message: "\(addresses) hit\(addresses == 1 ? "" : "s") printed only an address, not a name"))
            }
        }
        if let skips = counts[.skipped], skips > 0 {
            out.append(TraceWarning(line: firstSkipLine, message: "\(skips) hit\(skips == 1 ? " was" : "s were") skipped by the debugger: \(skips == 1 ? "its name is" : "their names are") lost and the audit is incomplete"))
        }
        if invalidNames > 0 {
            out.append(TraceWarning(line: firstInvalidNameLine, message: "\(invalidNames) name\(invalidNames == 1 ? "" : "s") contained invalid UTF-8, kept with U+FFFD replacement characters"))
        }
        if let truncatedAt {
            out.append(TraceWarning(line: truncatedAt, message: "the log ends inside a hit (truncated capture)"))
        }
        if let launchEndPattern, summary.launchEnd == nil {
            out.append(TraceWarning(line: nil, message: "launch-end pattern `\(launchEndPattern)` never matched: the whole log is treated as launch"))
        }
        return out
    }
}
