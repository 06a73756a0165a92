import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// An image loaded from a loose file rather than an asset catalog.
package enum LooseImageRule: AuditRule {
    package static let id = "loose-image"
    package static let summary = "Loaded from a loose file rather than an asset catalog: app thinning cannot drop the other scales, so every device downloads them all."
    package static let defaultSeverity = Severity.note
    package static let parameters = "UIKit bundles only (macOS and GNUstep apps are not thinned)"
    package static let examples: [RuleExample] = [
        RuleExample("a loose PNG", images: [.init("tab@3x.png", 75, 75)], loads: [.named("tab")], fires: true),
        RuleExample("a catalog image", images: [.init("Assets.car#tab@3x", 75, 75)], loads: [.named("tab")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        let siblings = Dictionary(grouping: context.inventory.images.filter { $0.source == .file }, by: { "\($0.bundle)\u{0}\($0.name)" })
        return context.usesByImage.compactMap { image, uses -> Finding? in
            guard image.source == .file, context.isUIKit(image) else { return nil }
            let variants = siblings["\(image.bundle)\u{0}\(image.name)"] ?? [image]
            let shipped = variants.map(\.bytesOnDisk).saturatingSum()
            return context.finding(
                self, image: image, uses: uses, subject: image.name,
                quoted: "\(code: image.name)", claim: "is a loose file (\(counted(variants.count, "variant")), \(kibibytes(shipped)) shipped to every device)",
                fix: .moveIntoCatalog,
                values: ["variants": .int(variants.count), "bytesShipped": .int(shipped)], cost: shipped - image.bytesOnDisk)
        }
    }
}
