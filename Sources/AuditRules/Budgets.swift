import AuditModel
import AuditPolicy

/// A budget from the config that the launch exceeded.
public struct BudgetBreach: Sendable, Equatable {
    /// The config key, e.g. `maxLaunchDecodedBytes`.
    package var budget: String
    package var limit: Int
    package var actual: Int
    /// The unit of `limit` and `actual` (a time budget is set in milliseconds, held in microseconds).
    package var unit: FigureUnit
    /// How many launches `actual` is the median of, and the least and most of them.
    package var launches = 1
    package var lowest: Int
    package var highest: Int

    package init(budget: String, limit: Int, actual: Int, unit: FigureUnit) {
        self.budget = budget
        self.limit = limit
        self.actual = actual
        self.unit = unit
        lowest = actual
        highest = actual
    }

    /// Whether the launch is over the budget.
    package var isExceeded: Bool { actual > limit }

    /// `21 of 30 (70%)`: how close a launch within its budget came to it.
    package var headroom: String { "\(shown(actual)) of \(shown(limit)) (\(limit > 0 ? Int((Double(actual) * 100 / Double(limit)).rounded(.down)) : 100)%)" }

    /// `12.0 MiB > 10.0 MiB` for byte budgets, `41 > 40` for counts, `212.400 ms > 200.000 ms`
    /// for time; over several launches `41 > 40 (the median of 5 launches: 40 to 43)`.
    package var figures: String {
        let text = "\(shown(actual)) > \(shown(limit))"
        guard launches > 1 else { return text }
        return text + " (the median of \(launches) launches: \(shown(lowest)) to \(shown(highest)))"
    }

    private func shown(_ value: Int) -> String { unit.shown(value) }
}

extension AuditConfig {
    /// The budgets the median launch of `spread` exceeds, in a fixed order (the rule's table:
    /// each key spelled once). A budget bounds one launch: the median launch's figure, never a
    /// sum over launches nor the worst of them, so the number of launches recorded decides nothing.
    package func budgetBreaches(of spread: PhaseSpread) -> [BudgetBreach] {
        budgetFigures(of: spread).filter(\.isExceeded)
    }

    /// Every budget the config sets, with the median launch's figure against it, exceeded or not.
    package func budgetFigures(of spread: PhaseSpread) -> [BudgetBreach] {
        BudgetExceededRule.budgets.compactMap { budget in
            guard let set = self[keyPath: budget.limit], let actual = budget.actual(spread.median) else { return nil }
            var breach = BudgetBreach(budget: budget.setting.key, limit: budget.unit.figure(fromSetting: set), actual: actual, unit: budget.unit)
            breach.launches = spread.launches
            breach.lowest = budget.actual(spread.range.min) ?? actual
            breach.highest = budget.actual(spread.range.max) ?? actual
            return breach
        }
    }
}
