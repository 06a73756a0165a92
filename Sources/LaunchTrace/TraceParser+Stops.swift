/// Stop reports, breakpoint confirmations, gdb's thread and stop lines, frames, and the lines
/// that start with a digit (timestamps, timestamped callback output).
extension TraceParser {
    mutating func process(_ line: ByteLine, number: Int) throws {
        statistics.lldbEvidence += 1
        if line.contains(" stopped and restarted") { return }
        if line.hasSuffix(" stopped") {
            try settleOpenHit()
            section = .stopReport
            collecting = .ignore
        } else if line.hasSuffix(" resuming") || line.contains(" exited with status") {
            try settleOpenHit()
            if section == .stopReport { section = .plain }
            // With echoes, later output belongs to the next echoed command; without, it may
            // be an action's output again.
            collecting = echoMode ? .ignore : .none
            if line.contains(" exited with status") { collecting = .ignore }
        }
    }

    mutating func breakpointLine(_ line: ByteLine, number: Int) throws {
        let text = line.string
        let digits = line.digitRun(from: 11)
        let id = String(text.dropFirst(11).prefix(digits))
        let after = line.dropFirst(11 + digits)
        if after.hasPrefix(": ") {
            // lldb: `Breakpoint 1: where = libFakeUIKit.so\`+[UIImage imageNamed:] + 21 at …, address = …`
            statistics.lldbEvidence += 1
            var symbol = breakpoints.pendingSetup?.symbol
            if let range = text.range(of: "where = ") {
                var whereText = text[range.upperBound...]
                if let addr = whereText.range(of: ", address = ", options: .backwards) { whereText = whereText[..<addr.lowerBound] }
                let resolved = DebuggerCommand.symbol(fromWhere: String(whereText))
                if symbol == nil || symbol?.hasPrefix("$") == true || symbol?.hasPrefix("0x") == true { symbol = resolved }
            }
            breakpoints.register(id: id, symbol: symbol, line: number)
            if line.contains("no locations (pending)") { breakpoints.markPending(id, true) }
        } else if after.hasPrefix(", ") {
            // gdb stop: `Breakpoint 1, +[UIImage imageNamed:] (self=…) at …` / `Breakpoint 1, 0x… in main ()`.
            statistics.gdbEvidence += 1
            gdbStop = (id, gdbThread)
            breakpoints.recordStopSymbol(id: id, text: String(text.dropFirst(11 + digits + 2)), line: number)
        } else if after.hasPrefix(" at ") || after.hasPrefix(" (") {
            statistics.gdbEvidence += 1
            var symbol = breakpoints.pendingSetup?.symbol
            var pending = false
            if after.hasPrefix(" ("), let close = text.range(of: ") pending", options: .backwards) {
                symbol = String(text[text.index(text.startIndex, offsetBy: 11 + digits + 2)..<close.lowerBound])
                pending = true
            }
            breakpoints.register(id: id, symbol: symbol, line: number)
            if pending { breakpoints.markPending(id, true) }
        }
    }

    /// lldb's `WARNING:  Unable to resolve breakpoint to any actual locations.` follows the
    /// breakpoint it is about; `1 location added to breakpoint 1` resolves one later.
    mutating func resolution(_ line: ByteLine) {
        if line.hasPrefix("WARNING:  Unable to resolve breakpoint"), let last = breakpoints.lastID {
            breakpoints.markPending(last, true)
        } else if let added = line.range(of: " added to breakpoint ") {
            let rest = line.dropFirst(added + 21)
            breakpoints.markPending(String(decoding: UnsafeBufferPointer(start: rest.base, count: rest.digitRun(from: 0)), as: UTF8.self), false)
        } else if line.count >= 24, line.hasPrefix("Function \""), line.hasSuffix("\" not defined.") {
            // gdb, when the symbol is not (yet) in any loaded object.
            statistics.gdbEvidence += 1
            let name = line.slice(10, line.count - 14).string
            if summary.undefinedFunctions.count < 64, !summary.undefinedFunctions.contains(name) { summary.undefinedFunctions.append(name) }
        }
    }

