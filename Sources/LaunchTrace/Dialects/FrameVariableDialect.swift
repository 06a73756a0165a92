/// lldb's `frame variable name` (`v name`) output: the argument by its own name, no `$N`, for a
/// breakpoint action that reads the parameter rather than a register —
/// `(NSString *) name = 0x0000600000c0c120 @"AppIcon"`, `(const char *) name = 0x… "AppIcon"`,
/// `(NSString *) name = nil`. Added as a dialect of its own: this file and its place in
/// `LineDialects.all` are the whole change.
enum FrameVariableDialect: LineDialect {
    static let firstBytes = bytes("(")

    @inline(__always)
    static func recognise(_ line: ByteLine) -> RecognisedLine? {
        guard let close = line.index(of: 0x29), close + 2 < line.count, line[close + 1] == 0x20 else { return nil }
        let type = line.slice(1, close)
        // Prompts look alike (`(lldb) x = 1` is a command); a `void *` is never a name.
        guard !type.hasPrefix("lldb"), !type.hasPrefix("gdb"), !type.hasPrefix("void"),
            let start = namedValueStart(line, at: close + 2), let value = line.pointerValue(from: start)
        else { return nil }
        return RecognisedLine(.value(value), evidence: .lldb)
    }

    /// Where the value starts when `line` has `name = ` at `at` (a C identifier, then ` = `).
    @inline(__always)
    static func namedValueStart(_ line: ByteLine, at identifier: Int) -> Int? {
        guard identifier < line.count, isIdentifierHead(line[identifier]) else { return nil }
        var end = identifier + 1
        while end < line.count, isIdentifierHead(line[end]) || isDigit(line[end]) { end += 1 }
        return line.hasPrefix(" = ", at: end) ? end + 3 : nil
    }

    @inline(__always)
    static func isIdentifierHead(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }
}
