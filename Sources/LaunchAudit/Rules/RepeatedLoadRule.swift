import AppBundle
import ImgtraceSupport

/// The same name looked up more than once in one launch through a caching API.
public enum RepeatedLoadRule: AuditRule {
    public static let id = "repeated-load"
    public static let summary = "The same name loaded more than once in one launch; imageNamed: caches, so each repeat is a cheap lookup, but a sign of per-cell or per-view work."
    public static let defaultSeverity = Severity.note
    public static let parameters = "warning at `thresholds.repeatedLoadWarning` lookups (default 10)"
    public static let examples: [RuleExample] = [
        RuleExample(
            "a name looked up three times", images: [.init("star@3x.png", 60, 60)],
            loads: [.named("star"), .named("star"), .named("star")], fires: true),
        RuleExample(
            "two different names once each", images: [.init("star@3x.png", 60, 60), .init("moon@3x.png", 60, 60)],
            loads: [.named("star"), .named("moon")], fires: false),
    ]

    public static func check(_ context: RuleContext) -> [Finding] {
        context.uses.compactMap { use -> Finding? in
            guard use.kind == .name, use.status == .ok, use.maxLaunchLoadsPerLog >= 2, let name = use.name else { return nil }
            let count = use.maxLaunchLoadsPerLog
            let severity: Severity = count >= context.config.thresholds.repeatedLoadWarning ? .warning : defaultSeverity
            let hits = count == 2 ? "1 cache hit" : "\(count - 1) cache hits"
            var what = "one decode and \(hits)"
            if let image = use.resolution.image, let decoded = image.decodedBytes { what = "one decode (\(kibibytes(decoded))) and \(hits)" }
            if use.resolution.image == nil { what = "each one a failed search" }
            return Finding(
                rule: id, severity: severity, identity: name, device: context.device.id,
                message: "\(SafeText.quoted(name)) is looked up \(count) times in one launch: \(what)",
                fix: use.resolution.image.map(context.isSystem) == true
                    ? "A system image, most likely asked for by the toolkit's own code (menus, cursors): nothing to change unless the app's code asks for it."
                    : "Look the image up once (a static or a property) instead of per cell or per view.",
                names: [name], assets: use.resolution.image.map { [$0.id] } ?? [],
                paths: use.resolution.image.map { [$0.path] } ?? [], lines: use.launchLines,
                values: ["loads": .int(count)], occurrences: count)
        }
    }
}
