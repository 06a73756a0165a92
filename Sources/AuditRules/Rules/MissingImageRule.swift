import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// A name that resolves to nothing the app, its nested bundles or the system images hold.
package enum MissingImageRule: NameRule {
    package static let id = "missing-image"
    package static let summary = "A name that resolves to nothing in the app, its frameworks or the given system images, with the likely cause."
    package static let defaultSeverity = Severity.error
    package static let parameters = "none; paths outside the bundle (documents, caches) are listed, not flagged"
    package static let examples: [RuleExample] = [
        RuleExample("a name nothing ships", images: [.init("logo@3x.png", 300, 90)], loads: [.named("Logo2")], fires: true),
        RuleExample("case differs from the file", images: [.init("Logo@3x.png", 300, 90)], loads: [.named("logo")], fires: true),
        RuleExample("a JPEG asked for without its extension", images: [.init("photo.jpg", 800, 600)], loads: [.named("photo")], fires: true),
        RuleExample("a nil name", images: [], loads: [.nilName], fires: true),
        RuleExample("a PNG asked for without its extension", images: [.init("logo@3x.png", 300, 90)], loads: [.named("logo")], fires: false),
        RuleExample("a catalog image", images: [.init("Assets.car#logo@3x", 300, 90)], loads: [.named("logo")], fires: false),
        RuleExample(
            "SwiftUI's Image of a loose file: CoreUI looks in asset catalogs only", images: [.init("hero@3x.png", 300, 90)],
            loads: [.request("hero", .swiftui)], fires: true),
        RuleExample("SwiftUI's Image of a catalog image", images: [.init("Assets.car#hero@3x", 300, 90)], loads: [.request("hero", .swiftui)], fires: false),
        RuleExample("an SF Symbol: system artwork, never missing from the app", images: [], loads: [.request("star.fill", .symbol)], fires: false),
        RuleExample("a data asset: not an image", images: [], loads: [.request("onboarding", .data)], fires: false),
        RuleExample(
            "GNUstep's cursor code asks for GSArrowCursor: a note that never fails the app (`toolkit.names`)", images: [],
            loads: [.named("GSArrowCursor")], fires: true),
    ]

    /// The fix of a name only the toolkit's own code asked for: not the app's to change.
    package static let toolkitFix =
        "Nothing to change in the app: the toolkit's own code asked for it (no app frame in the backtrace, or a name in `toolkit.names`); --system-images with the toolkit's images resolves it."

    /// The same when the toolkit's images were given and this one is not among them.
    package static let toolkitFixWithSystemImages =
        "Nothing to change in the app: the toolkit's own code asked for it (no app frame in the backtrace, or a name in `toolkit.names`), and the --system-images folders given do not hold it either."

    package static func finding(for use: NameUse, in context: NameRuleContext) -> Finding? {
        let resolution = use.resolution
        guard resolution.image == nil, resolution.cause?.isNotTheApps != true else { return nil }
        let fix: String
        switch resolution.cause {
        case .caseDiffers: fix = "Match the name's case to the asset's exactly."
        case .needsExtension: fix = "Pass the file extension, or move the image into an asset catalog."
        case .scaleInName: fix = "Ask for the name without the scale or device suffix."
        case .otherIdiom: fix = "Add a universal or \(context.device.idiom) variant."
        case .namespace: fix = "Use the name with the catalog folder's namespace, or turn the namespace off."
        case .nilName, .emptyName: fix = "Find the code path that passes no name (the log lines show where in the launch)."
        case .notInCatalog: fix = "Move the image into an asset catalog: SwiftUI's `Image(\"name\")` and trait changes look nowhere else."
        default: fix = "Add the image to the app, or remove the load."
        }
        let toolkits = use.isToolkits
        var finding = Finding(
            rule: id, severity: toolkits ? .note : defaultSeverity, identity: use.findingIdentity, device: context.device.fingerprintKey,
            subject: use.displayName,
            message: "\(SafeText.quoted(use.displayName)) loads nothing (\(use.launchLoads)× at launch\(toolkits ? ", by the toolkit's own code" : "")): \(resolution.how)",
            fix: toolkits ? (context.systemBundles.isEmpty ? toolkitFix : toolkitFixWithSystemImages) : fix, names: use.name.map { [$0] } ?? [], lines: use.launchLines,
            values: ["loads": .int(use.launchLoads), "cause": .string((resolution.cause ?? .notFound).rawValue)],
            occurrences: use.launchLoads)
        finding.gates = !toolkits
        return finding
    }
}
