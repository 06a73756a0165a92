import ImgtraceSupport

/// The lines `imgtrace record` writes: the shape `LaunchTrace` reads from `imgtrace lldb-script
/// --timestamps` captures (docs/trace-logs.md §2), so a recorded launch is analysed like any other.
public enum HitLine {
    /// `2026-11-22 20:41:07.123 [thread] api: "name"`, or `… api: None` for a nil name.
    public static func format(timestamp: String, thread: String, api: String, name: [UInt8]?) -> String {
        // A thread name is the program's to choose: by Unicode scalar (CR LF is one Character),
        // `]` would end the label and a line break would start a forged hit.
        var label = ""
        for scalar in thread.unicodeScalars {
            if scalar == "]" { label += "_" } else if SafeText.needsEscape(scalar) { label += SafeText.escaped(scalar.value) } else { label.unicodeScalars.append(scalar) }
        }
        guard let name else { return "\(timestamp) [\(label)] \(api): None" }
        return "\(timestamp) [\(label)] \(api): \"\(escape(name))\""
    }

    /// A frame line of `--backtrace`, as lldb prints them.
    public static func frame(index: Int, address: UInt64, module: String, function: String?) -> String {
        let hex = String(address, radix: 16)
        return "    frame #\(index): 0x\(String(repeating: "0", count: max(0, 16 - hex.count)))\(hex) \(module)`\(function ?? "?")"
    }

    /// C escapes that survive any byte: quote, backslash and control characters escaped, bytes
    /// that are not valid UTF-8 as three-digit octal (never `\x`, which would swallow digits after it).
    /// C1 controls, separators and bidi characters become `\uXXXX` and the second `#` of `##`
    /// octal, so the output guard never has to rewrite a recorded name (the reader decodes both).
    public static func escape(_ bytes: [UInt8]) -> String {
        let valid = String(validating: bytes, as: UTF8.self) != nil
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2)
        var index = 0
        for b in bytes {
            defer { index += 1 }
            if valid, b >= 0xC2, let scalar = Self.dangerousScalar(bytes, at: index) {
                let hex = String(scalar, radix: 16)
                out += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                continue
            }
            if valid, b >= 0x80, Self.insideDangerousScalar(bytes, at: index) { continue }
            if b == 0x23, index > 0, bytes[index - 1] == 0x23 {
                out += octal(b)
                continue
            }
            switch b {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0..<0x20, 0x7F: out += octal(b)
            case 0x80...0xFF where !valid: out += octal(b)
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The scalar starting at `index` when it is one `SafeText` escapes (C1, separators, bidi).
    private static func dangerousScalar(_ bytes: [UInt8], at index: Int) -> UInt32? {
        let b = bytes[index]
        let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count,
            let text = String(validating: bytes[index..<(index + length)], as: UTF8.self), let scalar = text.unicodeScalars.first,
            text.unicodeScalars.count == 1, SafeText.needsEscape(scalar)
        else { return nil }
        return scalar.value
    }

    /// Whether the continuation byte at `index` belongs to a scalar `dangerousScalar` replaced.
    private static func insideDangerousScalar(_ bytes: [UInt8], at index: Int) -> Bool {
        guard bytes[index] & 0xC0 == 0x80 else { return false }
        var start = index
        while start > 0, bytes[start] & 0xC0 == 0x80, index - start < 3 { start -= 1 }
        guard bytes[start] >= 0xC2, let scalar = dangerousScalar(bytes, at: start) else { return false }
        let length = scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
        return index < start + length
    }

    private static func octal(_ b: UInt8) -> [UInt8] {
        [0x5C, 0x30 + (b >> 6), 0x30 + ((b >> 3) & 7), 0x30 + (b & 7)]
    }
}
