import AuditModel
import ImgtraceSupport
import LaunchAudit

/// How a run went, as every report words it: what the gate decided. A run whose policy never
/// fails (`--fail-on never`) is "not gating" and says what was found; it never reads PASS, which
/// a pull-request comment above three errors would turn into "clean".
public struct Verdict: Equatable {
    public enum Outcome: Equatable {
        /// The policy failed the run.
        case fail
        /// The policy judged the run and nothing fails it.
        case pass
        /// The policy never fails (`--fail-on never`): findings are reported, not judged.
        case notGating
    }

    public let outcome: Outcome
    /// Findings per severity.
    public let counts: [Severity: Int]
    /// Against a baseline, how many findings it accepts (they are in `counts` too); nil without one.
    public private(set) var accepted: Int?
    /// How many of the notes are the toolkit's own lookups (listed apart; they never gate).
    public private(set) var toolkitNotes = 0

    /// `fails` is the decision (against a baseline, its own); `failOn` nil means never.
    public init(fails: Bool, failOn: Severity?, counts: [Severity: Int]) {
        outcome = fails ? .fail : (failOn == nil ? .notGating : .pass)
        self.counts = counts
    }

    public init(_ result: some CommandResult, baseline: BaselineComparison? = nil) {
        self.init(fails: baseline?.fails ?? result.fails, failOn: result.failOn, counts: result.severityCounts)
        toolkitNotes = FindingEntry.count(result.findings, part: .toolkit)
        if baseline != nil {
            let states = FindingStates(result, baseline: baseline)
            // Counted, not collected: a verdict is made several times a report, over any number of findings.
            accepted = result.findings.indices.reduce(0) { $0 + (states.isAccepted($1) ? 1 : 0) }
        }
    }

    /// `FAIL`, `PASS` or `NOT GATING`: the word a verdict line starts with.
    public var word: String {
        switch outcome {
        case .fail: return "FAIL"
        case .pass: return "PASS"
        case .notGating: return "NOT GATING"
        }
    }

    /// A badge's text: `FAIL`, `PASS`, or what was found when nothing gates (`3 errors — not
    /// gating`, the most severe kind present).
    public var badge: String {
        guard outcome == .notGating else { return word }
        let found = Severity.allCases.first { (counts[$0] ?? 0) > 0 }.map { counted(counts[$0]!, $0.rawValue) } ?? "no findings"
        return "\(found) — not gating"
    }

    /// `3 errors, 10 warnings, 11 notes`, and of the notes how many are the toolkit's (`12 notes, 9 of them the toolkit's`).
    public var countsText: String {
        let toolkit = toolkitNotes > 0 ? ", \(toolkitNotes) of them the toolkit's" : ""
        return "\(counted(counts[.error] ?? 0, "error")), \(counted(counts[.warning] ?? 0, "warning")), \(counted(counts[.note] ?? 0, "note"))" + toolkit
    }

    /// Against a baseline, `20 accepted by the baseline`; nil without one.
    public var acceptedText: String? { accepted.map { "\($0) accepted by the baseline" } }
}
