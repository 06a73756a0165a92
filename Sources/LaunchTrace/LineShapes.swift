import Foundation

/// Recognisers for the less frequent line shapes; kept out of the hot dispatch.
enum BareText {
    /// Debugger chatter that carries no name, by prefix (gdb and lldb, any era).
    private static let chatter: [StaticString] = [
        "Current executable set to", "Executing commands in", "Script started on", "Script done on",
        "Using host libthread_db", "No symbol", "No source file", "No breakpoint", "Run till exit",
        "Reading symbols", "Downloading", "Starting program:", "Make breakpoint pending",
        "Evaluation of the expression containing", "(_NSPrintForDebugger) will be abandoned",
        "When the function is done executing", "WARNING:", "Message from debugger:",
        "A debugging session is active", "Quit anyway", "Kill the program", "Detaching from",
        "Attaching to", "Breakpoint set in dummy target", "Warning:", "libc++abi", "dyld[",
        "objc[", "Symbol not found", "Type <RET>", "--Type <RET>", "Signal        Stop",
        "Error in re-setting breakpoint", "Inferior ", "Remote debugging", "Exception raised",
    ]

    /// What an unrecognised line of a log without echoes is.
    enum Kind {
        /// Plausibly a bare `po` name.
        case candidate
        /// The debugger's own words, or an indented line: never counted.
        case chatter
        /// A sentence or a log message: the app's output, counted and said.
        case prose
    }

    /// Names have no leading blank, and are not prose (a sentence ends with a full stop,
    /// a log message has `: ` or many words).
    static func kind(_ line: ByteLine) -> Kind {
        if line.startsWithBlank { return .chatter }
        for prefix in chatter where line.hasPrefix(prefix) { return .chatter }
        if line.contains(": Error in sourced command file") { return .chatter }
        return isLikelyName(line) ? .candidate : .prose
    }

    private static func isLikelyName(_ line: ByteLine) -> Bool {
        if line.hasSuffix(":") || line.contains(": ") || line.contains(" = ") { return false }
        var spaces = 0
        for i in 0..<line.count where line[i] == 0x20 { spaces += 1 }
        if spaces >= 3 { return false }
        if spaces > 0 && (line.hasSuffix(".") || line.hasSuffix("!") || line.hasSuffix("?")) { return false }
        return true
    }
}

enum ErrorText {
    /// The useful part of an lldb error line.
    static func message(_ line: String) -> String {
        var text = Substring(line)
        if text.hasPrefix("error:") { text = text.dropFirst(6) }
        text = text.drop(while: { $0 == " " })
        if text.hasPrefix("<user expression"), let close = text.firstIndex(of: ">") {
            // `<user expression 0>:1:1: use of undeclared identifier '$r2'`
            var rest = text[text.index(after: close)...]
            while let first = rest.first, first == ":" || first.isNumber { rest = rest.dropFirst() }
            text = rest.drop(while: { $0 == " " })
        }
        return String(text)
    }

    /// A message that only says an action failed, not why.
    static func isGeneric(_ message: String) -> Bool {
        message.hasPrefix("Aborting reading of commands")
    }

    /// `$r2` from `use of undeclared identifier '$r2'`.
    static func undeclaredRegister(_ detail: String?) -> String? {
        guard let detail, let range = detail.range(of: "undeclared identifier '") else { return nil }
        let rest = detail[range.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        let identifier = String(rest[..<end])
        return identifier.hasPrefix("$") ? identifier : nil
    }
}

enum ThreadText {
    /// `name = 'Samples'`, else `queue = '…'`, else `#N`.
    static func name(_ text: String) -> String? {
        if let value = quotedField("name = '", in: text) { return value }
        if let value = quotedField("queue = '", in: text) { return value }
        guard let hash = text.range(of: "thread #") else { return nil }
        let digits = text[hash.upperBound...].prefix(while: \.isNumber)
        return digits.isEmpty ? nil : "#" + digits
    }

    /// `breakpoint 1.1`, `signal SIGTERM`, `one-shot breakpoint 1`.
    static func stopReason(_ text: String) -> String? {
        guard let range = text.range(of: "stop reason = ") else { return nil }
        return String(text[range.upperBound...]).trimmingCharacters(in: .whitespaces)
    }

