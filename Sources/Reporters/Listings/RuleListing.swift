import AuditPolicy
import AuditRules
import ImgtraceSupport

/// `imgtrace rules`: every rule's id, severity and summary; in full, its parameters, the
/// settings it declares (with their defaults) and its examples.
public enum RuleListing {
    /// `ID  SEVERITY  WHAT IT FLAGS`, one row a rule.
    public static func table(_ rules: [any DescribedRule.Type], width: Int = 120) -> String {
        // The prose column wraps within itself: a row per rule, not a block per rule.
        TextTable.render(
            header: ["ID", "SEVERITY", "WHAT IT FLAGS"], rows: rules.map { [$0.id, $0.defaultSeverity.rawValue, $0.summary] }, maxWidths: [2: 72],
            width: width)
    }

    /// One rule in full.
    public static func detail(_ rule: any DescribedRule.Type) -> String {
        var out = "\(rule.id) (\(rule.defaultSeverity.rawValue))\n  \(rule.summary)\n  parameters: \(rule.parameters)\n"
        for setting in rule.settings {
            out += "  setting:     \(setting.path) (\(setting.kind.words); default \(setting.defaultText)): \(setting.help)\n"
        }
        for example in rule.examples {
            out += "  \(example.fires ? "fires:        " : "does not fire:") \(example.summary)\n"
            for line in example.lines { out += TextTable.wrapped(line, width: 120, first: "      ", rest: "              ") + "\n" }
        }
        return out
    }

    /// `[{"id":…,"severity":…,"summary":…,"parameters":…,"settings":[…],"examples":[{"summary":…,"fires":…}]}]`.
    public static func json(_ rules: [any DescribedRule.Type]) -> [UInt8] {
        var w = JSONText()
        w.beginArray()
        for rule in rules {
            w.beginObject()
            w.field("id", rule.id)
            w.field("severity", rule.defaultSeverity.rawValue)
            w.field("summary", rule.summary)
            w.field("parameters", rule.parameters)
            w.objects("settings", rule.settings) { w, setting in
                w.field("key", setting.path)
                w.field("kind", setting.kind == .count ? "count" : "fraction")
                w.field("default", setting.defaultText)
                w.field("help", setting.help)
            }
            w.objects("examples", rule.examples) { w, example in
                w.field("summary", example.summary)
                w.field("fires", example.fires)
                w.field("lines", strings: example.lines)
            }
            w.endObject()
        }
        w.endArray()
        return w.bytes + [0x0A]
    }

    /// The settings as the README's table shows them: `| key | values | default | what it does |`.
    public static func settingsMarkdown() -> String {
        var out = "| setting | values | default | what it does |\n|---|---|---|---|\n"
        for setting in Rules.settings {
            out += "| `\(setting.path)` | \(setting.kind.words) | \(setting.defaultText) | \(setting.help) |\n"
        }
        return out
    }
}

/// `imgtrace devices`: the built-in device profiles.
public enum DeviceListing {
    /// `ID  POINTS  SCALE  PIXELS  IDIOM  MODELS`, the default marked.
    public static func table(width: Int = 120) -> String {
        let rows = DeviceProfile.builtIn.map { d -> [String] in
            let mark = d == DeviceProfile.default ? " (default)" : ""
            return [
                d.id + mark, "\(d.pointWidth)×\(d.pointHeight)", "@\(d.scale)x", "\(d.pixelWidth)×\(d.pixelHeight)", d.idiom.name,
                d.models.joined(separator: ", "),
            ]
        }
        // Models are a list: a capped (prose) column wraps between them, never inside one, keeping the table a table.
        // (+1: the comma after an item)
        let widestModel = DeviceProfile.builtIn.flatMap(\.models).map { TextTable.displayWidth($0) }.max() ?? 0
        return TextTable.render(
            header: ["ID", "POINTS", "SCALE", "PIXELS", "IDIOM", "MODELS"], rows: rows, maxWidths: [5: 60], minimumWidths: [5: widestModel + 1], width: width)
    }

    /// The objects `analyze --format json` writes for its device, with the pixels and the default mark.
    public static func json() -> [UInt8] {
        var w = JSONText()
        w.beginArray()
        for d in DeviceProfile.builtIn {
            JSONReporter.writeDevice(d, &w) { w in
                w.field("pixelWidth", d.pixelWidth)
                w.field("pixelHeight", d.pixelHeight)
                w.field("default", d == DeviceProfile.default)
            }
        }
        w.endArray()
        return w.bytes + [0x0A]
    }
}
