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
        guard !type.hasPrefix("lldb"), !type.hasPrefix("gdb"), !type.hasPrefix("void"), let start = namedValueStart(line, at: close + 2)
        else { return nil }
        // A bare `frame variable` prints the method's hidden arguments too: a selector or a class
        // is never the name, whatever it holds (`(SEL) _cmd = "\U0000007f"` on a hit whose name
        // lldb could not read).
        if Self.isHiddenArgument(type: type, identifier: line.slice(close + 2, start - 3)) { return RecognisedLine(.ignored, evidence: .lldb) }
        // `(NSString *) name = <variable not available>`: the hit's name is lost, and says so.
        if line[start] == 0x3C, line[line.count - 1] == 0x3E { return RecognisedLine(.failure(line.slice(start + 1, line.count - 1).string), evidence: .lldb) }
        guard let value = line.pointerValue(from: start) else { return nil }
        return RecognisedLine(.value(value), evidence: .lldb)
    }

    /// `self` and `_cmd` of an Objective-C method, or any value typed `SEL` or `Class`.
    @inline(__always)
    static func isHiddenArgument(type: ByteLine, identifier: ByteLine) -> Bool {
        if type.count == 3, type.hasPrefix("SEL") { return true }
        if type.count == 5, type.hasPrefix("Class") { return true }
        return (identifier.count == 4 && identifier.hasPrefix("_cmd")) || (identifier.count == 4 && identifier.hasPrefix("self"))
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
