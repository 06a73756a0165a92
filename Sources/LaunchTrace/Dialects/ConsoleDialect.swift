/// What any console shows whatever the debugger: values printed without a type (a quoted
/// string, `nil`, `<nil>`, a `po` of an empty string, bare numbers and addresses, `x/s` memory
/// lines) and the app's own log lines, whose timestamps date the hits after them (the Xcode
/// console prints nothing else between a breakpoint's values).
enum ConsoleDialect: LineDialect {
    static let firstBytes = bytes("\"0123456789-<n")

    @inline(__always)
    static func recognise(_ line: ByteLine) -> RecognisedLine? {
        switch line[0] {
        case UInt8(ascii: "\""):
            return line.quoted(from: 0).map { RecognisedLine(.value($0)) }
        case UInt8(ascii: "0"):
            let hex = line.hexLiteral(at: 0)
            if hex == line.count { return RecognisedLine(.number) }
            if hex > 0, hex < line.count, line[hex] == 0x3A {
                // x/s: `0x7fff…: "text"` (gdb separates with a TAB).
                var q = hex + 1
                while q < line.count, line[q] == 0x20 || line[q] == 0x09 { q += 1 }
                if q < line.count, line[q] == 0x22, let value = line.quoted(from: q) { return RecognisedLine(.value(value)) }
                return RecognisedLine(.ignored)
            }
            if line.digitRun(from: 0) == line.count { return RecognisedLine(.number) }
            return nil
        case UInt8(ascii: "-"):
            return line.isDecimalLiteral ? RecognisedLine(.number) : nil
        case UInt8(ascii: "<"):
            // gdb's own `<object returns …>` is gdb's (evidence of it).
            if line.hasPrefix("<object return"), !line.hasPrefix("<object returns"), line.hasSuffix("empty description>") {
                return RecognisedLine(.value(.empty))
            }
            if line.count == 5 && line.hasPrefix("<nil>") { return RecognisedLine(.value(.nilValue)) }
            return nil
        case UInt8(ascii: "n"):
            return line.count == 3 && line.hasPrefix("nil") ? RecognisedLine(.value(.nilValue)) : nil
        default:
            // A timestamped line: imgtrace's callback, or the app's log dating the hits after it.
            if let stamp = Timestamp.length(line) {
                if let captured = CaptureDialect.timestamped(line, stamp: stamp) { return captured }
                // The system's warning of a missing image is no dialect's: the parser reads it as a load.
                if SystemWarning.parse(line.dropFirst(stamp)) != nil { return nil }
                return RecognisedLine(.timestamp(line.slice(0, stamp)))
            }
            return line.isDecimalLiteral ? RecognisedLine(.number) : nil
        }
    }
}
