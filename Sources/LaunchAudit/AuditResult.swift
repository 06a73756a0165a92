import AuditModel
import AuditPolicy
import AuditRules
import UnusedAudit

/// What the result of either command holds: findings, and what they were judged for and with.
/// `analyze`'s result is an `AuditResult`, `unused`'s an `UnusedResult`; reporters take both
/// through one protocol (`AuditReporter`), and what they share is written once against this.
public protocol CommandResult: Sendable {
    /// The device the images were judged for.
    var device: DeviceProfile { get }
    /// Why the device was chosen when none was asked for (`chosen for a GNUstep app: …`).
    var deviceReason: String? { get }
    /// The launch logs read, in input order.
    var logs: [LogReport] { get }
    /// Findings in report order, ignores and severity overrides applied.
    var findings: FindingList { get set }
    /// The top bundle's name first, then the others the inventory read.
    var bundleNames: [String] { get }
    /// The number of images (files and renditions) in the inventory.
    var inventoryImages: Int { get }
    /// The lowest severity that fails the run; nil = never.
    var failOn: Severity? { get }
    /// Every warning from reading the inputs, bundle first, in input order.
    var warnings: [AuditWarning] { get set }
    /// The source root findings' `source` locations are relative to, as given.
    var sourceRoot: String? { get set }
    /// The bundles as given (`--bundle`, in order): a report's bundle paths start at them, a
    /// later bundle's inventory paths behind its prefix (`BundleID.pathPrefix`).
    var bundlePaths: [String] { get set }
    /// The launch logs as given, in input order: a log finding's location points into one.
    var logPaths: [String] { get set }
    /// The launch window's figures a baseline records and compares: the median launch's, with
    /// the number of launches and their range (`unused` measures none: zeros).
    var launchFigures: PhaseSpread { get }

    /// The rules whose findings this kind of result holds.
    static var reportedRules: [any DescribedRule.Type] { get }
    /// What the report is called in formats that name it.
    static var reportTitle: String { get }
    /// Which baselines this kind of result writes and is measured against.
    static var baselineScope: Baseline.Scope { get }
}

/// `imgtrace analyze`'s result: every name resolved, findings, the launch's figures.
public struct AuditResult: CommandResult {
    public var device: DeviceProfile
    public var logs: [LogReport]
    /// Figures of the launch, each log one launch: over several, each figure the median launch's with its range.
    public var metrics: AuditMetrics
    /// Every name loaded, launch-window names first, each group by cost (decoded bytes) then name.
    public var uses: [NameUse]
    public var unreadable: [UnreadableHits]
    public var findings: FindingList
    public var bundleNames: [String]
    public var inventoryImages: Int
    /// Budgets from the config that the launch window exceeded.
    public var budgetBreaches: [BudgetBreach]
    /// Every budget the config sets, with the launch's figure against it: how close a passing run came.
    public var budgetFigures: [BudgetBreach] = []
    public var failOn: Severity?
    public var warnings: [AuditWarning] = []
    public var deviceReason: String?
    public var sourceRoot: String?
    public var bundlePaths: [String] = []
    public var logPaths: [String] = []

    public var launchFigures: PhaseSpread { metrics.launchSpread }
    public static var reportedRules: [any DescribedRule.Type] { Rules.all }
    public static var reportTitle: String { "imgtrace launch audit" }
    public static var baselineScope: Baseline.Scope { .launch }
}

/// `imgtrace unused`'s result: every shipped image judged against the code, interface files,
/// plists and launches, and what was searched. Its findings are the images judged unused,
/// dynamic-only or never loaded.
public struct UnusedResult: CommandResult {
    public var device: DeviceProfile
    public var deviceReason: String?
    public var logs: [LogReport]
    public var findings: FindingList
    public var bundleNames: [String]
    public var inventoryImages: Int
    public var failOn: Severity?
    public var warnings: [AuditWarning]
    public var sourceRoot: String?
    /// Every shipped image with its verdict, and what was searched.
    public var summary: UnusedSummary
    public var bundlePaths: [String] = []
    public var logPaths: [String] = []

    /// `unused` reads launches for the names they load, and measures none.
    public var launchFigures: PhaseSpread { PhaseSpread(single: PhaseMetrics()) }
    /// The verdicts, and `no-evidence` for a file given as a launch that is none.
    public static var reportedRules: [any DescribedRule.Type] { Rules.unused + [NoEvidenceRule.self] }
    public static var reportTitle: String { "imgtrace unused images" }
    public static var baselineScope: Baseline.Scope { .unused }
}

extension CommandResult {
    /// The rules whose findings this result can hold: `analyze`'s, or `unused`'s verdicts.
    public var reportedRules: [any DescribedRule.Type] { Self.reportedRules }

    /// What the report is called in formats that name it.
    public var reportTitle: String { Self.reportTitle }

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
