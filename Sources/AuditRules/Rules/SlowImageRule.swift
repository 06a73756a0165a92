import AuditModel
import AuditPolicy

/// An image request that held the main thread for longer than a frame during launch, measured by
/// a capture that times requests (`record --agent`).
package enum SlowImageRule: NameRule {
    package static let id = "slow-image"
    package static let summary =
        "An image request that kept the main thread busy at launch for longer than a frame (16 ms by default): the first frame waits for it. Only captures that time requests (`record --agent`) give durations."
    package static let defaultSeverity = Severity.warning
    package static let parameters = "`\(limit.path)` (default \(limit.defaultText) ms: one frame at 60 Hz, Sentry's threshold for frame drops)"
    /// Milliseconds of one main-thread request above which it is flagged.
    package static let limit = RuleSetting.count(
        "thresholds", "slowImageMilliseconds", help: "slow-image fires when one request holds the main thread this many milliseconds",
        \.thresholds.slowImageMilliseconds)
    package static var settings: [RuleSetting] { [limit] }
    package static let examples: [RuleExample] = [
        RuleExample(
            "a 40 ms lookup on the main thread", images: [.init("hero@3x.jpg", 1200, 2400)],
            loads: [.timed("hero", microseconds: 40_000)], fires: true),
        RuleExample(
            "the same lookup on a background thread", images: [.init("hero@3x.jpg", 1200, 2400)],
            loads: [.timed("hero", microseconds: 40_000, thread: "loader 4242")], fires: false),
        RuleExample(
            "twelve quick lookups of one name", images: [.init("star@3x.png", 60, 60)],
            loads: Array(repeating: .timed("star", microseconds: 2_000), count: 12), fires: false),
        RuleExample("a log that does not time its requests", images: [.init("hero@3x.jpg", 1200, 2400)], loads: [.named("hero")], fires: false),
    ]

    package static func finding(for use: NameUse, in context: NameRuleContext) -> Finding? {
        let time = use.launchTime
        let limit = context.config.thresholds.slowImageMilliseconds
        guard time.longestMainThreadMicroseconds > FigureUnit.microseconds.figure(fromSetting: limit) else { return nil }
        let name = use.displayName
        let longest = ImageTime.milliseconds(time.longestMainThreadMicroseconds)
        var message: Phrase = "\(code: name) held the main thread for \(longest) in one request at launch, over \(limit) ms"
        if time.timedLoads > 1 {
            message.append(" (\(time.timedLoads) timed requests, \(ImageTime.milliseconds(time.mainThreadMicroseconds)) on the main thread together)")
        }
        let fix: FixKind = use.isToolkits ? .toolkitSlow : .decodeOffMainThread
        var finding = Finding(
            rule: id, severity: use.isToolkits ? .note : defaultSeverity, identity: use.findingIdentity, device: context.device.fingerprintKey,
            subject: name, message: message, fix: fix,
            names: use.name.map { [$0] } ?? [], assets: use.resolution.image.map { [$0.id] } ?? [],
            paths: use.resolution.image.map { [$0.path] } ?? [], lines: use.launchLines,
            values: [
                "longestMainThreadMicroseconds": .int(time.longestMainThreadMicroseconds), "mainThreadMicroseconds": .int(time.mainThreadMicroseconds),
                "limitMilliseconds": .int(limit),
            ], occurrences: time.timedLoads)
        finding.gates = !use.isToolkits
        return finding
    }
}
