import ImgtraceSupport

/// The lines `imgtrace record` writes: the shape `LaunchTrace` reads from `imgtrace lldb-script
/// --timestamps` captures (docs/trace-logs.md §2), so a recorded launch is analysed like any other.
public enum HitLine {
    /// `2026-11-22 20:41:07.123 [thread] api: "name"`, or `… api: None` for a nil name.
    /// `kind` (the agent knows it) goes before the API: `… [thread] (nib) api: "name"`.
    public static func format(timestamp: String, thread: String, api: String, name: [UInt8]?, kind: String? = nil) -> String {
        // A thread name is the program's to choose: by Unicode scalar (CR LF is one Character),
        // `]` would end the label and a line break would start a forged hit.
        var label = ""
        for scalar in thread.unicodeScalars {
            if scalar == "]" { label += "_" } else if SafeText.needsEscape(scalar) { label += SafeText.escaped(scalar.value) } else { label.unicodeScalars.append(scalar) }
        }
        let kindText = kind.map { "(\($0)) " } ?? ""
        guard let name else { return "\(timestamp) [\(label)] \(kindText)\(api): None" }
        return "\(timestamp) [\(label)] \(kindText)\(api): \"\(escape(name))\""
    }

    /// A hit whose name could not be read (`… api: <unread: no readable string at 0x…>`): the
    /// reader counts it as a hit that failed, with the address in its detail.
    public static func format(timestamp: String, thread: String, api: String, unreadableAt address: UInt64, kind: String? = nil) -> String {
        let line = format(timestamp: timestamp, thread: thread, api: api, name: nil, kind: kind)
        return String(line.dropLast("None".count)) + "<unread: no readable string at \(hex(address))>"
    }

    private static func hex(_ value: UInt64) -> String {
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
        out.reserveCapacity(bytes.count + 2)
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
            return String(decoding: out, as: UTF8.self)
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
        return String(decoding: out, as: UTF8.self)
    }

    private static func octal(_ b: UInt8) -> [UInt8] {
        [0x5C, 0x30 + (b >> 6), 0x30 + ((b >> 3) & 7), 0x30 + (b & 7)]
    }
}
