import AuditModel
import LaunchAudit

/// Which findings fail the run, and how the baseline sees each: one answer for every format, so
/// the annotations, test failures and SARIF states of a run against a baseline agree with its verdict.
struct FindingStates {
    private let findings: FindingList
    private let failOn: Severity?
    private let baseline: BaselineComparison?

    init(_ result: some CommandResult, baseline: BaselineComparison?) {
        findings = result.findings
        failOn = result.failOn
        self.baseline = baseline
    }

    /// Whether the finding at `index` fails the run: at or above the fail level and gating, and,
    /// against a baseline, not accepted by it.
    func fails(_ index: Int) -> Bool {
        if let baseline { return baseline.failsRun(findingAt: index) }
        guard let failOn else { return false }
        return findings.severity(at: index) <= failOn && findings.gates(at: index)
    }

    /// The baseline's view of the finding at `index`; nil without a baseline.
    func state(_ index: Int) -> BaselineComparison.State? {
        baseline?.state(ofFindingAt: index, rule: findings.rule(at: index))
    }

    /// Whether the baseline accepts the finding at `index` (the same finding was there before).
    func isAccepted(_ index: Int) -> Bool { state(index) == .unchanged }
}
