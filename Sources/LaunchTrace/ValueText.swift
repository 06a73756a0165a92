import ImgtraceSupport

/// Decoding of the quoted strings debuggers print (`"quote\"name"`, `"caf\xffffffc3\xffffffa9"`).
enum CString {
    /// Removes C escapes. Handles `\"` `\\` `\n` `\t` `\r` `\a` `\b` `\f` `\v` `\e`, octal `\NNN`,
    /// `\xNN` (lldb 16's `\xffffffNN` sign-extension bug decodes to byte `NN`), `\uXXXX`, `\UXXXXXXXX`.
    static func unescape(_ s: ByteLine) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            let b = s[i]
            guard b == 0x5C, i + 1 < s.count else { out.append(b); i += 1; continue }
            let e = s[i + 1]
            i += 2
            if let control = CEscape.control(e) {
                out.append(control)
                continue
            }
            switch e {
            case UInt8(ascii: "e"): out.append(0x1B)
            case UInt8(ascii: "x"):
                var value: UInt64 = 0
                var digits = 0
                while i < s.count, isHexDigit(s[i]), digits < 16 {
                    value = value << 4 | UInt64(hexValue(s[i]))
                    i += 1
                    digits += 1
                }
                if digits == 0 { out.append(contentsOf: [0x5C, e]) } else { out.append(UInt8(truncatingIfNeeded: value)) }
            case UInt8(ascii: "u"), UInt8(ascii: "U"):
                let want = e == UInt8(ascii: "u") ? 4 : 8
                var value: UInt32 = 0
                var digits = 0
                while digits < want, i < s.count, isHexDigit(s[i]) {
                    value = value << 4 | UInt32(hexValue(s[i]))
                    i += 1
                    digits += 1
                }
                if digits == want, let scalar = Unicode.Scalar(value) {
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                } else {
                    out.append(contentsOf: [0x5C, e])
                }
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var value = UInt32(e - 0x30)
                var digits = 1
                while digits < 3, i < s.count, s[i] >= 0x30, s[i] <= 0x37 {
                    value = value * 8 + UInt32(s[i] - 0x30)
                    i += 1
                    digits += 1
                }
                out.append(UInt8(truncatingIfNeeded: value))
            default:
                // \" \\ \' \? and anything unknown: the character itself.
                out.append(e)
            }
        }
        return out
    }

    @inline(__always) static func hexValue(_ b: UInt8) -> UInt8 {
        isDigit(b) ? b - 0x30 : (b | 0x20) - 0x61 + 10
    }
}

/// What a value line printed.
enum PrintedValue {
    /// A name; `escaped` when C escapes must be removed.
    case text(ByteLine, escaped: Bool)
    case nilValue
    case empty
    case address
}

extension ByteLine {
    /// The quoted string starting at `quote` (an index of `"`), up to the last `"` of the line.
    /// lldb appends `...` after the closing quote when it truncates a long summary.
    func quoted(from quote: Int) -> PrintedValue? {
        var end = count
        if hasSuffix("\"...") { end -= 3 }
        guard end - 1 > quote, base[end - 1] == 0x22 else { return nil }
        let body = slice(quote + 1, end - 1)
        if body.isEmpty { return .empty }
        return .text(body, escaped: body.index(of: 0x5C) != nil)
    }

    /// `0xHEX "text"`, `0xHEX`, `0x0`, `nil`, a decimal, or `@"text"` after a type or `$N =`.
    func pointerValue(from start: Int) -> PrintedValue? {
        let rest = slice(start, count)
        if rest.isEmpty { return nil }
        if rest.hasPrefix("nil") && rest.count == 3 { return .nilValue }
        if rest.hasPrefix("@\"") { return rest.quoted(from: 1) }
        if rest[0] == 0x22 { return rest.quoted(from: 0) }
        let hex = rest.hexLiteral(at: 0)
        if hex > 0 {
            if hex == rest.count { return rest.isZeroHex(0, hex) ? .nilValue : .address }
            // `0x… "text"`, `0x… @"text"`, gdb `0x… <symbol> "text"`.
            if let q = rest.index(of: 0x22, from: hex) { return rest.quoted(from: q) }
            return rest.isZeroHex(0, hex) ? .nilValue : .address
        }
        if rest.isDecimalLiteral { return rest.count == 1 && rest[0] == 0x30 ? .nilValue : .address }
        return nil
    }
}
