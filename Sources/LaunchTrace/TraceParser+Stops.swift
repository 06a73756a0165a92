/// Stop reports, breakpoint confirmations, gdb's thread and stop lines, frames, and the lines
/// that start with a digit (timestamps, timestamped callback output).
extension TraceParser {
    mutating func process(_ event: ProcessEvent, number: Int) throws {
        switch event {
        case .stopped:
            openStop = (number, nil)
            try settleOpenHit()
            section = .stopReport
            collecting = .ignore
        case .resumed, .exited:
            openStop = nil
            try settleOpenHit()
            if section == .stopReport { section = .plain }
            // With echoes, later output belongs to the next echoed command; without, it may
            // be an action's output again.
            collecting = echoMode ? .ignore : .none
            if event == .exited { collecting = .ignore }
        case .other:
            break
        }
    }

    /// lldb confirmed breakpoint `id`: its function is what the `breakpoint set` asked for, unless
    /// that was an address or a register, when the resolved `where =` names it better.
    mutating func lldbBreakpoint(id: String, whereSymbol: String?, pending: Bool, number: Int) {
        var symbol = breakpoints.pendingSetup?.symbol
        if let whereSymbol, symbol == nil || symbol?.hasPrefix("$") == true || symbol?.hasPrefix("0x") == true { symbol = whereSymbol }
        breakpoints.register(id: id, symbol: symbol, line: number)
        if pending { breakpoints.markPending(id, true) }
    }

    /// A thread line: its name and stop reason are parsed once per distinct line (a stop report
    /// repeats the same one on every hit).
    mutating func threadLine(selected: Bool, body: ByteLine, number: Int) throws {
        let parsed: (name: String?, reason: String?)
        if let cached = lastThreadLine, body.equals(cached.bytes) {
            parsed = (cached.name, cached.reason)
        } else {
            let text = body.string
            parsed = (ThreadText.name(text), ThreadText.stopReason(text))
            lastThreadLine = (body.bytes, parsed.name, parsed.reason)
        }
        try threadLine(selected: selected, thread: parsed.name, reason: parsed.reason, number: number)
    }

    mutating func threadLine(selected: Bool, thread: String?, reason: String?, number: Int) throws {
        if selected, let reason, openStop != nil, openStop?.reason == nil { openStop?.reason = reason }
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
    mutating func callbackHit(_ hit: ActionLine.Hit, timestamp: LogTimestamp?, number: Int) throws {
        try settleOpenHit()
        callbackSeen = true
        if hit.decode {
            // Time spent on an image already looked up: the summary's, never a load.
            let name = hit.unread == nil ? hit.value.map { String(decoding: $0, as: UTF8.self) } : nil
            let afterLaunch = summary.launchEnd.map { number > $0.line } == true
            summary.decodes.append(
                ImageDecode(name: name, microseconds: hit.microseconds, thread: hit.thread, line: number, afterLaunch: afterLaunch, timestamp: timestamp))
            openStop = nil
            section = .plain
            collecting = .none
            return
        }
        // A request printed after a stop: the program went on.
        openStop = nil
        var open = OpenHit(line: number, thread: hit.thread)
        open.api = hit.api
        open.kind = hit.kind
        open.timestamp = timestamp
        open.microseconds = hit.microseconds
        open.ownMicroseconds = hit.ownMicroseconds
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
    mutating func coveredHits(_ count: Int) {
        var covered = count
        let early = min(covered, heldSkips.count)
        heldSkips.removeFirst(early)
        covered -= early
        coveredSkips += covered
    }
}