    mutating func gdbThreadHit(_ line: ByteLine, hitAt: Int, number: Int) {
        statistics.gdbEvidence += 1
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
            breakpoints.recordStopSymbol(id: id, text: String(rest.string.dropFirst(digits + 2)), line: number)
        }
    }

    mutating func gdbBracket(_ line: ByteLine) {
        // `[Switching to Thread 0x7ffff44166c0 (LWP 21504)]`: later hits run on that thread.
        if line.hasPrefix("[Switching to Thread ") || line.hasPrefix("[New Thread ") || line.hasPrefix("[Inferior ") {
            statistics.gdbEvidence += 1
        }
        if line.hasPrefix("[Switching to "), let lwp = line.range(of: "(LWP ") {
            let tail = line.dropFirst(lwp + 1)
            if let close = tail.index(of: 0x29) { gdbThread = tail.slice(0, close).string }
        }
    }

    /// Thread and frame lines of stop reports and `bt`, disassembly, diagnostics' source lines.
    mutating func indented(_ line: ByteLine, number: Int) throws {
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

    mutating func threadLine(selected: Bool, thread: String?, reason: String?, number: Int) throws {
        switch section {
        case .stopReport:
            guard let reason, reason.hasPrefix("breakpoint ") else { return }
            let id = String(reason.dropFirst(11).split(separator: " ").first ?? "")
            if selected {
                try settleOpenHit()
                var hit = OpenHit(line: number, breakpoint: id, thread: thread)
                hit.fromStop = true
                current = hit
            } else {
                var hit = OpenHit(line: number, breakpoint: id, thread: thread)
                hit.setOutcome(
                    .skipped, detail: "another thread was selected at this stop; the action printed only its name",
                    line: number, timestamp: lastTimestamp)
                deferredSkips.append(hit)
            }
        case .backtrace where echoMode:
            guard current != nil else { return }
            if current?.thread == nil { current?.thread = thread }
            if let reason, reason.hasPrefix("breakpoint "), current?.breakpoint == nil {
                current?.breakpoint = String(reason.dropFirst(11).split(separator: " ").first ?? "")
            }
        case .backtrace:
            // A timestamped callback's frames: they keep going to its hit.
            break
        case .plain, .looseBacktrace:
            guard !echoMode else { return }
            // Xcode console: a `bt` action printed without an echo.
            endLooseBacktrace()
            var bp: String?
            if let reason, reason.hasPrefix("breakpoint ") { bp = String(reason.dropFirst(11).split(separator: " ").first ?? "") }
            looseBacktrace = (thread, bp, [])
            section = .looseBacktrace
        }
    }

    mutating func frame(_ text: String, number: Int) {
        switch section {
        case .stopReport, .backtrace:
            if current != nil, collecting != .ignore || section == .stopReport, current!.backtrace.count < TraceParser.maxFrames {
                current?.backtrace.append(text)
            }
        case .looseBacktrace:
            if looseBacktrace!.frames.count < TraceParser.maxFrames { looseBacktrace?.frames.append(text) }
        case .plain:
            if !echoMode, current != nil, current!.backtrace.count < TraceParser.maxFrames {
                current?.backtrace.append(text)
            }
        }
    }

    /// Gives a backtrace printed without an echo to the open hit when it has a value and no
    /// frames yet (`bt` after the print); a `bt` printed before its hit's value is dropped.
    mutating func endLooseBacktrace() {
        guard section == .looseBacktrace else { return }
        section = .plain
        guard let bt = looseBacktrace else { return }
        if var hit = current, hit.hasValue, hit.backtrace.isEmpty {
            hit.backtrace = bt.frames
            hit.thread = hit.thread ?? bt.thread
            hit.breakpoint = hit.breakpoint ?? bt.breakpoint
            current = hit
            looseBacktrace = nil
        }
    }

    // MARK: Lines of imgtrace's breakpoint callback

    /// `[thread] (kind) api: "name"`, after a timestamp or not: one hit, or a whole request when
    /// it names its kind.
    mutating func callbackHit(_ hit: ActionLine.Hit, timestamp: String?, number: Int) throws {
        try settleOpenHit()
        var open = OpenHit(line: number, thread: hit.thread)
        open.api = hit.api
        open.kind = hit.kind
        open.timestamp = timestamp
        open.valueLine = number
        if let why = hit.unread {
            open.status = .error
            open.detail = "the capture could not read the name: " + why
        } else if let bytes = hit.value {
            open.status = bytes.isEmpty ? .empty : .ok
            open.nameID = bytes.isEmpty ? nil : statistics.names.intern(bytes)
        } else {
            open.status = .nil
        }
        // Stay open: the callback may print `frame #N:` lines of a backtrace next.
        current = open
        section = .backtrace
        collecting = .hit
    }

    /// `imgtrace-covered N`: the callback read N other threads' hits at this stop, and lldb
    /// will skip their commands with a warning each; those warnings lose nothing.
    mutating func coveredHits(_ line: ByteLine) {
        let count = line.dropFirst(17)
        guard count.count > 0, count.count <= 9, count.digitRun(from: 0) == count.count, var covered = Int(count.string) else { return }
        let early = min(covered, heldSkips.count)
        heldSkips.removeFirst(early)
        covered -= early
        coveredSkips += covered
    }

    // MARK: Lines starting with a digit

    /// App log lines (timestamps), timestamped action output, gdb source lines, counters.
    mutating func digitLine(_ line: ByteLine, number: Int) throws -> Bool {
        if let stampLength = Timestamp.length(line) {
            if stampLength + 1 < line.count, line[stampLength] == 0x20, line[stampLength + 1] == 0x5B,
                let hit = ActionLine.parse(line.dropFirst(stampLength + 1))
            {
                try callbackHit(hit, timestamp: line.slice(0, stampLength).string, number: number)
                return true
            }
            timestampSlot.store(line.slice(0, stampLength))
            if !echoMode && collecting == .ignore { collecting = .none }
            return true
        }
        if line.isDecimalLiteral {
            try bareNumber(line, number: number)
            return true
        }
        let digits = line.digitRun(from: 0)
        if digits < line.count, line[digits] == 0x09 { return true }  // gdb source listing
        if line.contains(" added to breakpoint ") {
            resolution(line)
            return true
        }
        return false
    }
}
