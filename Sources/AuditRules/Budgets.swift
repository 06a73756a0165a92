import AuditModel
import AuditPolicy
import ImgtraceSupport

/// A budget from the config that the launch exceeded.
public struct BudgetBreach: Sendable, Equatable {
    /// The config key, e.g. `maxLaunchDecodedBytes`.
    public var budget: String
    public var limit: Int
    public var actual: Int
    /// Whether the figures are bytes (for wording).
    public var isBytes: Bool
    /// Whether the figures are microseconds (a time budget, set in milliseconds).
    public var isMicroseconds = false

    /// `12.0 MiB > 10.0 MiB` for byte budgets, `41 > 40` for counts, `212.400 ms > 200.000 ms` for time.
    public var figures: String {
        if isMicroseconds { return "\(ImageTime.milliseconds(actual)) > \(ImageTime.milliseconds(limit))" }
        return isBytes ? "\(kibibytes(actual)) > \(kibibytes(limit))" : "\(actual) > \(limit)"
    }
}

extension AuditConfig {
    /// The budgets `metrics` exceed, in a fixed order (the rule's table: each key spelled once).
    public func budgetBreaches(of metrics: PhaseMetrics) -> [BudgetBreach] {
        BudgetExceededRule.budgets.compactMap { budget in
            guard let set = self[keyPath: budget.limit], let actual = budget.actual(metrics) else { return nil }
            // A time budget is set in milliseconds; the figure is in microseconds.
            let limit = budget.unit == .milliseconds ? (set > Int.max / 1000 ? Int.max : set * 1000) : set
            guard actual > limit else { return nil }
            var breach = BudgetBreach(budget: budget.setting.key, limit: limit, actual: actual, isBytes: budget.unit == .bytes)
            breach.isMicroseconds = budget.unit == .milliseconds
            return breach
        }
    }
}
