import ImgtraceSupport

/// The lines `imgtrace record` writes: the shape `LaunchTrace` reads from `imgtrace lldb-script
/// --timestamps` captures (docs/trace-logs.md §2), so a recorded launch is analysed like any other.
public enum HitLine {
    /// `2026-11-22 20:41:07.123 [thread] api: "name"`, or `… api: None` for a nil name.
    /// `kind` (the agent knows it) goes before the API: `… [thread] (nib) api: "name"`.
    public static func format(timestamp: String, thread: String, api: String, name: [UInt8]?, kind: String? = nil) -> String {
        var line = head(timestamp: timestamp, thread: thread, api: api, kind: kind)
        if let name { name.withUnsafeBytes { appendQuoted($0, to: &line) } } else { line += noName }
        return String(decoding: line, as: UTF8.self)
    }

    /// `(kind) `, as it stands before the API on a line.
    static func kindPrefix(_ kind: String) -> String { "(" + kind + ") " }

    /// What stands for a name the API was given as nil.
    static let noName = Array("None".utf8)

    /// A line's bytes up to its value, from the parts as text.
    private static func head(timestamp: String, thread: String, api: String, kind: String?) -> [UInt8] {
        var line = Array(timestamp.utf8)
        appendHead(to: &line, thread: label(thread).utf8, kind: kind.map { Array(kindPrefix($0).utf8) } ?? [], api: api.utf8)
        return line
    }

    /// What follows a line's time up to its value: ` [thread] (kind) api: `. A recording writes one
    /// line per request, so the parts come as bytes the caller keeps (the thread already a label,
    /// the kind with its parentheses) and nothing is built as a String.
    static func appendHead(to line: inout [UInt8], thread: some Collection<UInt8>, kind: some Collection<UInt8>, api: some Collection<UInt8>) {
        // Single bytes one by one: an array literal here is an allocation per line.
        line.append(UInt8(ascii: " "))
        line.append(UInt8(ascii: "["))
        line += thread
        line.append(UInt8(ascii: "]"))
        line.append(UInt8(ascii: " "))
        line += kind
        line += api
        line.append(UInt8(ascii: ":"))
        line.append(UInt8(ascii: " "))
    }

