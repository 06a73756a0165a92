import ArgumentParser
import ImgtraceSupport

/// `--format` of the commands that list one stage's output: a table for people or JSON for tools.
enum ListingFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    /// Who reads a listing in this format.
    var consumer: OutputConsumer { self == .json ? .json : .terminal }
}