    private static func quotedField(_ key: String, in text: String) -> String? {
        guard let range = text.range(of: key) else { return nil }
        let rest = text[range.upperBound...]
        guard let end = rest.firstIndex(of: "'") else { return nil }
        return String(rest[..<end])
    }
}

enum Timestamp {
    /// Length of a leading `YYYY-MM-DD HH:MM:SS[.fff][+ZZZZ]` (or `T` separator), or nil.
    static func length(_ line: ByteLine) -> Int? {
        guard line.count >= 19, line.digitRun(from: 0) == 4, line[4] == 0x2D, line.digitRun(from: 5) == 2, line[7] == 0x2D,
            line.digitRun(from: 8) == 2, line[10] == 0x20 || line[10] == 0x54, line.digitRun(from: 11) == 2,
            line[13] == 0x3A, line.digitRun(from: 14) == 2, line[16] == 0x3A, line.digitRun(from: 17) == 2
        else { return nil }
        var i = 19
        if i < line.count, line[i] == 0x2E { i += 1 + line.digitRun(from: i + 1) }
        if i < line.count, line[i] == 0x2B || line[i] == 0x2D, line.digitRun(from: i + 1) == 4 { i += 5 }
        if i < line.count, line[i] == 0x5A { i += 1 }
        return i
    }
}

/// Output of imgtrace's breakpoint callback (`imgtrace lldb-script`, `imgtrace record`):
/// `[thread] (kind) api: "name"` — one line per request, the name quoted and escaped, `None` for
/// nil, `<unread: why>` when the debugger could not read it — optionally after a timestamp.
/// Older scripts' callbacks (`--timestamps`) printed no kind: `TIME [thread] api: 'name'`.
enum ActionLine {
    struct Hit {
        var thread: String
        var api: String
        /// The request's kind as the callback saw it on the stack; nil for a line of one hit.
        var kind: LoadKind?
        var value: [UInt8]?
        /// Why the name could not be read.
        var unread: String?
        /// How long the request's API ran, when the capture timed it (`record --agent`), and of
        /// that its own time, outside the image APIs it called (when it called any).
        var microseconds: Int?
        var ownMicroseconds: Int?
        /// A `(decode)` line: the toolkit decoding an image a lookup returned, not a request.
        var decode = false
    }

    static func parse(_ whole: ByteLine) -> Hit? {
        var own: Int?
        var rest = whole
        if whole.hasSuffix(" own") {
            // `…, 0.010 ms own` after the duration.
            let (before, microseconds) = splitDuration(whole.slice(0, whole.count - 4), after: 0x2C)
            if let microseconds, before.count < whole.count - 4 {
                own = microseconds
                rest = before.slice(0, before.count - 1)
            }
        }
        let (line, microseconds) = splitDuration(rest)
        guard var hit = parseRequest(line) else { return nil }
        hit.microseconds = microseconds
        hit.ownMicroseconds = microseconds == nil ? nil : own
        return hit
    }

    /// A line without its trailing ` 12.345 ms` (a timed request's duration, after the closing
    /// quote, `None` or `>`), and the duration in microseconds; the line itself when it has none.
    static func splitDuration(_ line: ByteLine, after: UInt8? = nil) -> (ByteLine, Int?) {
        guard line.hasSuffix(" ms"), line.count > 9 else { return (line, nil) }
        let fractionAt = line.count - 6
        guard line[fractionAt - 1] == 0x2E, line.digitRun(from: fractionAt) == 3 else { return (line, nil) }
        var start = fractionAt - 1
        while start > 0, isDigit(line[start - 1]) { start -= 1 }
        let whole = fractionAt - 1 - start
        guard whole > 0, whole <= 9, start >= 2, line[start - 1] == 0x20 else { return (line, nil) }
        let before = line[start - 2]
        if let after {
            guard before == after else { return (line, nil) }
        } else {
            guard before == 0x22 || before == 0x27 || before == 0x65 || before == 0x3E else { return (line, nil) }
        }
        guard let milliseconds = Int(line.slice(start, fractionAt - 1).string), let fraction = Int(line.slice(fractionAt, fractionAt + 3).string) else {
            return (line, nil)
        }
        return (line.slice(0, start - 1), milliseconds * 1000 + fraction)
    }

    private static func parseRequest(_ line: ByteLine) -> Hit? {
        guard var hit = parseValue(line) else { return nil }
        if hit.decode { hit.kind = nil }
        return hit
    }

    private static func parseValue(_ line: ByteLine) -> Hit? {
        guard line.count > 2, line[0] == 0x5B, let close = line.index(of: 0x5D) else { return nil }
        let thread = line.slice(1, close).string
        var i = close + 1
        guard i < line.count, line[i] == 0x20 else { return nil }
        i += 1
        var kind: LoadKind?
        var decode = false
        if i < line.count, line[i] == 0x28 {
            var end = i + 1
            while end < line.count, line[end] != 0x29 { end += 1 }
            guard end + 1 < line.count, line[end + 1] == 0x20 else { return nil }
            let word = line.slice(i + 1, end).string
            if word == "decode" {
                decode = true
            } else {
                guard let known = LoadKind(rawValue: word) else { return nil }
                kind = known
            }
            i = end + 2
        }
        // The API ends at the first `: '`, `: "`, `: None` or `: <unread`.
        var j = i
        while j + 2 < line.count {
            if line[j] == 0x3A, line[j + 1] == 0x20, line[j + 2] == 0x27 || line[j + 2] == 0x22 || line[j + 2] == 0x4E || line[j + 2] == 0x3C { break }
            j += 1
        }
        guard j + 2 < line.count, j > i else { return nil }
        let api = line.slice(i, j).string
        let rest = line.dropFirst(j + 2)
        var hit = Hit(thread: thread, api: api, kind: kind, value: nil)
        hit.decode = decode
        if rest.count == 4 && rest.hasPrefix("None") { return hit }
        if rest.hasPrefix("<unread: "), rest[rest.count - 1] == 0x3E {
            hit.unread = rest.slice(9, rest.count - 1).string
            return hit
        }
        let quote = rest[0]
        guard quote == 0x27 || quote == 0x22, rest.count >= 2, rest[rest.count - 1] == quote else { return nil }
        hit.value = CString.unescape(rest.slice(1, rest.count - 1))
        return hit
    }
}