    /// A name as a line carries it: quoted, escaped (`escape`).
    static func appendQuoted(_ name: UnsafeRawBufferPointer, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "\""))
        appendEscaped(name, to: &line)
        line.append(UInt8(ascii: "\""))
    }

    /// `<unread: no readable string at 0x…>`: the value of a hit whose name could not be read.
    static func appendUnreadable(at address: UInt64, to line: inout [UInt8]) {
        line += "<unread: no readable string at \(hex(address))>".utf8
    }

    /// Appends to a request's line how long its API ran, in milliseconds to the microsecond, and, when
    /// it called other image APIs (`nested` of its time), its own time apart:
    /// `… api: "name" 0.214 ms, 0.010 ms own` (docs/trace-logs.md §2; captures that cannot time a call write none).
    /// The line grows where it is (a recording writes one per request).
    static func appendDuration(to line: inout String, nanoseconds: UInt64, nested: UInt64 = 0) {
        var bytes: [UInt8] = []
        appendDuration(to: &bytes, nanoseconds: nanoseconds, nested: nested)
        line.append(String(decoding: bytes, as: UTF8.self))
    }

    /// The same, into a line built as bytes (the agent's recorder).
    static func appendDuration(to line: inout [UInt8], nanoseconds: UInt64, nested: UInt64 = 0) {
        line.append(UInt8(ascii: " "))
        appendMilliseconds(to: &line, nanoseconds)
        if nested > 0 {
            line.append(UInt8(ascii: ","))
            line.append(UInt8(ascii: " "))
            appendMilliseconds(to: &line, nanoseconds - min(nested, nanoseconds))
            line += " own".utf8
        }
    }

    /// `0.214 ms`, rounded to the microsecond without overflow (a file from elsewhere may hold any
    /// 64 bits; the recorder believes no duration over a day), written into the line as digits.
    private static func appendMilliseconds(to line: inout [UInt8], _ nanoseconds: UInt64) {
        let microseconds = nanoseconds / 1000 + (nanoseconds % 1000 >= 500 ? 1 : 0)
        appendDecimal(microseconds / 1000, to: &line)
        line.append(UInt8(ascii: "."))
        appendThreeDigits(Int(microseconds % 1000), to: &line)
        line.append(UInt8(ascii: " "))
        line.append(UInt8(ascii: "m"))
        line.append(UInt8(ascii: "s"))
    }

    /// `value` (below 1000) as three digits, leading zeros kept.
    static func appendThreeDigits(_ value: Int, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "0") + UInt8(value / 100))
        line.append(UInt8(ascii: "0") + UInt8(value / 10 % 10))
        line.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// `value` in decimal digits, without a String between.
    static func appendDecimal(_ value: UInt64, to line: inout [UInt8]) {
        let start = line.count
        var rest = value
        repeat {
            line.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        line[start...].reverse()
    }

    /// A thread name is the program's to choose: by Unicode scalar (CR LF is one Character),
    /// `]` would end the label and a line break would start a forged hit.
    static func label(_ thread: String) -> String {
        if thread.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "]") }) { return thread }
        var label = ""
        for scalar in thread.unicodeScalars {
            if scalar == "]" { label += "_" } else if SafeText.needsEscape(scalar) { label += SafeText.escaped(scalar.value) } else { label.unicodeScalars.append(scalar) }
        }
        return label
    }

    /// A hit whose name could not be read (`… api: <unread: no readable string at 0x…>`): the
    /// reader counts it as a hit that failed, with the address in its detail.
    public static func format(timestamp: String, thread: String, api: String, unreadableAt address: UInt64, kind: String? = nil) -> String {
        var line = head(timestamp: timestamp, thread: thread, api: api, kind: kind)
        appendUnreadable(at: address, to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// A frame line of `--backtrace`, as lldb prints them; `tail` is `frameTail`'s.
    static func frame(index: Int, tail: String) -> String { "    frame #\(index): " + tail }

    /// What follows a frame line's number: the same for every hit that passes the same address.
    static func frameTail(address: UInt64, module: String, function: String?) -> String {
        return "\(hex(address)) \(module)`\(function ?? "?")"
    }

    /// C escapes that survive any byte: quote, backslash and control characters escaped, bytes
    /// that are not valid UTF-8 as three-digit octal (never `\x`, which would swallow digits after it).
    /// C1 controls, separators and bidi characters become `\uXXXX` and the second `#` of `##`
    /// octal, so the output guard never has to rewrite a recorded name (the reader decodes both).
    public static func escape(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        bytes.withUnsafeBytes { appendEscaped($0, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// `escape`, written onto the end of `out`.
    static func appendEscaped(_ bytes: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        // Most names are printable ASCII with nothing to escape: one look at each byte.
        var previousByte: UInt8 = 0
        if bytes.allSatisfy({ byte in
            defer { previousByte = byte }
            return byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C && !(byte == 0x23 && previousByte == 0x23)
        }) {
            out.append(contentsOf: bytes)
            return
        }
        var previous: UInt32 = 0
        func plain(_ b: UInt8, valid: Bool) {
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x23 where previous == 0x23: out += octal(b)
            case 0..<0x20, 0x7F: out += octal(b)
            case 0x80...0xFF where !valid: out += octal(b)
            default: out.append(b)
            }
            previous = UInt32(b)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            for b in bytes { plain(b, valid: false) }
            return
        }
        // Valid UTF-8 goes by scalar: one look at each, no string built per byte.
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 {
                plain(UInt8(scalar.value), valid: true)
                continue
            }
            if SafeText.needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                out += Array(("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).utf8)
            } else {
                out += Array(String(scalar).utf8)
            }
            previous = scalar.value
        }
    }

    private static func octal(_ b: UInt8) -> [UInt8] {
        [0x5C, 0x30 + (b >> 6), 0x30 + ((b >> 3) & 7), 0x30 + (b & 7)]
    }
}
