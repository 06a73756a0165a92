import ArgumentParser
import AuditRules
import ImgtraceSupport
import Reporters

/// `imgtrace rules [ID]`: every rule's id, default severity and summary; one rule in full.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules, their default severity and thresholds; `imgtrace rules ID` shows one in full.",
        discussion: CommandHelp.discussion(
            "Each rule's id is what reports, baselines and the config's ignore and severity sections name. `imgtrace rules ID` (or --verbose for all) adds its parameters, the settings it reads with their defaults, and its examples: the small apps and launches the test suite runs.",
            examples: [
                "imgtrace rules",
                "imgtrace rules missing-image",
            ])
    )

    @Argument(help: ArgumentHelp("A rule id: show its parameters and examples.", valueName: "id"), completion: .list(RulesCommand.ids))
    var id: String?

    @Flag(help: "Also show each rule's parameters and examples.")
    var verbose = false

    @Option(help: "Output format; text is a table.")
    var format: ListingFormat = .text

    @OptionGroup var width: ListingWidth

    func validate() throws {
        if let id, Rules.described(id) == nil {
            throw ValidationError("unknown rule `\(SafeText.visible(id))`; the rules are: \(Self.ids.joined(separator: ", "))")
        }
    }

    func run() throws {
        var chosen = Rules.described
        if let id, let rule = Rules.described(id) { chosen = [rule] }
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .json: sink.write(RuleListing.json(chosen))
        case .text where verbose || id != nil: sink.write(chosen.map(RuleListing.detail).joined(separator: "\n"))
        case .text: sink.write(RuleListing.table(chosen, width: width.columns))
        }
        try ReportFile.finishStandardOutput(sink)
    }

    static var ids: [String] { Rules.described.map { $0.id } }
}
