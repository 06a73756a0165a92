import AuditModel
import ImgtraceSupport
import LaunchAudit
import UnusedAudit

/// `imgtrace analyze --format text`: a launch audit read top to bottom — the verdict and key
/// figures, then findings by severity with their fixes, then every image loaded at launch by cost.
public struct TextReporter: AuditReporter {
    public let id = "text"
    public let fileExtension = "txt"
    public let consumer = OutputConsumer.terminal
    public let summary = "A launch audit to read in a terminal or a build log: verdict, figures, findings with fixes, every launch image by cost."

    public init() {}

    public func render(_ input: ReportInput<AuditResult>, to sink: ByteSink) {
        Self.write(input.result, baseline: input.baseline, color: input.color) { sink.write($0) }
    }

    public func render(_ input: ReportInput<UnusedResult>, to sink: ByteSink) {
        Self.write(input.result, baseline: input.baseline, color: input.color, allImages: input.allImages, listingWidth: input.listingWidth) {
            sink.write($0)
        }
    }

    /// How many log lines a finding lists before it counts the rest.
    static let linesShown = 8

    /// ANSI styles, used only when the caller asks for colour (a terminal without `NO_COLOR`).
    struct Style {
        var enabled: Bool
        /// The columns prose and tables fit.
        var width = TextReporter.width
        func apply(_ code: String, _ text: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
        func severity(_ severity: Severity, _ text: String) -> String {
            switch severity {
            case .error: return apply("1;31", text)
            case .warning: return apply("1;33", text)
            case .note: return apply("1;36", text)
            }
        }
    }

    /// Every line of the report fits this many terminal columns unless the caller gives another
    /// (`unused` follows COLUMNS and --wide, as the listings do).
    static let width = 120

    /// One header line (`app      …`), wrapped under its label.
    private static func headerLine(_ label: String, _ text: String, width: Int = width) -> String {
        let pad = String(repeating: " ", count: 9)
        return TextTable.wrapped(TextTable.escapeName(text), width: width, first: label.isEmpty ? pad : label + String(repeating: " ", count: max(1, 9 - label.count)), rest: pad)
            + "\n"
    }

    /// The head every report shares, given to `emit`: the title, the inputs with their
    /// warnings, the device, the verdict (with `verdictLines` under it) and the baseline's news.
    private static func writeHead(
        _ result: some CommandResult, baseline: BaselineComparison?, verdictLines: [String], style: Style, emit: (String) -> Void
    ) {
        func headerLine(_ label: String, _ text: String) -> String { Self.headerLine(label, text, width: style.width) }
        var out = result.reportTitle + "\n"
        let inventory = counted(result.inventoryImages, "image file or rendition", "image files and renditions")
        out += headerLine("app", "\(result.bundleNames.first ?? "?") (\(inventory) in the inventory)")
        // Log warnings are shown under their log below.
        for warning in result.warnings {
            switch warning.origin {
            case .sourceRoot(let path), .baseline(let path): out += headerLine("", "warning: \(path): \(warning.message)")
            case .bundle, .log: continue
            }
        }
        for warning in result.warnings where warning.origin == .bundle { out += headerLine("", "warning: \(warning.message)") }
        let d = result.device
        out += headerLine(
            "device",
            "\(d.id): \(d.models.joined(separator: ", ")); \(dimensions(d.pointWidth, d.pointHeight)) pt @\(d.scale)x, \(d.idiom)"
                + (result.deviceReason.map { " (\($0))" } ?? ""))
        if let root = result.sourceRoot { out += headerLine("source", "\(root): findings point at the files to edit there") }
        for (index, log) in result.logs.enumerated() {
            let s = log.summary
            var line = "\(log.path): \(counted(s.hits, "hit")) in \(counted(s.lines, "line")); "
            if let end = s.launchEnd {
                line += "launch ends at line \(end.line) (\(end.source == .marker ? "imgtrace marker" : "--launch-end"))"
            } else if s.recording?.launchEnd == .notReached {
                line += "the recording ended before its launch end"
            } else {
                line += "no launch-end marker, so the whole log is the launch"
            }
            out += headerLine("log", line)
            // The reader's warnings and the audit's (bare lines set aside) about this log.
            for warning in result.warnings {
                guard case .log(let of, _) = warning.origin, of == index else { continue }
                out += headerLine("", "warning: \(warning.line.map { "line \($0): " } ?? "")\(warning.message)")
            }
        }
        let verdictText = verdict(result, baseline: baseline, lines: verdictLines).split(separator: "\n").map {
            TextTable.wrapped(String($0), width: style.width, first: "", rest: "  ")
        }.joined(separator: "\n")
        // Red fails, green passes, and a verdict that gates nothing is orange-yellow, as in the HTML.
        let colour: String
        switch Verdict(result, baseline: baseline).outcome {
        case .fail: colour = "1;31"
        case .pass: colour = "1;32"
        case .notGating: colour = "1;33"
        }
        out += "\n" + style.apply(colour, verdictText) + "\n"
        if let baseline { out += baseline.text() }
        out += startHere(result.findings, width: style.width)
        emit(out + "\n")
    }

