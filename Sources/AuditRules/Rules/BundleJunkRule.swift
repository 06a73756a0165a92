import AuditModel
import AuditPolicy

/// Files that should never ship in a bundle.
package enum BundleJunkRule: AuditRule {
    package static let id = "bundle-junk"
    package static let summary = "`.DS_Store`, `__MACOSX`, `Thumbs.db` or AppleDouble `._` files inside the bundle."
    package static let defaultSeverity = Severity.warning
    package static let parameters = "none"
    package static let examples: [RuleExample] = [
        RuleExample("a .DS_Store", images: [], loads: [], junk: ["Images/.DS_Store"], fires: true),
        RuleExample("a clean bundle", images: [.init("tab@3x.png", 75, 75)], loads: [.named("tab")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        context.inventory.junk.map { path in
            Finding(
                rule: id, severity: defaultSeverity, identity: path, device: "", subject: path,
                message: "\(code: path) should not ship in the bundle", fix: .excludeFromBundle,
                paths: [path])
        }
    }
}
