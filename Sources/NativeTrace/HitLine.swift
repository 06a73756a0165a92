/// The lines `imgtrace record` writes: the shape `LaunchTrace` reads from `imgtrace lldb-script
/// --timestamps` captures (docs/trace-logs.md §2), so a recorded launch is analysed like any other.
public enum HitLine {
    /// `2026-11-22 20:41:07.123 [thread] api: "name"`, or `… api: None` for a nil name.
    public static func format(timestamp: String, thread: String, api: String, name: [UInt8]?) -> String {
        let label = String(thread.map { $0 == "]" || $0 == "\n" || $0 == "\r" ? "_" : $0 })
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
    public static func escape(_ bytes: [UInt8]) -> String {
        let valid = String(validating: bytes, as: UTF8.self) != nil
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 2)
        for b in bytes {
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

    private static func octal(_ b: UInt8) -> [UInt8] {
        [0x5C, 0x30 + (b >> 6), 0x30 + ((b >> 3) & 7), 0x30 + (b & 7)]
    }
}
