/// lldb's lines: the `(lldb)` prompt's echoes (actions with two spaces), typed values
/// (`(char *) $1 = 0x… "x"`, lldb 17's `(char *) 0x… "x"`), `error:` and `warning:` diagnostics,
/// `Process N stopped` reports with their thread and frame lines, breakpoint confirmations.
enum LLDBDialect: LineDialect {
    static let firstBytes = bytes("(ewPBWTC-n*123456789") + [0x20, 0x09]

    @inline(__always)
    static func recognise(_ line: ByteLine) -> RecognisedLine? {
        switch line[0] {
        case UInt8(ascii: "("):
            if let command = line.removingPrefix("(lldb)") { return RecognisedLine(.echo(command: command, debugger: .lldb), evidence: .lldb) }
            return typedValue(line)
        case UInt8(ascii: "e"):
            return line.hasPrefix("error:") ? RecognisedLine(.error(line), evidence: .lldb) : nil
        case UInt8(ascii: "w"):
            guard line.hasPrefix("warning: ") else { return nil }
            // Other warnings (`po` fell back to `p`, receiver type) are followed by the value itself.
            return line.hasPrefix("warning: hit breakpoint while running function")
                ? RecognisedLine(.expressionSkip, evidence: .lldb) : RecognisedLine(.ignored)
        case UInt8(ascii: "P"):
            if let rest = line.removingPrefix("Process "), rest.count > 0, isDigit(rest[0]) { return RecognisedLine(.process(processEvent(line)), evidence: .lldb) }
            // LLVM's crash handler: lldb's stack dump follows, never hits.
            if line.hasPrefix("PLEASE submit a bug report to ") { return RecognisedLine(.debuggerCrashed(line.string), evidence: .lldb) }
            return line.hasPrefix("Printing description of ") ? RecognisedLine(.ignored) : nil
        case UInt8(ascii: "B"):
            return breakpoint(line)
        case UInt8(ascii: "W"):
            return line.hasPrefix("WARNING:  Unable to resolve breakpoint") ? RecognisedLine(.unresolved) : nil
        case UInt8(ascii: "T"):
            return line.hasPrefix("Target ") ? RecognisedLine(.ignored) : nil
        case UInt8(ascii: "C"):
            return line.hasPrefix("Command #") || line.hasPrefix("Current executable set to") ? RecognisedLine(.ignored) : nil
        case UInt8(ascii: "-"):
            return line.hasPrefix("->") ? RecognisedLine(.ignored) : nil  // the disassembly's current line
        case UInt8(ascii: "n"):
            return line.hasPrefix("note: ") ? RecognisedLine(.ignored) : nil
        case UInt8(ascii: "*"), 0x20, 0x09:
            return indented(line)
        default:
            // `1 location added to breakpoint 1` resolves a pending breakpoint (app log lines, which
            // start with a timestamp, are the console's and asked first; a gdb source listing,
            // digits and a TAB, is gdb's).
            let digits = line.digitRun(from: 0)
            guard digits == line.count || line[digits] != 0x09, let added = line.after(" added to breakpoint ") else { return nil }
            return RecognisedLine(.resolved(id: added.slice(0, added.digitRun(from: 0)).string))
        }
    }

    /// `(char *) $0 = 0x… "AppIcon"`, `(char *) 0x… "AppIcon"`, `(NSString *) $1 = 0x… @"x"`,
    /// `(unsigned long) 0x…`, `(NSString *) $79 = nil`. A named persistent variable (`$imp = `) is
    /// the user's own, never a hit's value.
    private static func typedValue(_ line: ByteLine) -> RecognisedLine? {
        guard let close = line.index(of: 0x29), close + 2 < line.count, line[close + 1] == 0x20, !line.hasPrefix("(gdb)") else { return nil }
        var start = close + 2
        // `(type) name = …` is a variable by its own name: `frame variable`'s (FrameVariableDialect).
        if FrameVariableDialect.isIdentifierHead(line[start]), FrameVariableDialect.namedValueStart(line, at: start) != nil { return nil }
        let old = line[start] == 0x24
        if old {
            let digits = line.digitRun(from: start + 1)
            guard digits > 0, line.hasPrefix(" = ", at: start + 1 + digits) else { return nil }
            start += 1 + digits + 3
        }
        // A `void *` is a pointer the user printed, never an image name.
        if line.slice(1, close).hasPrefix("void") { return RecognisedLine(.typedValue(nil, old: old)) }
        return RecognisedLine(.typedValue(line.pointerValue(from: start), old: old))
    }

    /// `Process 4242 stopped`, `… resuming`, `… exited with status = 0 (0x00000000)`.
    private static func processEvent(_ line: ByteLine) -> ProcessEvent {
        if line.contains(" stopped and restarted") { return .other }
        if line.hasSuffix(" stopped") { return .stopped }
        if line.contains(" exited with status") { return .exited }
        if line.hasSuffix(" resuming") { return .resumed }
        return .other
    }

    /// `Breakpoint 1: where = libFakeUIKit.so\`+[UIImage imageNamed:] + 21 at …, address = …`,
    /// `Breakpoint 2: no locations (pending).`; gdb's shapes are gdb's, any other is nothing.
    private static func breakpoint(_ line: ByteLine) -> RecognisedLine? {
        guard let rest = line.removingPrefix("Breakpoint "), rest.count > 0, isDigit(rest[0]) else { return nil }
        let digits = rest.digitRun(from: 0)
        guard rest.hasPrefix(": ", at: digits) else { return nil }
        let text = line.string
        var whereSymbol: String?
        if let range = text.range(of: "where = ") {
            var whereText = text[range.upperBound...]
            if let address = whereText.range(of: ", address = ", options: .backwards) { whereText = whereText[..<address.lowerBound] }
            whereSymbol = DebuggerCommand.symbol(fromWhere: String(whereText))
        }
        return RecognisedLine(
            .lldbBreakpoint(id: rest.slice(0, digits).string, whereSymbol: whereSymbol, pending: line.contains("no locations (pending)")),
            evidence: .lldb)
    }

    /// Thread and frame lines of stop reports and `bt`, disassembly, diagnostics' source lines:
    /// every indented line is lldb's, and only thread and frame lines mean something.
    private static func indented(_ line: ByteLine) -> RecognisedLine {
        let t = line.trimmed()
        var body = t
        if body.count > 0, body[0] == 0x2A { body = body.dropFirst(1).trimmed() }
        if body.hasPrefix("thread #") { return RecognisedLine(.threadLine(selected: t[0] == 0x2A, body: body)) }
        if body.hasPrefix("frame #"), let colon = body.index(of: 0x3A) { return RecognisedLine(.frame(body.dropFirst(colon + 1).trimmed().string)) }
        return RecognisedLine(.ignored)
    }
}
