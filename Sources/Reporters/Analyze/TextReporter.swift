import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format text`: a launch audit read top to bottom — the verdict and key
/// figures, then findings by severity with their fixes, then every image loaded at launch by cost.
public struct TextReporter: AuditReporter {
    public let id = "text"
    public let fileExtension = "txt"
    public let summary = "A launch audit to read in a terminal or a build log: verdict, figures, findings with fixes, every launch image by cost."

    public init() {}

    public func render(_ input: ReportInput, to sink: ByteSink) {
        sink.write(Self.document(input.result, baseline: input.baseline, color: input.color))
    }

    /// How many log lines a finding lists before it counts the rest.
    static let linesShown = 8

    /// ANSI styles, used only when the caller asks for colour (a terminal without `NO_COLOR`).
    struct Style {
        var enabled: Bool
        func apply(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func severity(_ severity: Severity, _ text: String) -> String {
            switch severity {
            case .error: return apply("1;31", text)
            case .warning: return apply("1;33", text)
            case .note: return apply("1;36", text)
            }
        }
    }

    static func document(_ result: AuditResult, baseline: BaselineComparison? = nil, color: Bool = false) -> String {
        let style = Style(enabled: color)
        var out = "imgtrace launch audit\n"
        out += "app      \(result.bundleNames.first ?? "?") (\(result.inventoryImages) images in the inventory)\n"
        for warning in result.warnings where warning.source == "bundle" { out += "         warning: \(warning.message)\n" }
        let d = result.device
        out += "device   \(d.id): \(d.models.joined(separator: ", ")); \(d.pointWidth)×\(d.pointHeight) pt @\(d.scale)x, \(d.idiom)"
        out += (result.deviceReason.map { " (\($0))" } ?? "") + "\n"
        for log in result.logs {
            let s = log.summary
            var line = "log      \(log.path): \(s.hits) hits in \(s.lines) lines; "
            if let end = s.launchEnd {
                line += "launch ends at line \(end.line) (\(end.source == "marker" ? "imgtrace marker" : "--launch-end"))"
            } else {
                line += "no launch-end marker, so the whole log is the launch"
            }
            out += line + "\n"
            for warning in s.warnings { out += "         warning: \(warning.line.map { "line \($0): " } ?? "")\(warning.message)\n" }
        }
        let verdictText = verdict(result, baseline: baseline)
        out += "\n" + (verdictText.hasPrefix("FAIL") ? style.apply("1;31", verdictText) : style.apply("1;32", verdictText)) + "\n"
        if let baseline { out += baseline.text() }
        out += "\n"
        out += phase("LAUNCH", result.metrics.launch)
        if let after = result.metrics.afterLaunch { out += phase("AFTER LAUNCH", after) }
        if result.logs.count > 1 {
            out +=
                "per log (launch): "
                + result.logs.enumerated().map { i, log in
                    "#\(i + 1) \(log.metrics.launch.loads) loads, \(log.metrics.launch.images) images, \(kibibytes(log.metrics.launch.decodedBytes))"
                }.joined(separator: "; ") + "\n"
        }
        out += "\n"
        for severity in Severity.allCases {
            let findings = result.findings.filter { $0.severity == severity }
            guard !findings.isEmpty else { continue }
            out += style.severity(severity, "\(title(severity)) (\(findings.count))") + "\n"
            for finding in findings {
                out += "  \(style.apply("1", finding.rule)): \(TextTable.escapeName(finding.message))\n"
                out += "      fix: \(finding.fix)\n"
                if !finding.lines.isEmpty { out += "      at \(lineList(finding, multipleLogs: result.logs.count > 1))\n" }
            }
            out += "\n"
        }
        if result.findings.isEmpty { out += "No findings.\n\n" }
        out += table(result)
        return out
    }

    static func verdict(_ result: AuditResult, baseline: BaselineComparison?) -> String {
        let c = result.severityCounts
        let counts = "\(plural(c[.error] ?? 0, "error")), \(plural(c[.warning] ?? 0, "warning")), \(plural(c[.note] ?? 0, "note"))"
        // Against a baseline only new findings and worse figures fail (budgets are findings).
        let fails = baseline?.fails ?? result.fails
        var text = fails ? "FAIL" : "PASS"
        text += ": \(counts)"
        if baseline != nil {
            text += result.failOn.map { " (new findings fail at \($0.rawValue) and above)" } ?? " (new findings never fail)"
        } else {
            text += result.failOn.map { " (fails at \($0.rawValue) and above)" } ?? " (never fails on findings)"
        }
        for breach in result.budgetBreaches {
            text += "\nbudget exceeded: \(breach.budget) (\(breach.figures))"
        }
        return text
    }

    static func phase(_ title: String, _ m: PhaseMetrics) -> String {
        var out = "\(title)\n"
        out += "  loads       \(m.loads) (\(plural(m.names, "name")), \(m.repeated) repeated lookups)\n"
        out += "  images      \(m.images): \(kibibytes(m.decodedBytes)) decoded, \(kibibytes(m.bytesOnDisk)) on disk\n"
        if m.systemImages > 0 {
            out +=
                "              of which \(m.systemImages) system image\(m.systemImages == 1 ? "" : "s") (\(kibibytes(m.systemDecodedBytes)) decoded): the toolkit's, not the app's\n"
        }
        out += "  missing     \(m.missing)\n"
        if m.unreadable > 0 { out += "  unreadable  \(plural(m.unreadable, "hit")) without a name\n" }
        return out
    }

    static func title(_ severity: Severity) -> String {
        switch severity {
        case .error: return "ERRORS"
        case .warning: return "WARNINGS"
        case .note: return "NOTES"
        }
    }

    static func lineList(_ finding: Finding, multipleLogs: Bool) -> String {
        let shown = finding.lines.prefix(linesShown).map { multipleLogs ? "#\($0.log + 1):\($0.line)" : "line \($0.line)" }
        var text = shown.joined(separator: ", ")
        let more = max(finding.occurrences, finding.lines.count) - shown.count
        if more > 0 { text += " (+\(more) more)" }
        return text
    }

    static func table(_ result: AuditResult) -> String {
        let launch = result.uses.filter { $0.launchLoads > 0 }
        guard !launch.isEmpty else { return "No image loads in the launch window.\n" }
        var out = "IMAGES LOADED AT LAUNCH (\(launch.count) names, by decoded size)\n"
        let rows = launch.map { use -> [String] in
            let image = use.resolution.image
            let resolved = image?.id ?? (use.resolution.cause == .outsideBundle ? "outside the bundle" : "missing")
            let pixels = image.flatMap { i in i.pixelWidth.flatMap { w in i.pixelHeight.map { "\(w)×\($0)" } } } ?? "-"
            let decoded = image?.decodedBytes.map { fixed(Double($0) / 1_048_576, 2) } ?? "-"
            let file = image.map { fixed(Double($0.bytesOnDisk) / 1024, 1) } ?? "-"
            let first = result.logs.count > 1 ? "#\(use.firstLine.log + 1):\(use.firstLine.line)" : "\(use.firstLine.line)"
            return [shortened(TextTable.escapeName(use.displayName)), TextTable.escapeName(resolved), pixels, decoded, file, "\(use.launchLoads)", first]
        }
        out += TextTable.render(
            header: ["NAME", "RESOLVED", "PIXELS", "DECODED MiB", "FILE KiB", "LOADS", "FIRST LINE"],
            rows: rows, rightAligned: [3, 4, 5, 6])
        return out
    }

    /// Long names (full paths) keep their informative end.
    static func shortened(_ text: String, limit: Int = 60) -> String {
        text.count <= limit ? text : "…" + String(text.suffix(limit - 1))
    }

    static func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }

    /// A fixed number of decimals without Foundation's locale-dependent formatting.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let n = Int(saturating: (value * Double(scale)).rounded())
        let fraction = String(n % scale)
        return "\(n / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
