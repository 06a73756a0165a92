import ArgumentParser
import ImgtraceSupport
import Reporters

/// `--format` of the commands that list one stage's output: a table for people or JSON for tools.
enum ListingFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    /// Who reads a listing in this format.
    var consumer: OutputConsumer { self == .json ? .json : .terminal }
}

/// `--wide` of the commands that print tables: how wide their text may be.
struct ListingWidth: ParsableArguments {
    @Flag(help: "One line per row, however long: for piping to grep or a file. Without it tables fit COLUMNS (else 120) and wrap long names.")
    var wide = false

    /// The columns a table may take: unbounded with `--wide`.
    var columns: Int { wide ? .max : TextTable.terminalWidth }
}