    /// `START HERE`: the findings whose fix saves most (`StartHere`), numbered; empty when none saves anything.
    static func startHere(_ findings: FindingList, width: Int) -> String {
        let first = StartHere.items(findings)
        guard !first.isEmpty else { return "" }
        var out = "\nSTART HERE (what fixing each saves)\n"
        for (n, item) in first.enumerated() {
            let finding = item.finding
            out += TextTable.wrapped("\(finding.rule): \(SafeText.quoted(finding.subject)) saves up to \(item.saves)", width: width, first: "  \(n + 1). ", rest: "     ")
            out += "\n"
        }
        return out
    }

    /// `analyze`'s report in pieces, each given to `emit` as it is made: findings one at a time
    /// and the table row by row, so an audit of a million names is never held as text.
    static func write(_ result: AuditResult, baseline: BaselineComparison? = nil, color: Bool = false, emit: (String) -> Void) {
        let style = Style(enabled: color)
        var breaches = result.budgetBreaches.map { "budget exceeded: \($0.budget) (\($0.figures))" }
        // Within every budget: how close the launch came, so a team sees the margin before it is gone.
        let within = result.budgetFigures.filter { !$0.isExceeded }
        if !within.isEmpty { breaches.append("within budget: " + within.map { "\($0.budget) \($0.headroom)" }.joined(separator: ", ")) }
        writeHead(result, baseline: baseline, verdictLines: breaches, style: style, emit: emit)
        let width = style.width
        var out = phase("LAUNCH", result.metrics.launchSpread)
        if let time = ImageTimeReport.summary(result) {
            out += TextTable.wrapped(time, width: width, first: "  image time  ", rest: "              ") + "\n"
            let slowest = ImageTimeReport.slowest(result).map { "\(SafeText.quoted($0.findingIdentity)) \(ImageTimeReport.nameTime($0))" }
            if !slowest.isEmpty {
                out += TextTable.wrapped(slowest.joined(separator: ", "), width: width, first: "  slowest     ", rest: "              ") + "\n"
            }
        }
        if let after = result.metrics.afterLaunchSpread { out += phase("AFTER LAUNCH", after) }
        if result.logs.count > 1 {
            out +=
                TextTable.wrapped(
                    result.logs.enumerated().map { i, log in
                        "#\(i + 1) \(counted(log.metrics.launch.loads, "load")), \(counted(log.metrics.launch.images, "image")), \(kibibytes(log.metrics.launch.decodedBytes))"
                    }.joined(separator: "; "), width: width, first: "per launch: ", rest: "  ") + "\n"
        }
        out += "\n"
        emit(out)
        findings(result, style: style, emit: emit, then: { table(result, emit: emit) })
    }

    /// `unused`'s report: the figures and what was searched, the findings, then the images
    /// not plainly used (every image with `allImages`), in `listingWidth` columns.
    static func write(
        _ result: UnusedResult, baseline: BaselineComparison? = nil, color: Bool = false, allImages: Bool = false, listingWidth: Int = width,
        emit: (String) -> Void
    ) {
        // --wide (`.max`) leaves prose unwrapped; the arithmetic of wrapping stays in range.
        let style = Style(enabled: color, width: min(listingWidth, 1 << 20))
        let notGating = UnusedReport.notGatingLine(result, passes: Verdict(result, baseline: baseline).outcome == .pass)
        writeHead(result, baseline: baseline, verdictLines: notGating.map { [$0] } ?? [], style: style, emit: emit)
        let unused = result.summary
        var out = "UNUSED\n"
        for figure in UnusedReport.figures(unused, device: result.device) { out += "  \(figure.value) \(figure.label)\n" }
        out += TextTable.wrapped(UnusedReport.searched(unused, launches: result.logs.count), width: style.width, first: "  ", rest: "    ") + "\n"
        if let shipping = UnusedReport.shipping(unused) { out += TextTable.wrapped(shipping, width: style.width, first: "  ", rest: "    ") + "\n" }
        emit(out + "\n")
        findings(result, style: style, emit: emit, then: { unusedTable(unused, all: allImages, width: listingWidth, emit: emit) })
    }

