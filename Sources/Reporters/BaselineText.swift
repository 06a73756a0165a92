import AuditModel
import AuditPolicy
import AuditRules
import ImgtraceSupport
import LaunchAudit
import UnusedAudit

extension BaselineComparison {
    /// The comparison for people: what is new, what is fixed, which figures got worse.
    /// Every line fits `width` columns, continuations indented under their entry.
    public func text(width: Int = 120) -> String {
        var lines: [(first: String, text: String)] = []
        var head = "BASELINE: \(newFindings.count) new, \(fixed.count) fixed"
        head += regressions.isEmpty ? ", figures within tolerance" : ", \(counted(regressions.count, "figure")) worse"
        head += " — " + Verdict(fails: fails, failOn: failOn, counts: [:]).word
        lines.append(("", head))
        if deviceChanged { lines.append(("  note: ", "the baseline was written for another device; fingerprints include the device")) }
        for regression in regressions { lines.append(("  worse: ", "\(regression.metric) \(regression.change)")) }
        for entry in newFindings { lines.append(("  new \(entry.severity) \(entry.rule): ", TextTable.escapeName(entry.message))) }
        for entry in fixed { lines.append(("  fixed \(entry.rule): ", TextTable.escapeName(entry.message))) }
        return lines.map { TextTable.wrapped($0.text, width: width, first: $0.first, rest: "      ") + "\n" }.joined()
    }
}

/// The line `baseline write` prints once the file is in place.
public enum BaselineText {
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
