import ArgumentParser
import LaunchTrace

extension LaunchEndPattern {
    /// `--launch-end` of `analyze`, `baseline write` and `trace`.
    static let help = ArgumentHelp("A regular expression; the first matching line ends the launch window.")

    /// The option's value, compiled once here; an invalid one is a usage error (argument-parser
    /// names the option and the value).
    static func parse(_ text: String) throws -> LaunchEndPattern {
        do { return try LaunchEndPattern(text) } catch { throw ValidationError(error.description) }
    }
}