    /// The findings by severity, then the table `then` writes.
    /// The app's findings by severity, then the toolkit's notes apart, then the table `then` writes.
    private static func findings(_ result: some CommandResult, style: Style, emit: (String) -> Void, then table: () -> Void) {
        let counts = FindingEntry.severityCounts(result.findings, part: .app)
        for severity in Severity.allCases {
            guard let count = counts[severity], count > 0 else { continue }
            emit(style.severity(severity, "\(title(severity)) (\(count))") + "\n")
            FindingEntry.forEach(in: result.findings, severity: severity, part: .app) { emit(text($0, result, style: style)) }
            emit("\n")
        }
        if result.findings.isEmpty { emit("No findings.\n\n") }
        let toolkit = FindingEntry.count(result.findings, part: .toolkit)
        if toolkit > 0 {
            if counts.isEmpty { emit("No findings in the app's own lookups.\n\n") }
            emit(style.severity(.note, "TOOLKIT NOTES (\(toolkit)): the toolkit's own lookups; they never gate") + "\n")
            FindingEntry.forEach(in: result.findings, part: .toolkit) { emit(text($0, result, style: style)) }
            emit("\n")
        }
        table()
    }

    /// `imgtrace unused`: the images not plainly used (every image with `all`), unused first, by bytes.
    static func unusedTable(_ unused: UnusedSummary, all: Bool, width: Int, emit: (String) -> Void) {
        let assets = UnusedReport.listed(unused, all: all)
        defer {
            let paths = UnusedReport.notShippedPaths(unused)
            if all, !paths.isEmpty {
                emit("\nNOT SHIPPED (\(counted(paths.count, "file")) in no target's resources; not findings)\n")
                for path in paths { emit("  " + TextTable.escapeName(path) + "\n") }
            }
        }
        guard !assets.isEmpty else { return emit("Every shipped image is used (--all lists them with what keeps each).\n") }
        emit("IMAGES (\(counted(assets.count, "image"))\(all ? "" : " not plainly used; --all lists every one"))\n")
        TextTable.render(
            header: UnusedReport.columns, rowCount: assets.count,
            row: { UnusedReport.cells(assets[$0]) }, rightAligned: [2, 3, 4], maxWidths: [5: UnusedReport.keptByWidth], width: width, emit: emit)
    }

    /// One entry of a severity's list: the message (or a group's subjects), the fix, where to
    /// edit it and the log lines.
    static func text(_ entry: FindingEntry, _ result: some CommandResult, style: Style) -> String {
        let rule = entry.first.rule
        let message = entry.groupSummary { "`" + TextTable.escapeName($0) + "`" } ?? TextTable.escapeName(entry.first.message.text)
        let width = style.width
        var out = TextTable.wrapped(message, width: width, first: "  \(rule): ", rest: "      ")
        if style.enabled { out = "  " + style.apply("1", rule) + out.dropFirst(2 + rule.count) }
        out += "\n" + TextTable.wrapped(entry.fix.text, width: width, first: "      fix: ", rest: "           ") + "\n"
        if let place = entry.editPlace(result) { out += TextTable.wrapped(place, width: width, first: "      edit ", rest: "      ") + "\n" }
        if !entry.lines.isEmpty {
            let list = lineList(entry.lines, occurrences: entry.occurrences, multipleLogs: result.logs.count > 1)
            out += TextTable.wrapped(list, width: width, first: "      at ", rest: "         ") + "\n"
        }
        return out
    }

    /// The verdict line, then `lines` (what else decided or did not decide the run).
    static func verdict(_ result: some CommandResult, baseline: BaselineComparison?, lines: [String]) -> String {
        // Against a baseline only new findings and worse figures fail (budgets are findings).
        let verdict = Verdict(result, baseline: baseline)
        var text = "\(verdict.word): \(verdict.countsText)"
        if baseline != nil {
            let accepted = verdict.acceptedText.map { $0 + "; " } ?? ""
            text += result.failOn.map { " (\(accepted)new findings fail at \($0.rawValue) and above)" } ?? " (\(accepted)new findings never fail)"
        } else {
            text += result.failOn.map { " (fails at \($0.rawValue) and above)" } ?? " (never fails on findings)"
        }
        for line in lines { text += "\n" + line }
        return text
    }

