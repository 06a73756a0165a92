import AuditModel
import AuditPolicy

/// A launch figure worse than the baseline allows (`analyze --baseline`): a finding like any
/// other, so `--fail-on`, ignores, severities and every report format treat it alike.
package enum BaselineRegressionRule: AuditRule {
    package static let id = "baseline-regression"
    package static let summary =
        "A launch figure (decoded bytes, bytes on disk, images, loads; main-thread image time when both captures were timed) worse than the baseline allows with the config's `baseline:` tolerances."
    package static let defaultSeverity = Severity.error
    // The keys named from their declarations: the help once named four keys that did not exist.
    package static let parameters =
        "`--baseline FILE`; tolerances `\(decodedBytesTolerance.path)` and `\(bytesOnDiskTolerance.path)` (fractions, \(decodedBytesTolerance.defaultText)), "
        + "`\(imagesTolerance.path)` and `\(loadsTolerance.path)` (counts, \(imagesTolerance.defaultText) and \(loadsTolerance.defaultText)); "
        + "timed captures: `\(imageTimeTolerance.path)` (\(imageTimeTolerance.defaultText))"
    // How much each launch figure may grow over the baseline.
    package static let decodedBytesTolerance = RuleSetting.fraction(
        "baseline", "launchDecodedBytesTolerance", help: "decoded bytes at launch may grow by this fraction",
        \.baselineTolerance.launchDecodedBytes)
    package static let bytesOnDiskTolerance = RuleSetting.fraction(
        "baseline", "launchBytesOnDiskTolerance", help: "bytes on disk at launch may grow by this fraction",
        \.baselineTolerance.launchBytesOnDisk)
    package static let imagesTolerance = RuleSetting.count(
        "baseline", "launchImagesTolerance", help: "images loaded at launch may grow by this many", \.baselineTolerance.launchImages)
    // Measured on repeated launches of one build: Debian's Gridlock recorded 7 times (5 idle,
    // 2 beside two busy cores) loads, images and bytes identical; the corpus's C sample identical
    // over 11 captures; its Objective-C sample 2 loads apart between its gdb and lldb runs (one
    // more nil and one more `placeholder` lookup), images and bytes identical. So a launch may
    // load 2 more without failing; no new image and 5% more bytes stay the limits.
    package static let loadsTolerance = RuleSetting.count(
        "baseline", "launchLoadsTolerance", help: "image loads at launch may grow by this many", \.baselineTolerance.launchLoads)
    // Image time moves with the machine and its load. Measured on repeated launches of one build
    // (scripts/bench-image-time.sh, 5 launches each): the main thread's image time of Debian's
    // GNUstep apps ranged over Gridlock 253.9–335.1 ms, Chess 331.2–392.1, Gomoku 160.8–222.4,
    // so one launch may take 38% longer than another of the same build: 50% allowed.
    package static let imageTimeTolerance = RuleSetting.fraction(
        "baseline", "launchImageTimeTolerance",
        help: "main-thread image time at launch (timed captures) may grow by this fraction", \.baselineTolerance.launchImageTime)
    // A history gate (`analyze --history`) compares with the median of this many recent builds:
    // one noisy build moves a median of ten by at most one rank.
    package static let historyWindow = RuleSetting.count(
        "history", "window", help: "the history gate compares with the median of this many recent builds of the branch", \.historyWindow)
    package static var settings: [RuleSetting] { [decodedBytesTolerance, bytesOnDiskTolerance, imagesTolerance, loadsTolerance, imageTimeTolerance, historyWindow] }
    package static let examples: [RuleExample] = [
        RuleExample(
            "one image more than the baseline", images: [.init("a@3x.png", 60, 60), .init("b@3x.png", 60, 60)],
            loads: [.named("a"), .named("b")], baselineImages: 1, fires: true),
        RuleExample("as many images as the baseline", images: [.init("a@3x.png", 60, 60)], loads: [.named("a")], baselineImages: 1, fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        guard let old = context.baseline else { return [] }
        // What moved, by name, when the baseline kept its images (schema 5).
        let changes = context.baselineImages.map {
            ImageChange.between(old: $0, new: ImageRecord.of(context.uses, launches: context.metrics.launchSpread.launches))
        }
        return regressions(old: old, new: context.metrics.launch, tolerance: context.config.baselineTolerance).map { regression in
            let moved = changes.map { ImageChange.moving(regression.metric, in: $0) } ?? []
            let because: Phrase = moved.isEmpty ? "" : "; \(Phrase.joined(moved.map(\.phrase), separator: "; "))"
            return Finding(
                rule: id, severity: defaultSeverity, identity: regression.metric, device: context.device.fingerprintKey, subject: regression.metric,
                message: "\(code: regression.metric) is worse than the baseline: \(regression.change)\(because)",
                fix: .explainRegression,
                values: [
                    "metric": .string(regression.metric), "before": .int(regression.before), "after": .int(regression.after),
                    "allowed": .int(regression.allowed),
                ],
                cost: regression.unit == .bytes ? max(0, regression.after - regression.before) : 0,
                occurrences: 1)
        }
    }

    /// The figures of `new` beyond what `old` and the tolerances allow, in a fixed order.
    package static func regressions(old: PhaseMetrics, new: PhaseMetrics, tolerance: AuditConfig.BaselineTolerance) -> [MetricRegression] {
        func fraction(_ value: Int, _ allowance: Double) -> Int { Int(saturating: (Double(value) * (1 + allowance)).rounded(.down)) }
        let checks: [(String, Int, Int, Int)] = [
            ("launch.decodedBytes", old.decodedBytes, new.decodedBytes, fraction(old.decodedBytes, tolerance.launchDecodedBytes)),
            ("launch.bytesOnDisk", old.bytesOnDisk, new.bytesOnDisk, fraction(old.bytesOnDisk, tolerance.launchBytesOnDisk)),
            ("launch.images", old.images, new.images, old.images.addingSaturating(tolerance.launchImages)),
            ("launch.loads", old.loads, new.loads, old.loads.addingSaturating(tolerance.launchLoads)),
        ]
        // Time only when both were timed: an untimed capture says nothing about it.
        let time: [(String, Int, Int, Int)] =
            if let before = old.typicalMainThreadImageMicroseconds, let after = new.typicalMainThreadImageMicroseconds {
                [("launch.mainThreadImageMicroseconds", before, after, fraction(before, tolerance.launchImageTime))]
            } else { [] }
        return (checks + time).compactMap { name, before, after, allowed in
            after > allowed ? MetricRegression(metric: name, before: before, after: after, allowed: allowed) : nil
        }
    }
}

/// A launch figure that got worse than the baseline allows.
public struct MetricRegression: Equatable, Sendable {
    package var metric: String
    package var before: Int
    package var after: Int
    /// The largest value the tolerance allows.
    package var allowed: Int

    /// The figure's unit, by its name.
    package var unit: FigureUnit { FigureUnit(figure: metric) }

    /// `before → after (allowed up to …)`, sizes in KiB/MiB, times in ms.
    package var change: String {
        "\(unit.shown(before)) → \(unit.shown(after)) (allowed up to \(unit.shown(allowed)))"
    }
}
