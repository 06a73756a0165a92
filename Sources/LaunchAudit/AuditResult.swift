import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
import LaunchTrace
import UnusedAudit

/// The outcome of an audit: every name resolved, findings, metrics, the device judged for.
public struct AuditResult: Sendable {
    public var device: DeviceProfile
    public var logs: [LogReport]
    /// Figures over all logs together (loads summed, images counted once).
    public var metrics: AuditMetrics
    /// Every name loaded, launch-window names first, each group by cost (decoded bytes) then name.
    public var uses: [NameUse]
    public var unreadable: [UnreadableHits]
    /// Findings in report order, ignores and severity overrides applied.
    public var findings: FindingList
    /// The top bundle's name and the number of images in the inventory.
    public var bundleNames: [String]
    public var inventoryImages: Int
    /// Budgets from the config that the launch window exceeded.
    public var budgetBreaches: [BudgetBreach]
    /// The lowest severity that fails the run; nil = never.
    public var failOn: Severity?
    /// Every warning from reading the bundle(s) and the log(s), bundle first, in input order.
    public var warnings: [AuditWarning] = []
    /// Why the device was chosen when none was asked for (`chosen for a GNUstep app: …`).
    public var deviceReason: String?
    /// The source root findings' `source` locations are relative to, as given.
    public var sourceRoot: String?
    /// Present when the result is of `imgtrace unused`: every shipped image judged, and what was
    /// searched. Its findings are then the images judged unused, dynamic-only or never loaded.
    public var unused: UnusedSummary?
}

extension AuditResult {
    /// The rules whose findings this result can hold: `analyze`'s, or `unused`'s verdicts.
    public var reportedRules: [any DescribedRule.Type] { unused == nil ? Rules.all : Rules.unused }

    /// What the report is called in formats that name it.
    public var reportTitle: String { unused == nil ? "imgtrace launch audit" : "imgtrace unused images" }
}

extension AuditResult {
    /// Findings at or above the config's `failOn` severity.
    public var failingFindings: [Finding] {
        guard let level = failOn else { return [] }
        return findings.filter { $0.severity <= level }
    }

    /// Whether any finding is at or above `level`.
    private func hasFinding(atLeast level: Severity) -> Bool {
        findings.indices.contains { findings.severity(at: $0) <= level && findings.gates(at: $0) }
    }

    /// Whether the run fails the policy: a finding at or above `failOn`. Budgets and missing
    /// evidence are findings too (`budget-exceeded`, `no-evidence`), so `failOn` governs them
    /// all alike and `--fail-on never` never fails.
    public var fails: Bool { failOn.map(hasFinding(atLeast:)) ?? false }

    /// Findings per severity, every severity present.
    public var severityCounts: [Severity: Int] {
        var counts = Dictionary(uniqueKeysWithValues: Severity.allCases.map { ($0, 0) })
        for index in findings.indices { counts[findings.severity(at: index), default: 0] += 1 }
        return counts
    }
}
