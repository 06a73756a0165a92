/// A command's `--help` discussion: one paragraph that argument-parser wraps to the terminal
/// itself (never pre-wrapped here), then examples, one a line.
enum CommandHelp {
    static func discussion(_ paragraph: String, examples: [String]) -> String {
        paragraph + "\n\nExamples:\n" + examples.map { "  " + $0 }.joined(separator: "\n")
    }
}
