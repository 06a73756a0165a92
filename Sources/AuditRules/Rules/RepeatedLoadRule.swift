import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// The same name looked up more than once in one launch through a caching API.
package enum RepeatedLoadRule: NameRule {
    package static let id = "repeated-load"
    package static let summary = "The same name loaded more than once in one launch; imageNamed: caches, so each repeat is a cheap lookup, but a sign of per-cell or per-view work."
    package static let defaultSeverity = Severity.note
    package static let isFixedInCode = true
    package static let parameters = "warning at `\(warningAt.path)` lookups (default \(warningAt.defaultText))"
    /// From this many lookups of one name in one launch, a repeat is a warning.
    package static let warningAt = RuleSetting.count(
        "thresholds", "repeatedLoadWarning", help: "repeated-load becomes a warning at this many lookups of one name in one launch",
        \.thresholds.repeatedLoadWarning)
    package static var settings: [RuleSetting] { [warningAt] }
    package static let examples: [RuleExample] = [
        RuleExample(
            "a name looked up three times", images: [.init("star@3x.png", 60, 60)],
            loads: [.named("star"), .named("star"), .named("star")], fires: true),
        RuleExample(
            "two different names once each", images: [.init("star@3x.png", 60, 60), .init("moon@3x.png", 60, 60)],
            loads: [.named("star"), .named("moon")], fires: false),
        RuleExample(
            "a cell nib instantiated per row asks for its image per row", images: [.init("Assets.car#Placeholder@3x", 60, 60)],
            loads: [.request("Placeholder", .nib), .request("Placeholder", .nib), .request("Placeholder", .nib)], fires: true),
        RuleExample(
            "an image re-decoded on two trait changes", images: [.init("Assets.car#header@3x", 300, 90)],
            loads: [.request("header", .trait), .request("header", .trait)], fires: true),
        RuleExample(
            "an SF Symbol asked for twice: system artwork, not the app's", images: [],
            loads: [.request("star.fill", .symbol), .request("star.fill", .symbol)], fires: false),
    ]

    /// The kinds of request whose repeats this rule judges (SF Symbols and data are not the app's images).
    private static let judged: Set<RequestKind> = [.name, .catalog, .trait]

    package static func finding(for use: NameUse, in context: NameRuleContext) -> Finding? {
        guard judged.contains(use.kind), use.status == .ok, use.maxLaunchLoadsPerLog >= 2, let name = use.name else { return nil }
        let count = use.maxLaunchLoadsPerLog
        let severity: Severity = count >= context.config.thresholds.repeatedLoadWarning ? .warning : defaultSeverity
        let decoded = use.resolution.image?.decodedBytes.map { " (\(kibibytes($0)) each)" } ?? ""
        let message: Phrase
        let fix: FixKind
        if use.isToolkits {
            message = "\(code: name) is looked up \(count) times in one launch, by the toolkit's own code"
            fix = .toolkitRepeats
        } else if use.resolution.image.map(context.isSystem) == true {
            message = "\(code: name) is looked up \(count) times in one launch"
            fix = .systemImageRepeats
        } else if use.kind == .trait {
            // Not a cache hit: the image asset decodes its image again for the new traits.
            message = "\(code: name) is decoded again \(count) times on trait changes in one launch\(decoded)"
            fix = .keepOneImageAcrossTraits
        } else if use.kind == .catalog {
            message = "\(code: name) is looked up in the asset catalog \(count) times in one launch (SwiftUI's `Image`)"
            fix = .buildImageOutsideViewBody
        } else {
            let hits = count == 2 ? "1 cache hit" : "\(count - 1) cache hits"
            var what = "one decode and \(hits)"
            if let image = use.resolution.image, let bytes = image.decodedBytes { what = "one decode (\(kibibytes(bytes))) and \(hits)" }
            if use.resolution.image == nil { what = "each one a failed search" }
            if Int(use.nibLaunchLoads) * 2 >= use.launchLoads {
                message = "\(code: name) is looked up \(count) times in one launch by nibs or storyboards: \(what)"
                fix = .reuseNibInstances
            } else {
                message = "\(code: name) is looked up \(count) times in one launch: \(what)"
                fix = .lookUpOnce
            }
        }
        var finding = Finding(
            rule: id, severity: use.isToolkits ? .note : severity, identity: use.findingIdentity, device: context.device.fingerprintKey,
            subject: name, message: message, fix: fix,
            names: [name], assets: use.resolution.image.map { [$0.id] } ?? [],
            paths: use.resolution.image.map { [$0.path] } ?? [], lines: use.launchLines,
            values: ["loads": .int(count)], occurrences: count)
        finding.gates = !use.isToolkits
        return finding
    }
}
