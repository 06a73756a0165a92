import AuditModel
import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format markdown`: a pull-request comment or GitHub job summary — the
/// verdict and figures, the findings (most severe and costliest first, capped), the costliest images.
public struct MarkdownReporter: AuditReporter {
    public let id = "markdown"
    public let fileExtension = "md"
    public let consumer = OutputConsumer.markdown
    public let summary = "A pull-request comment or GitHub job summary."

    public init() {}

    public func render(_ input: ReportInput<AuditResult>, to sink: ByteSink) {
        sink.write(Self.document(input.result, baseline: input.baseline))
    }

    public func render(_ input: ReportInput<UnusedResult>, to sink: ByteSink) {
        sink.write(Self.document(input.result, baseline: input.baseline, allImages: input.allImages))
    }

    /// Findings listed before the rest are counted; keeps a comment far below GitHub's 1 MiB summary cap.
    static let maxFindings = 50
    static let maxImages = 20

    /// `analyze`'s comment: the launch's figures, then the costliest images at launch.
    static func document(_ result: AuditResult, baseline: BaselineComparison? = nil) -> String {
        let wholeLog = result.logs.contains(where: { $0.summary.launchEnd == nil && $0.summary.recording?.launchEnd != .notReached })
        var breaches = result.budgetBreaches.map {
            "- ❌ budget \(MarkdownText.code($0.budget, inTable: false)) exceeded: \(MarkdownText.sentence($0.figures, inTable: false))\n"
        }
        breaches += result.budgetFigures.filter { !$0.isExceeded }.map {
            "- ✅ within budget \(MarkdownText.code($0.budget, inTable: false)): \(MarkdownText.sentence($0.headroom, inTable: false))\n"
        }
        var out = document(
            result, baseline: baseline, inputsNote: wholeLog ? "; no launch-end marker, so the whole log is the launch" : "",
            figures: launchFigures(result), verdictLines: breaches)
        let images = result.uses.filter { $0.launchLoads > 0 && $0.resolution.image != nil }.prefix(maxImages)
        if !images.isEmpty {
            let loads = result.logs.count > 1 ? "loads in \(result.logs.count) launches" : "loads"
            out += "### Costliest images at launch\n\n| name | resolved | pixels | decoded | on disk | \(loads) |\n|---|---|---:|---:|---:|---:|\n"
            for use in images {
                let image = use.resolution.image!
                let pixels = ImageLabel.pixels(image) ?? "–"
                out += "| \(MarkdownText.code(use.displayName)) | \(MarkdownText.code(image.id)) | \(pixels) | \(image.decodedBytes.map(kibibytes) ?? "–") | "
                out += "\(kibibytes(image.bytesOnDisk)) | \(use.launchLoads) |\n"
            }
        }
        return out
    }

    /// `unused`'s comment: its figures and what was searched, then the images not plainly used
    /// (every image with `allImages`).
    static func document(_ result: UnusedResult, baseline: BaselineComparison? = nil, allImages: Bool = false) -> String {
        let unused = result.summary
        var figures = "| | |\n|---|---:|\n"
        for figure in UnusedReport.figures(unused, device: result.device) { figures += "| \(MarkdownText.sentence(figure.label)) | \(figure.value) |\n" }
        figures += "\n" + MarkdownText.sentence(UnusedReport.searched(unused, launches: result.logs.count), inTable: false) + ".\n"
        if let shipping = UnusedReport.shipping(unused) { figures += "\n" + MarkdownText.sentence(shipping, inTable: false) + ".\n" }
        var out = document(result, baseline: baseline, inputsNote: "", figures: figures, verdictLines: [])
        let listed = UnusedReport.listed(unused, all: allImages)
        guard !listed.isEmpty else { return out }
        out +=
            "### \(allImages ? "Every shipped image" : "Images not plainly used")\n\n| name | verdict | files | in app | downloaded | kept by |\n|---|---|---:|---:|---:|---|\n"
        for asset in listed.prefix(maxFindings) {
            let cells = UnusedReport.cells(asset)
            out += "| \(MarkdownText.code(cells[0])) | `\(cells[1])` | \(cells[2]) | \(cells[3]) | \(cells[4]) | \(MarkdownText.sentence(cells[5])) |\n"
        }
        if listed.count > maxFindings { out += "\n\(counted(listed.count - maxFindings, "more image")): see the JSON or text report.\n" }
        return out
    }

    /// Either command's comment up to its own tables: the heading, the inputs (`inputsNote`
    /// after them), the command's `figures`, the counts with `verdictLines` under them, the
    /// warnings and the findings.
    private static func document(
        _ result: some CommandResult, baseline: BaselineComparison?, inputsNote: String, figures: String, verdictLines: [String]
    ) -> String {
        let verdict = Verdict(result, baseline: baseline)
        let heading: String
        switch verdict.outcome {
        case .fail: heading = "❌ fail"
        case .pass: heading = "✅ pass"
        case .notGating: heading = "⚠️ " + verdict.badge
        }
        var out = "## \(result.reportTitle): \(heading)\n\n"
        let d = result.device
        out +=
            "\(MarkdownText.code(result.bundleNames.first ?? "?", inTable: false)) on **\(MarkdownText.code(d.id, inTable: false))** "
            + MarkdownText.sentence("(\(dimensions(d.pointWidth, d.pointHeight)) pt @\(d.scale)x)", inTable: false)
        out += ", " + counted(result.logs.count, "log")
        out += inputsNote + ".\n\n" + figures
        out += "\n**\(verdict.countsText)**"
        let accepted = verdict.acceptedText.map { $0 + "; " } ?? ""
        out += result.failOn.map { " (\(accepted)fails at \($0.rawValue))" } ?? " (\(accepted)never fails on findings)"
        out += "\n\n" + verdictLines.joined()
        if !verdictLines.isEmpty { out += "\n" }
        if let baseline { out += baselineSection(baseline) }
        let first = StartHere.items(result.findings)
        if !first.isEmpty {
            out += "### Start here\n\nWhat fixing each saves, most first:\n\n"
            for (n, item) in first.enumerated() {
                out += "\(n + 1). `\(item.finding.rule)`: \(MarkdownText.code(item.finding.subject, inTable: false)) saves up to \(item.saves)\n"
            }
            out += "\n"
        }
        if !result.warnings.isEmpty {
            out += "<details><summary>\(counted(result.warnings.count, "warning")) from reading the inputs</summary>\n\n"
            for warning in result.warnings.prefix(maxFindings) { out += "- ⚠️ \(MarkdownText.sentence(warning.text, inTable: false))\n" }
            if result.warnings.count > maxFindings { out += "- … and \(result.warnings.count - maxFindings) more\n" }
            out += "\n</details>\n\n"
        }
        guard !result.findings.isEmpty else { return out }
        let states = FindingStates(result, baseline: baseline)
        out += "### Findings\n\n"
        if FindingEntry.count(result.findings, part: .app) > 0 {
            out += findingsTable(result, part: .app, states: states, baseline: baseline)
        } else {
            out += "None in the app's own lookups.\n\n"
        }
        let toolkit = FindingEntry.count(result.findings, part: .toolkit)
        if toolkit > 0 {
            out += "<details><summary>\(counted(toolkit, "toolkit note")): the toolkit's own lookups, which never gate</summary>\n\n"
            out += findingsTable(result, part: .toolkit, states: states, baseline: baseline) + "</details>\n\n"
        }
        return out
    }

    /// One part's findings as a table, a rule's many notes as one row (as in the text report),
    /// at most `maxFindings` rows.
    private static func findingsTable(
        _ result: some CommandResult, part: FindingEntry.Part, states: FindingStates, baseline: BaselineComparison?
    ) -> String {
        let against = baseline == nil ? "" : " baseline |"
        var out = "| severity |\(against) rule | finding | fix |\n|---|\(baseline == nil ? "" : "---|")---|---|---|\n"
        var shown = 0, hidden = 0
        FindingEntry.forEach(in: result.findings, part: part) { entry in
            guard shown < maxFindings else { return hidden += entry.findings.count }
            shown += 1
            let finding = entry.first
            var text = entry.groupSummary { MarkdownText.code($0) } ?? MarkdownText.sentence(finding.message)
            if let place = entry.editPlace(result) { text += "<br>edit \(MarkdownText.code(place))" }
            let state = entry.baselineWord(states).map { " \($0) |" } ?? ""
            out += "| \(finding.severity.rawValue) |\(state) `\(finding.rule)` | \(text) | \(MarkdownText.sentence(finding.fixKind.phrase)) |\n"
        }
        if hidden > 0 { out += "\n\(counted(hidden, "more finding")): see the JSON, SARIF or text report.\n" }
        return out + "\n"
    }

    /// What this change did against the baseline: the verdict's line, then each worse figure,
    /// new finding and fixed one (new and fixed capped as the findings are).
    private static func baselineSection(_ baseline: BaselineComparison) -> String {
        var out = "### Baseline\n\n" + MarkdownText.sentence(BaselineText.headline(baseline), inTable: false) + "\n\n"
        if baseline.deviceChanged { out += "- note: the baseline was written for another device; fingerprints include the device\n" }
        for regression in baseline.regressions { out += "- worse: " + MarkdownText.sentence("\(regression.metric) \(regression.change)", inTable: false) + "\n" }
        for change in baseline.imageChanges.prefix(BaselineComparison.listedImageChanges) {
            out += "- moved: " + MarkdownText.sentence(change.phrase, inTable: false) + "\n"
        }
        for entry in baseline.newFindings.prefix(maxFindings) {
            out += "- new \(entry.severity) `\(entry.rule)`: " + MarkdownText.sentence(entry.message, inTable: false) + "\n"
        }
        for entry in baseline.fixed.prefix(maxFindings) { out += "- fixed `\(entry.rule)`: " + MarkdownText.sentence(entry.message, inTable: false) + "\n" }
        let more = max(0, baseline.newFindings.count - maxFindings) + max(0, baseline.fixed.count - maxFindings)
        if more > 0 { out += "- … and \(more) more: see the text or JSON report\n" }
        return out + "\n"
    }

    /// The launch and after-launch figures of `analyze`, as a table: one launch's, or the median
    /// launch's with each figure's range over the launches.
    private static func launchFigures(_ result: AuditResult) -> String {
        var out = LaunchFigureText.heading(result.metrics.launchSpread).map { "Each figure is " + $0 + ".\n\n" } ?? ""
        out += "| | launch | after launch |\n|---|---:|---:|\n"
        let launch = result.metrics.launchSpread, after = result.metrics.afterLaunchSpread
        func row(_ label: String, _ figure: KeyPath<PhaseMetrics, Int>, _ unit: FigureUnit = .count) {
            let value = { (spread: PhaseSpread) in LaunchFigureText.value(spread, figure, unit) }
            out += "| \(label) | \(value(launch)) | \(after.map(value) ?? "–") |\n"
        }
        row("loads", \.loads)
        row("distinct images", \.images)
        row("decoded", \.decodedBytes, .bytes)
        row("on disk", \.bytesOnDisk, .bytes)
        row("missing names", \.missing)
        row("repeated lookups", \.repeated)
        if let time = LaunchFigureText.mainThreadTime(launch) { out += "| \(LaunchFigureText.mainThreadTimeLabel) | \(time) | – |\n" }
        if let time = ImageTimeReport.summary(result) {
            out += "\nImage time at launch: " + MarkdownText.sentence(time, inTable: false) + ".\n"
            let slowest = ImageTimeReport.slowest(result)
            if !slowest.isEmpty {
                out +=
                    "Slowest on the main thread: "
                    + slowest.map { MarkdownText.code($0.findingIdentity) + " " + ImageTimeReport.nameTime($0) }.joined(separator: ", ") + ".\n"
            }
        }
        return out
    }
}
