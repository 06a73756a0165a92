import AuditModel
import ImgtraceSupport
import LaunchAudit

extension BaselineComparison {
    /// The image changes a report lists; the rest are counted.
    static let listedImageChanges = 10

    /// The comparison for people: what is new, what is fixed, which figures got worse.
    /// Every line fits `width` columns, continuations indented under their entry.
    public func text(width: Int = 120) -> String {
        var lines: [(first: String, text: String)] = []
        lines.append(("", "BASELINE: " + BaselineText.headline(self)))
        if deviceChanged { lines.append(("  note: ", "the baseline was written for another device; fingerprints include the device")) }
        for regression in regressions { lines.append(("  worse: ", "\(regression.metric) \(regression.change)")) }
        for change in imageChanges.prefix(Self.listedImageChanges) { lines.append(("  moved: ", change.text)) }
        if imageChanges.count > Self.listedImageChanges {
            lines.append(("  moved: ", "… and \(imageChanges.count - Self.listedImageChanges) more (the baselines' `images` hold every name)"))
        }
        for entry in newFindings { lines.append(("  new \(entry.severity) \(entry.rule): ", TextTable.escapeName(entry.message))) }
        for entry in fixed { lines.append(("  fixed \(entry.rule): ", TextTable.escapeName(entry.message))) }
        return lines.map { TextTable.wrapped($0.text, width: width, first: $0.first, rest: "      ") + "\n" }.joined()
    }
}

/// The line `baseline write` prints once the file is in place, and a comparison's headline.
public enum BaselineText {
    /// `1 new, 0 fixed, figures within tolerance — FAIL`: what a comparison found, in every format.
    public static func headline(_ comparison: BaselineComparison) -> String {
        var head = "\(comparison.newFindings.count) new, \(comparison.fixed.count) fixed"
        head += comparison.regressions.isEmpty ? ", figures within tolerance" : ", \(counted(comparison.regressions.count, "figure")) worse"
        head += " — " + Verdict(fails: comparison.fails, failOn: comparison.failOn, counts: [:]).word
        // A run failed by a budget or missing evidence alone: no baseline accepts those, so say it
        // is not the baseline that failed it.
        let fresh = comparison.failingNew.filter { Baseline.alwaysJudged.contains($0.rule) }
        if comparison.fails, !fresh.isEmpty, fresh.count == comparison.failingNew.count, comparison.regressions.isEmpty {
            let rules = Set(fresh.map(\.rule)).sorted().map { "`\($0)`" }.joined(separator: ", ")
            head += " on \(rules), judged afresh every run (no baseline accepts it)"
        }
        return head
    }

    /// `imgtrace: wrote imgtrace-baseline.json: 23 findings (3 errors, 9 warnings, 11 notes); launch
    /// figures: 21 loads, 14 images, 89.6 MiB decoded, 685.6 KiB on disk`.
    public static func written(_ baseline: Baseline, to path: String) -> String {
        var bySeverity: [Severity: Int] = [:]
        for entry in baseline.findings { bySeverity[Severity(rawValue: entry.severity) ?? .note, default: 0] += 1 }
        let severities = Severity.allCases.map { counted(bySeverity[$0] ?? 0, $0.rawValue) }.joined(separator: ", ")
        let launch = baseline.launch
        return "imgtrace: wrote \(path == "-" ? "the baseline to standard output" : path): \(counted(baseline.findings.count, "finding")) (\(severities)); "
            + "launch figures: \(counted(launch.loads, "load")), \(counted(launch.images, "image")), \(kibibytes(launch.decodedBytes)) decoded, "
            + "\(kibibytes(launch.bytesOnDisk)) on disk"
    }
}
