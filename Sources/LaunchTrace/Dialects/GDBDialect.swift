/// gdb's lines: the `(gdb) ` prompt's echoes, `$N = value`, breakpoint confirmations and stops,
/// thread switches, frames (`#N …`, `0x… in …`), memory errors, source listings.
enum GDBDialect: LineDialect {
    static let firstBytes = bytes("($0123456789<BTC[#FPA")

    @inline(__always)
    static func recognise(_ line: ByteLine) -> RecognisedLine? {
        switch line[0] {
        case UInt8(ascii: "("):
            guard line.hasPrefix("(gdb) ") else { return nil }
            return RecognisedLine(.echo(command: line.removingPrefix("(gdb)")!, debugger: .gdb), evidence: .gdb)
        case UInt8(ascii: "$"):
            guard let after = line.removingPrefix("$"), after.count > 0, isDigit(after[0]) else { return nil }
            let digits = after.digitRun(from: 0)
            guard after.hasPrefix(" = ", at: digits) else { return nil }
            return RecognisedLine(.gdbValue(after.dropFirst(digits + 3)), evidence: .gdb)
        case UInt8(ascii: "0"):
            let hex = line.hexLiteral(at: 0)
            return hex > 0 && line.hasPrefix(" in ", at: hex) ? RecognisedLine(.frame(line.string)) : nil
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            let digits = line.digitRun(from: 0)
            return digits < line.count && line[digits] == 0x09 ? RecognisedLine(.ignored) : nil  // a source listing
        case UInt8(ascii: "<"):
            return line.hasPrefix("<object returns") && line.hasSuffix("empty description>") ? RecognisedLine(.value(.empty), evidence: .gdb) : nil
        case UInt8(ascii: "B"):
            return breakpoint(line)
        case UInt8(ascii: "T"):
            if line.hasPrefix("Thread "), let after = line.after(" hit Breakpoint ") { return threadHit(line, after) }
            if line.hasPrefix("Temporary breakpoint") { return RecognisedLine(.ignored) }
            if line.hasPrefix("The program stopped in another thread") { return RecognisedLine(.gdbSkip, evidence: .gdb) }
            return nil
        case UInt8(ascii: "C"):
            if let address = line.removingPrefix("Cannot access memory at address ") {
                let zero = address.isHexLiteral && address.isZeroHex(0, address.count)
                return RecognisedLine(zero ? .value(.nilValue) : .failure(line.string), evidence: .gdb)
            }
            return line.hasPrefix("Current language:") || line.hasPrefix("Continuing.") ? RecognisedLine(.ignored) : nil
        case UInt8(ascii: "["):
            return bracket(line)
        case UInt8(ascii: "#"):
            return line.count > 1 && isDigit(line[1]) ? RecognisedLine(.frame(line.string)) : nil
        case UInt8(ascii: "F"):
            // gdb's own crash: its backtrace and bug-report text follow, never hits.
            if line.hasPrefix("Fatal signal: ") { return RecognisedLine(.debuggerCrashed(line.string), evidence: .gdb) }
            guard line.hasPrefix("Function \"") else { return nil }
            // When the symbol is not (yet) in any loaded object.
            guard line.count >= 24, line.hasSuffix("\" not defined.") else { return RecognisedLine(.ignored) }
            return RecognisedLine(.undefinedFunction(line.slice(10, line.count - 14).string), evidence: .gdb)
        case UInt8(ascii: "P"):
            return line.hasPrefix("Program ") || line.hasPrefix("Pending breakpoint") ? RecognisedLine(.ignored) : nil
        case UInt8(ascii: "A"):
            return line.hasPrefix("A fatal error internal to GDB has been detected") ? RecognisedLine(.debuggerCrashed(line.string), evidence: .gdb) : nil
        default:
            return nil
        }
    }

    /// `Breakpoint 1, +[UIImage imageNamed:] (self=…) at …` (a stop), `Breakpoint 1 at 0x…: file …`
    /// and `Breakpoint 1 (+[NSImage imageNamed:]) pending.` (set).
    private static func breakpoint(_ line: ByteLine) -> RecognisedLine? {
        guard let rest = line.removingPrefix("Breakpoint "), rest.count > 0, isDigit(rest[0]) else { return nil }
        let digits = rest.digitRun(from: 0)
        let id = rest.slice(0, digits).string
        let after = rest.dropFirst(digits)
        if let stop = after.removingPrefix(", ") {
            return RecognisedLine(.gdbStop(id: id, thread: nil, named: false, symbolText: stop.string), evidence: .gdb)
        }
        // Any other `Breakpoint N…` (lldb's `Breakpoint N: …` is asked first) means nothing.
        guard after.hasPrefix(" at ") || after.hasPrefix(" (") else { return RecognisedLine(.ignored) }
        var pendingSymbol: String?
        if let open = after.removingPrefix(" (") {
            let text = open.string
            if let close = text.range(of: ") pending", options: .backwards) { pendingSymbol = String(text[..<close.lowerBound]) }
        }
        return RecognisedLine(.gdbBreakpoint(id: id, pendingSymbol: pendingSymbol), evidence: .gdb)
    }

    /// `Thread 2 "worker" hit Breakpoint 1, +[UIImage imageNamed:] (…)`.
    private static func threadHit(_ line: ByteLine, _ after: ByteLine) -> RecognisedLine {
        let text = line.string
        var thread: String?
        if let open = text.firstIndex(of: "\""), let close = text[text.index(after: open)...].firstIndex(of: "\"") {
            thread = String(text[text.index(after: open)..<close])
        }
        let digits = after.digitRun(from: 0)
        let id = after.slice(0, digits).string
        let symbol = after.hasPrefix(", ", at: digits) ? after.dropFirst(digits + 2).string : nil
        return RecognisedLine(.gdbStop(id: id, thread: thread, named: true, symbolText: symbol), evidence: .gdb)
    }

    /// `[Switching to Thread 0x7ffff44166c0 (LWP 21504)]`: later hits run on that thread.
    private static func bracket(_ line: ByteLine) -> RecognisedLine {
        let evidence: DebuggerKind? =
            line.hasPrefix("[Switching to Thread ") || line.hasPrefix("[New Thread ") || line.hasPrefix("[Inferior ") ? .gdb : nil
        if line.hasPrefix("[Switching to "), let lwp = line.range(of: "(LWP ") {
            let tail = line.dropFirst(lwp + 1)
            if let close = tail.index(of: 0x29) { return RecognisedLine(.gdbThread(tail.slice(0, close).string), evidence: evidence) }
        }
        return RecognisedLine(.ignored, evidence: evidence)
    }
}
