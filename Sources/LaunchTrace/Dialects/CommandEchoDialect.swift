/// A print command without its prompt (`p (char *)$arg3`, `po $x2`, `expr -- (char *)$rdx`,
/// `x/s $rsi`): a console copied from a debugger that echoes commands but not the prompt, or a
/// session typed by hand. It is the command, never an image name. Only a command that reads a
/// register or a convenience variable (`$…`) is taken for one: a name has no `$`.
enum CommandEchoDialect: LineDialect {
    static let firstBytes = bytes("pecx")

    /// The print commands of lldb and gdb, each followed by a blank.
    private static let commands: [StaticString] = ["p ", "po ", "print ", "expr ", "expression ", "call ", "x/"]

    @inline(__always)
    static func recognise(_ line: ByteLine) -> RecognisedLine? {
        guard commands.contains(where: { line.hasPrefix($0) }), line.index(of: 0x24) != nil else { return nil }
        return RecognisedLine(.ignored)
    }
}
