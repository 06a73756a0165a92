/// Printed values (quoted names, typed pointers, bare `po` text, numbers) and the lines that
/// say a hit printed nothing (errors, skips).
extension TraceParser {
    /// gdb: `0x555555556113 "AppIcon"`, `(NSString *) 0x0`, `0x0`, `(void *) 0x…`, `42`.
    mutating func gdbValue(_ rest: ByteLine, line: Int) throws {
        var start = 0
        if rest.count > 0, rest[0] == 0x28, let close = rest.index(of: 0x29) {
            if rest.slice(1, close).hasPrefix("void") { return }
            // `(type) value`; a line that ends at the `)` has no value (and no byte after it).
            start = min(close + 2, rest.count)
        }
        if let value = rest.pointerValue(from: start) { try value_(value, line: line) }
    }

    mutating func bareNumber(_ line: ByteLine, number: Int) throws {
        // An integer where a name was expected: `po` of a register without an object runtime.
        if echoMode && (collecting != .hit || current == nil || current?.hasValue == true) { return }
        let zero = line.isHexLiteral ? line.isZeroHex(0, line.count) : (line.count == 1 && line[0] == 0x30)
        // In a console without echoes a small decimal is the app's output (`print(count)`): no
        // pointer is below 100,000, and a register without an object prints one.
        if !echoMode, !namesOnly, !zero, !line.isHexLiteral, line.count <= 5 {
            summary.proseLines += 1
            if summary.firstProseLine == nil { summary.firstProseLine = number }
            return
        }
        try value_(zero ? .nilValue : .address, line: number)
    }

    /// Gives a printed value to the hit it belongs to, opening one when the log has no echoes.
    mutating func value_(_ value: PrintedValue, line: Int) throws {
        if echoMode {
            if collecting == .ignore { return }
            if current == nil { current = OpenHit(line: line) }
        } else {
            // Output of a command typed outside a breakpoint stop.
            if collecting == .ignore { return }
            // A value printed at a stop (Xcode without auto-continue) fills the stop's hit.
            if !(current?.fromStop == true && current?.hasValue == false) {
                try settleOpenHit()
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
                if !bytes.isEmpty { id = statistics.names.intern(bytes) }
            } else {
                status = text.isEmpty ? .empty : .ok
                if !text.isEmpty { id = statistics.names.intern(text.base, text.count) }
            }
        case .nilValue: status = .nil
        case .empty: status = .empty
        case .address: status = .addressOnly
        }
        if current!.hasValue {
            // A second printing action of the same hit only helps when the first gave no name.
            guard status == .ok, current!.status != .ok, current!.nameLineCount == 0 else { return }
        }
        let stamp = lastTimestamp
        current!.setOutcome(
            status, detail: status == .addressOnly ? "only an address was printed, not the string" : nil,
            line: line, timestamp: stamp)
        current!.nameID = id
    }

    mutating func failed(_ detail: String, line: Int) throws {
        if echoMode || collecting == .ignore {
            guard collecting == .hit, current != nil, current?.hasValue == false else { return }
        } else {
            try settleOpenHit()
            current = OpenHit(line: line)
        }
        let stamp = lastTimestamp
        current?.setOutcome(.error, detail: detail, line: line, timestamp: stamp)
    }

    static let expressionSkip = "lldb skipped the action: the breakpoint was hit while it ran an expression"

    /// Delivers the warnings no announcement covered: each a lost hit.
    mutating func releaseHeldSkips() throws {
        guard !heldSkips.isEmpty else { return }
        let held = heldSkips
        heldSkips.removeAll()
        for number in held { try skipped(number: number, detail: Self.expressionSkip) }
    }

    mutating func skipped(number: Int, detail: String) throws {
        // The warning belongs to an echoed hit still waiting for its value; anything else is
        // finished first and the skip is a hit of its own.
        if let open = current, open.hasValue || open.fromStop || !echoMode { try settleOpenHit() }
        var hit = current.take() ?? OpenHit(line: number)
        hit.setOutcome(.skipped, detail: detail, line: number, timestamp: lastTimestamp)
        current = hit
        try settleOpenHit()
    }

    /// Bare text: a `po` of an NSString prints the name without quotes, one line per line.
    mutating func bare(_ line: ByteLine, number: Int) throws {
        if echoMode {
            // In place: a copy of the open hit would share its name lines and copy them on append.
            guard collecting == .hit, current?.collectingText == true, current?.status == nil else { return }
            // A name is a few lines at most; a long run of bare text after a `po` is app output.
            guard current!.nameLineCount < TraceParser.maxNameLines else {
                current!.collectingText = false
                return
            }
            // The hit's first line starts the buffer afresh; later ones join it with a newline.
            if current!.nameLineCount == 0 { nameText.removeAll(keepingCapacity: true) } else { nameText.append(0x0A) }
            nameText.append(contentsOf: UnsafeBufferPointer(start: line.base, count: line.count))
            current!.nameLineCount += 1
            if current!.valueLine == nil { current!.valueLine = number }
            if current!.timestamp == nil { current!.timestamp = lastTimestamp }
            return
        }
        guard collecting != .ignore, !callbackSeen else { return }
        switch BareText.kind(line) {
        case .chatter: return
        case .prose where !namesOnly:
            summary.proseLines += 1
            if summary.firstProseLine == nil { summary.firstProseLine = number }
            return
        case .prose, .candidate: break
        }
        try value_(.text(line, escaped: false), line: number)
        current?.fromBareLine = true
    }

    mutating func endText() {
        if current?.collectingText == true { current?.collectingText = false }
    }

    // MARK: Diagnostics

    mutating func error(_ line: ByteLine, number: Int) throws {
        let text = line.string
        let message = ErrorText.message(text)
        if text.hasPrefix("error: <user expression") { diagnostic.expectExpressionEcho = true }
        let continues = diagnostic.inside && diagnostic.open
        diagnostic.open = message.hasSuffix(":") || ErrorText.isGeneric(message)
        if continues || (echoMode && diagnostic.inside), current?.status == .error {
            // More lines of the same diagnostic: a specific message replaces a generic one.
            if current?.detailIsGeneric == true, !ErrorText.isGeneric(message) {
                current?.detail = message
                current?.detailIsGeneric = false
            }
            return
        }
        if echoMode || collecting != .none {
            guard collecting == .hit, current != nil, current?.hasValue == false else { return }
        } else {
            try settleOpenHit()
            current = OpenHit(line: number)
        }
        diagnostic.inside = true
        let stamp = lastTimestamp
        current?.setOutcome(.error, detail: message, line: number, timestamp: stamp)
        current?.detailIsGeneric = ErrorText.isGeneric(message)
    }

    /// lldb's `warning: hit breakpoint while running function, skipping commands…`.
    mutating func expressionSkipWarning(number: Int) throws {
        if coveredSkips > 0 {
            coveredSkips -= 1
            return
        }
        if let open = current, !(open.hasValue || open.fromStop || !echoMode) {
            // It belongs to the echoed hit waiting for its value.
            return try skipped(number: number, detail: Self.expressionSkip)
        }
        // A hit of its own. lldb may print it before the callback's announcement of the same
        // stop (`imgtrace-covered N`): it is held until the next hit settles.
        heldSkips.append(number)
        if heldSkips.count > 64 { try releaseHeldSkips() }
    }

    func isCaretLine(_ line: ByteLine) -> Bool {
        let t = line.trimmed()
        guard t.count > 0, t[0] == 0x5E else { return false }
        for i in 1..<t.count where t[i] != 0x7E { return false }
        return true
    }
}
