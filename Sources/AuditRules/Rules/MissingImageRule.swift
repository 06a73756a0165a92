import AuditModel
import AuditPolicy

/// A name that resolves to nothing the app, its nested bundles or the system images hold.
package enum MissingImageRule: NameRule {
    package static let id = "missing-image"
    package static let summary = "A name that resolves to nothing in the app, its frameworks or the given system images, with the likely cause."
    package static let defaultSeverity = Severity.error
    package static let isFixedInCode = true
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

    package static func finding(for use: NameUse, in context: NameRuleContext) -> Finding? {
        let resolution = use.resolution
        guard resolution.image == nil, resolution.cause?.isNotTheApps != true else { return nil }
        let fix: FixKind
        switch resolution.cause {
        case .caseDiffers: fix = .matchCase
        case .needsExtension: fix = .passExtension
        case .scaleInName: fix = .dropScaleSuffix
        case .otherIdiom: fix = .addIdiomVariant(idiom: "\(context.device.idiom)")
        case .namespace: fix = .useCatalogNamespace
        case .nilName, .emptyName: fix = .findNilName
        case .notInCatalog: fix = .moveIntoCatalogForSwiftUI
        default: fix = .addImageOrRemoveLoad
        }
        let toolkits = use.isToolkits
        var finding = Finding(
            rule: id, severity: toolkits ? .note : defaultSeverity, identity: use.findingIdentity, device: context.device.fingerprintKey,
            subject: use.displayName,
            message: "\(code: use.displayName) loads nothing (\(use.launchLoads)× at launch\(toolkits ? ", by the toolkit's own code" : "")): \(resolution.how)",
            fix: toolkits ? .toolkitMissing(systemImagesGiven: !context.systemBundles.isEmpty) : fix, names: use.name.map { [$0] } ?? [], lines: use.launchLines,
            values: ["loads": .int(use.launchLoads), "cause": .string((resolution.cause ?? .notFound).rawValue)],
            occurrences: use.launchLoads)
        finding.gates = !toolkits
        return finding
    }
}
