import ArgumentParser
import ImgtraceSupport
import LaunchAudit
import Reporters

/// `imgtrace rules [ID]`: every rule's id, default severity and summary; one rule in full.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules, their default severity and thresholds; `imgtrace rules ID` shows one in full."
    )

    @Argument(help: ArgumentHelp("A rule id: show its parameters and examples.", valueName: "id"), completion: .list(RulesCommand.ids))
    var id: String?

    @Flag(help: "Also show each rule's parameters and examples.")
    var verbose = false

    @Option(help: "text (a table) or json.")
    var format: ListingFormat = .text

    func validate() throws {
        if let id, Rules.named(id) == nil {
            throw ValidationError("unknown rule `\(SafeText.visible(id))`; the rules are: \(Self.ids.joined(separator: ", "))")
        }
    }

    func run() throws {
        var chosen: [any AuditRule.Type] = Rules.all
        if let id, let rule = Rules.named(id) { chosen = [rule] }
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .json: sink.write(Self.json(chosen))
        case .text where verbose || id != nil:
            var text: [String] = []
            for rule in chosen { text.append(Self.detail(rule)) }
            sink.write(text.joined(separator: "\n"))
        case .text:
            var rows: [[String]] = []
            for rule in chosen { rows.append([rule.id, rule.defaultSeverity.rawValue, rule.summary]) }
            sink.write(TextTable.render(header: ["ID", "SEVERITY", "WHAT IT FLAGS"], rows: rows))
        }
        try ReportFile.finishStandardOutput(sink)
    }

    static var ids: [String] {
        var out: [String] = []
        for rule in Rules.all { out.append(rule.id) }
        return out
    }

    static func detail(_ rule: any AuditRule.Type) -> String {
        var out = "\(rule.id) (\(rule.defaultSeverity.rawValue))\n  \(rule.summary)\n  parameters: \(rule.parameters)\n"
        for example in rule.examples {
            out += "  \(example.fires ? "fires:       " : "does not fire:") \(example.summary)\n"
        }
        return out
    }

    /// `[{"id":…,"severity":…,"summary":…,"parameters":…,"examples":[{"summary":…,"fires":…}]}]`.
    static func json(_ rules: [any AuditRule.Type]) -> [UInt8] {
        var w = JSONText()
        w.beginArray()
        for rule in rules {
            w.beginObject()
            w.field("id", rule.id)
            w.field("severity", rule.defaultSeverity.rawValue)
            w.field("summary", rule.summary)
            w.field("parameters", rule.parameters)
            w.objects("examples", rule.examples) { w, example in
                w.field("summary", example.summary)
                w.field("fires", example.fires)
            }
            w.endObject()
        }
        w.endArray()
        return w.bytes + [0x0A]
    }
}
