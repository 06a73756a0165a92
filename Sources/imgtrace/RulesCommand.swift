import ArgumentParser
import LaunchAudit
import Reporters

/// `imgtrace rules`: every rule's id, default severity, summary and parameters.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules, their default severity and thresholds."
    )

    @Flag(help: "Also show each rule's parameters and examples.")
    var verbose = false

    func run() throws {
        var out = ""
        if verbose {
            for rule in Rules.all {
                out += "\(rule.id) (\(rule.defaultSeverity.rawValue))\n  \(rule.summary)\n  parameters: \(rule.parameters)\n"
                for example in rule.examples {
                    out += "  \(example.fires ? "fires:       " : "does not fire:") \(example.summary)\n"
                }
                out += "\n"
            }
        } else {
            let rows = Rules.all.map { [$0.id, $0.defaultSeverity.rawValue, $0.summary] }
            out = TextTable.render(header: ["ID", "SEVERITY", "WHAT IT FLAGS"], rows: rows)
        }
        let sink = ByteSink()
        sink.write(out)
        try ReportFile.finishStandardOutput(sink)
    }
}
