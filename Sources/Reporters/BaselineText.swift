import LaunchAudit

extension BaselineComparison {
    /// The comparison for people: what is new, what is fixed, which figures got worse.
    public func text() -> String {
        var out = "BASELINE: \(newFindings.count) new, \(fixed.count) fixed"
        out += regressions.isEmpty ? ", figures within tolerance" : ", \(regressions.count) figure\(regressions.count == 1 ? "" : "s") worse"
        out += fails ? " — FAIL\n" : " — PASS\n"
        if deviceChanged { out += "  note: the baseline was written for another device; fingerprints include the device\n" }
        for regression in regressions {
            out += "  worse: \(regression.metric) \(regression.before) → \(regression.after) (allowed up to \(regression.allowed))\n"
        }
        for entry in newFindings { out += "  new \(entry.severity) \(entry.rule): \(TextTable.escapeName(entry.message))\n" }
        for entry in fixed { out += "  fixed \(entry.rule): \(TextTable.escapeName(entry.message))\n" }
        return out
    }
}
