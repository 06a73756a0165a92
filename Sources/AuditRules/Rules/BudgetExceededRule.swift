import AuditModel
import AuditPolicy

/// A budget of `.imgtrace.yml` that the launch exceeded: a finding like any other, so
/// `--fail-on`, ignores, severities and every report format treat it alike.
package enum BudgetExceededRule: AuditRule {
    package static let id = "budget-exceeded"
    package static let summary =
        "A launch figure above its budget in the config (`budgets.maxLaunchImages`, `maxLaunchDecodedBytes`, …); over several launches, the median launch's figure decides (main-thread image time: lookups and decodes, timed captures)."
    package static let defaultSeverity = Severity.error
    package static let parameters = "`budgets`: " + settings.map(\.key).joined(separator: ", ")
    /// One budget: its setting (the key, spelled only there) and the launch figure it bounds.
    struct LaunchBudget: Sendable {
        let setting: RuleSetting
        /// The figure's unit; a time budget is set in milliseconds (`FigureUnit.figure(fromSetting:)`).
        let unit: FigureUnit
        /// Where the config keeps the limit.
        let limit: WritableKeyPath<AuditConfig, Int?> & Sendable
        /// The launch's figure (microseconds for a time budget); nil when the capture has none.
        let actual: @Sendable (PhaseMetrics) -> Int?
    }

    private static func budget(
        _ key: String, _ unit: FigureUnit, _ help: String, _ path: WritableKeyPath<AuditConfig, Int?> & Sendable,
        actual: @escaping @Sendable (PhaseMetrics) -> Int?
    ) -> LaunchBudget {
        LaunchBudget(setting: .count("budgets", key, unset: "no budget", help: help, path), unit: unit, limit: path, actual: actual)
    }

    /// One budget per launch figure, none set by default, in the order the report gives them.
    static let budgets: [LaunchBudget] = [
        budget("maxLaunchLoads", .count, "at most this many image loads at launch", \.budgets.maxLaunchLoads) { $0.loads },
        maxLaunchImagesBudget,
        budget("maxLaunchDecodedBytes", .bytes, "at most this many decoded bytes of the images loaded at launch", \.budgets.maxLaunchDecodedBytes) { $0.decodedBytes },
        budget("maxLaunchBytesOnDisk", .bytes, "at most this many bytes on disk of the images loaded at launch", \.budgets.maxLaunchBytesOnDisk) { $0.bytesOnDisk },
        budget("maxImageDecodedBytes", .bytes, "at most this many decoded bytes for the largest image loaded at launch", \.budgets.maxImageDecodedBytes) {
            $0.largestImageDecodedBytes
        },
        budget("maxMissingImages", .count, "at most this many names loaded at launch that resolve to nothing", \.budgets.maxMissingImages) { $0.missing },
        maxMainThreadImageBudget,
    ]
    /// The most distinct images a launch may load.
    private static let maxLaunchImagesBudget = budget("maxLaunchImages", .count, "at most this many distinct images loaded at launch", \.budgets.maxLaunchImages) {
        $0.images
    }
    /// The main thread's image time at launch, lookups and decodes (a capture that times requests: `record --agent`).
    private static let maxMainThreadImageBudget = budget(
        "maxMainThreadImageMilliseconds", .microseconds,
        "at most this many milliseconds of image lookups and decodes on the main thread at launch (timed captures: record --agent)",
        \.budgets.maxMainThreadImageMilliseconds
    ) { $0.typicalMainThreadImageMicroseconds }
    package static let settings: [RuleSetting] = budgets.map(\.setting)
    package static var maxLaunchImages: RuleSetting { maxLaunchImagesBudget.setting }
    package static var maxMainThreadImageMilliseconds: RuleSetting { maxMainThreadImageBudget.setting }
    package static let examples: [RuleExample] = [
        RuleExample(
            "more images than the budget", images: [.init("a@3x.png", 60, 60), .init("b@3x.png", 60, 60)],
            loads: [.named("a"), .named("b")], settings: [maxLaunchImages.set(1)], fires: true),
        RuleExample("within the budget", images: [.init("a@3x.png", 60, 60)], loads: [.named("a")], settings: [maxLaunchImages.set(1)], fires: false),
        RuleExample(
            "more main-thread image time than the budget", images: [.init("a@3x.png", 60, 60), .init("b@3x.png", 60, 60)],
            loads: [.timed("a", microseconds: 30_000), .timed("b", microseconds: 25_000)], settings: [maxMainThreadImageMilliseconds.set(50)], fires: true),
        RuleExample(
            "image time on another thread does not count", images: [.init("a@3x.png", 60, 60), .init("b@3x.png", 60, 60)],
            loads: [.timed("a", microseconds: 30_000), .timed("b", microseconds: 25_000, thread: "loader 7")],
            settings: [maxMainThreadImageMilliseconds.set(50)], fires: false),
        RuleExample(
            "a log without durations has no image time to budget", images: [.init("a@3x.png", 60, 60)], loads: [.named("a")],
            settings: [maxMainThreadImageMilliseconds.set(0)], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        context.config.budgetBreaches(of: context.metrics.launchSpread).map { breach in
            Finding(
                rule: id, severity: defaultSeverity, identity: breach.budget, device: context.device.fingerprintKey,
                subject: breach.budget, message: "budget \(code: breach.budget) exceeded: \(breach.figures)",
                fix: .underBudget(key: breach.budget, config: context.config.configFile ?? ".imgtrace.yml"),
                values: ["budget": .string(breach.budget), "limit": .int(breach.limit), "actual": .int(breach.actual)],
                cost: breach.unit == .bytes ? max(0, breach.actual - breach.limit) : 0, occurrences: 1)
        }
    }
}
