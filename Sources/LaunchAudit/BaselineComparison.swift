import AuditModel
import AuditPolicy
import AuditRules

/// A result (or a second baseline) measured against a baseline.
public struct BaselineComparison: Sendable {
    /// Findings whose fingerprint the baseline lacks, in report order: the ones a baseline can
    /// hold, so an audit against a baseline and `baseline compare` of the same runs count alike.
    /// Worse figures are `regressions`; budgets and missing evidence are judged afresh, and all
    /// three still fail through `failingNew`.
    public var newFindings: [Baseline.Entry]
    /// Baseline findings that are gone.
    public var fixed: [Baseline.Entry]
    public var regressions: [MetricRegression]
    /// The images that moved, by name, costliest first: added, gone, loaded a different number of
    /// times. Empty when the baseline kept no names (before schema 5).
    public var imageChanges: [ImageChange] = []
    public var deviceChanged: Bool
    /// New findings at or above the fail level, those judged afresh every run included.
    public var failingNew: [Baseline.Entry]
    /// Positions, in the compared run's findings, of those the baseline does not accept.
    private var judgedIndices = Set<Int>()
    /// Positions, in the compared run's findings, of the new ones that fail.
    private var failingIndices = Set<Int>()

    /// How the baseline sees a finding of the run it was compared with (`index` in that run's findings).
    public enum State: String, Sendable {
        /// Not in the baseline, or judged afresh every run (a budget, missing evidence).
        case new
        /// In the baseline: accepted.
        case unchanged
        /// A figure worse than the baseline's (`baseline-regression`).
        case updated
        /// In the baseline and gone from the run: fixed.
        case absent
    }

    /// The state of the finding at `index` of the compared run's findings, whose rule is `rule`.
    public func state(ofFindingAt index: Int, rule: String) -> State {
        guard judgedIndices.contains(index) else { return .unchanged }
        return rule == BaselineRegressionRule.id ? .updated : .new
    }

    /// Whether the finding at `index` of the compared run's findings fails the run.
    public func failsRun(findingAt index: Int) -> Bool { failOn != nil && failingIndices.contains(index) }

    /// The fail level the comparison was made with; nil (`--fail-on never`) never fails.
    public var failOn: Severity?

    /// Whether worse figures fail by themselves: when two baselines are compared. An audit
    /// carries them as `baseline-regression` findings, which fail (or are ignored) like any other.
    private var regressionsFail = true

    /// New failing findings, or worse figures, unless nothing ever fails (`--fail-on never`).
    public var fails: Bool { failOn != nil && (!failingNew.isEmpty || (regressionsFail && !regressions.isEmpty)) }

    /// Only the result's new findings are built: one with a finding per name keeps no second list of them.
    public init<Result: CommandResult>(baseline: Baseline, result: Result, tolerance: AuditConfig.BaselineTolerance) {
        let findings = result.findings
        self.init(
            old: baseline, newDevice: result.device.id, newLaunch: result.launchFigures.median, newRanks: findings.ranks,
            entry: { index in
                Baseline.Entry(findings[index])
            }, failOn: result.failOn, tolerance: tolerance)
        regressionsFail = false
        if let old = baseline.images, let audit = result as? AuditResult {
            imageChanges = ImageChange.between(old: old, new: ImageRecord.of(audit.uses, launches: audit.launchFigures.launches))
        }
    }

    public init(old: Baseline, new: Baseline, failOn: Severity?, tolerance: AuditConfig.BaselineTolerance) {
        let ranks = new.findings.map {
            FindingRank(
                rule: $0.rule, severity: Severity(rawValue: $0.severity) ?? .note, fingerprint: $0.fingerprint, formerFingerprints: $0.formerly,
                foldedRules: $0.rules)
        }
        self.init(
            old: old, newDevice: new.device, newLaunch: new.launch, newRanks: ranks, entry: { new.findings[$0] }, failOn: failOn,
            tolerance: tolerance)
        if let before = old.images, let after = new.images { imageChanges = ImageChange.between(old: before, new: after) }
    }

    private init<Ranks: Collection<FindingRank>>(
        old: Baseline, newDevice: String, newLaunch: PhaseMetrics, newRanks: Ranks, entry: (Int) -> Baseline.Entry, failOn: Severity?,
        tolerance: AuditConfig.BaselineTolerance
    ) {
        self.failOn = failOn
        // The baseline's fingerprints, each marked when the new run still has it: no set of the new run's.
        var stillFound: [String: Bool] = [:]
        var acceptedRules: [String: [String]] = [:]
        for finding in old.findings {
            stillFound[finding.fingerprint] = false
            if !finding.rules.isEmpty { acceptedRules[finding.fingerprint] = finding.rules }
        }
        var judged: [Baseline.Entry] = []
        for (index, rank) in newRanks.enumerated() {
            var known: Bool
            if stillFound[rank.fingerprint] != nil {
                stillFound[rank.fingerprint] = true
                // An image is accepted for the rules that fired then: one that fires now and did
                // not then is new (a schema-2 entry, which did not say, accepts any).
                known = acceptedRules[rank.fingerprint].map { Set(rank.foldedRules).isSubset(of: $0) } ?? true
            } else {
                // A schema-1 baseline had a finding per rule: it accepts the image only if it had
                // one for every rule that fires now.
                let former = rank.formerFingerprints.filter { stillFound[$0] != nil }
                for fingerprint in former { stillFound[fingerprint] = true }
                known = !former.isEmpty && former.count == rank.formerFingerprints.count
            }
            // Budgets, missing evidence and worse figures are judged afresh every run: a baseline cannot accept them.
            if !known || Baseline.alwaysJudged.contains(rank.rule) {
                judged.append(entry(index))
                judgedIndices.insert(index)
                if let failOn, rank.gates, rank.severity <= failOn { failingIndices.insert(index) }
            }
        }
        newFindings = judged.filter { !Baseline.alwaysJudged.contains($0.rule) }
        fixed = old.findings.filter { stillFound[$0.fingerprint] != true }
        // A baseline written before ids named their models holds the profile's former id.
        deviceChanged = old.device != newDevice && (DeviceProfile.named(old.device)?.id ?? old.device) != (DeviceProfile.named(newDevice)?.id ?? newDevice)
        failingNew = judged.filter { entry in
            guard let failOn, entry.gates, let severity = Severity(rawValue: entry.severity) else { return false }
            return severity <= failOn
        }
        regressions = BaselineRegressionRule.regressions(old: old.launch, new: newLaunch, tolerance: tolerance)
    }
}