    /// A phase's figures: one launch's, or the median launch's with each figure's range.
    static func phase(_ title: String, _ spread: PhaseSpread) -> String {
        let m = spread.median
        func value(_ figure: KeyPath<PhaseMetrics, Int>, _ unit: FigureUnit = .count) -> String {
            LaunchFigureText.value(spread, figure, unit)
        }
        var out = title + (LaunchFigureText.heading(spread).map { ": " + $0 } ?? "") + "\n"
        out += "  loads       \(value(\.loads)) (\(value(\.names)) \(noun(for: m.names, "name")), \(value(\.repeated)) \(noun(for: m.repeated, "repeated lookup")))\n"
        out += "  images      \(value(\.images)) distinct, for \(value(\.names)) \(noun(for: m.names, "name")): "
        out += "\(value(\.decodedBytes, .bytes)) decoded, \(value(\.bytesOnDisk, .bytes)) on disk\n"
        if m.systemImages > 0 {
            out += "              of which \(value(\.systemImages)) \(noun(for: m.systemImages, "system image")) "
            out += "(\(value(\.systemDecodedBytes, .bytes)) decoded): the toolkit's, not the app's\n"
        }
        if m.symbols > 0 { out += "  SF Symbols  \(value(\.symbols)): system artwork, not the app's\n" }
        out += "  missing     \(value(\.missing))\n"
        if m.dataLoads > 0 { out += "  data assets \(value(\.dataLoads)) \(noun(for: m.dataLoads, "load")) (NSDataAsset: not images, in no figure above)\n" }
        if m.unreadable > 0 { out += "  unreadable  \(value(\.unreadable)) \(noun(for: m.unreadable, "hit")) without a name\n" }
        return out
    }

    /// What the table says for a name that loads no image of the app's.
    static func unresolvedLabel(_ cause: MissingCause?) -> String {
        switch cause {
        case .outsideBundle?: return "outside the bundle"
        case .systemArtwork?: return "SF Symbol (system)"
        case .dataAsset?: return "data asset"
        default: return "missing"
        }
    }

    static func title(_ severity: Severity) -> String {
        switch severity {
        case .error: return "ERRORS"
        case .warning: return "WARNINGS"
        case .note: return "NOTES"
        }
    }

    static func lineList(_ lines: [LogLine], occurrences: Int, multipleLogs: Bool) -> String {
        let shown = lines.prefix(linesShown).map { multipleLogs ? "#\($0.log + 1):\($0.line)" : "line \($0.line)" }
        var text = shown.joined(separator: ", ")
        let more = max(occurrences, lines.count) - shown.count
        if more > 0 { text += " (+\(more) more)" }
        return text
    }

    static func table(_ result: AuditResult, emit: (String) -> Void) {
        // Launch-window names come first in `uses`.
        let launch = result.uses.prefix { $0.launchLoads > 0 }
        guard !launch.isEmpty else { return emit("No image loads in the launch window.\n") }
        emit("IMAGES LOADED AT LAUNCH (\(counted(launch.count, "name")), by decoded size)\n")
        func row(_ use: NameUse) -> [String] {
            let image = use.resolution.image
            let resolved = image.map(ImageLabel.text) ?? Self.unresolvedLabel(use.resolution.cause)
            let pixels = image.flatMap(ImageLabel.pixels) ?? "-"
            let decoded = image?.decodedBytes.map(kibibytes) ?? "-"
            let file = image.map { kibibytes($0.bytesOnDisk) } ?? "-"
            let first = result.logs.count > 1 ? "#\(use.firstLine.log + 1):\(use.firstLine.line)" : "\(use.firstLine.line)"
            return [TextTable.escapeName(use.displayName), TextTable.escapeName(resolved), pixels, decoded, file, "\(use.launchLoads)", first]
        }
        TextTable.render(
            header: ["NAME", "RESOLVED", "PIXELS", "DECODED", "ON DISK", "LOADS", "FIRST LINE"],
            rowCount: launch.count, row: { row(launch[launch.startIndex + $0]) }, rightAligned: [3, 4, 5, 6], maxWidths: [1: 34],
            emit: emit)
    }

    /// A fixed number of decimals without Foundation's locale-dependent formatting.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let n = Int(saturating: (value * Double(scale)).rounded())
        let fraction = String(n % scale)
        return "\(n / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }
}
