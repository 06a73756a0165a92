import ImgtraceSupport
import LaunchAudit

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
