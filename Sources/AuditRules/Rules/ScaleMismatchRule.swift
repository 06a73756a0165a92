import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// A bitmap whose scale is not the device's: upscaled (blurry) or downscaled (wasted memory).
package enum ScaleMismatchRule: AuditRule {
    package static let id = "scale-mismatch"
    package static let summary = "The device's scale has no variant, so a lower scale is upscaled (blurry) or only a higher scale exists (memory wasted)."
    package static let defaultSeverity = Severity.warning
    package static let parameters = "the device's scale (`--device`); UIKit bundles only"
    package static let examples: [RuleExample] = [
        RuleExample("only @2x on a @3x phone", images: [.init("tab@2x.png", 50, 50)], loads: [.named("tab")], fires: true),
        RuleExample("@3x on a @3x phone", images: [.init("tab@2x.png", 50, 50), .init("tab@3x.png", 75, 75)], loads: [.named("tab")], fires: false),
        RuleExample(
            "the @2x file loaded by its path on a @3x phone, its @3x beside it: the load is the fault, not a missing variant",
            images: [.init("step@2x.png", 50, 50), .init("step@3x.png", 75, 75)], loads: [.named("step@2x.png")], fires: true),
        RuleExample(
            "a @1x photo larger than the screen: shown scaled down, never upscaled (oversized-pixels says so)",
            images: [.init("hero.jpg", 4032, 3024)], loads: [.named("hero.jpg")], fires: false),
    ]

    /// A load of one file rather than a name UIKit picks a variant for: a path (`imageWithContentsOfFile:`,
    /// a folder), or a file name with its scale or device and extension (`tab@3x.png`).
    package static func isPathLoad(_ use: NameUse) -> Bool {
        guard let name = use.name else { return false }
        if use.kind == .path || name.contains("/") { return true }
        let parsed = LooseImageName(fileName: name)
        return !parsed.fileExtension.isEmpty && parsed.base + "." + parsed.fileExtension != name
    }

    package static func check(_ context: RuleContext) -> [Finding] {
        let scale = context.device.scale
        // Loose files at the device's scale, by bundle and name: what a path load passes over.
        var deviceScaleFiles: [String: String] = [:]
        for image in context.inventory.images where image.source == .file && image.scale == scale {
            deviceScaleFiles[image.bundle + "\u{0}" + image.name] = PathText.lastComponent(image.path)
        }
        // A catalog thinned for another scale lost its other variants on purpose: no finding about them.
        let thinnedElsewhere = Set(context.inventory.thinning.filter { $0.scale != scale }.map(\.file))
        return context.usesByImage.compactMap { image, uses -> Finding? in
            guard image.scale > 0, image.scale != scale, !image.isVector, context.isUIKit(image) else { return nil }
            if image.source == .assetCatalog, thinnedElsewhere.contains(image.path) { return nil }
            let decoded = image.decodedBytes ?? 0
            let upscaled = image.scale < scale
            // Loaded by its path (`…/tab@3x.png`) while the device's own variant ships beside it:
            // the code chose the file, so no variant is missing; the load is what to change.
            if image.source == .file, uses.allSatisfy(isPathLoad), let sibling = deviceScaleFiles[image.bundle + "\u{0}" + image.name] {
                let ideal = Double(decoded) * Double(scale * scale) / Double(image.scale * image.scale)
                return context.finding(
                    self, image: image, uses: uses,
                    claim: "is loaded by its path as the @\(image.scale)x file on a @\(scale)x screen, though \(code: sibling) ships beside it:"
                        + " the code names the file, so the device's variant is never picked",
                    fix: .loadByName(name: image.name, deviceScale: scale),
                    values: ["imageScale": .int(image.scale), "deviceScale": .int(scale), "kind": .string("file")],
                    cost: upscaled ? 0 : max(0, decoded - Int(ideal)))
            }
            // An image larger than the screen is shown scaled down: calling it upscaled and blurry
            // would contradict oversized-pixels about the same picture.
            if upscaled, OversizedPixelsRule.exceedsScreen(image, context) { return nil }
            let claim: Phrase =
                upscaled
                ? "is @\(image.scale)x on a @\(scale)x screen: no @\(scale)x variant, so it is upscaled and blurry"
                : "is @\(image.scale)x on a @\(scale)x screen: only a higher scale exists, so it is decoded larger than shown"
            // Decoded bytes beyond what the device's own scale would need.
            let ideal = Double(decoded) * Double(scale * scale) / Double(image.scale * image.scale)
            return context.finding(
                self, image: image, uses: uses, claim: claim,
                fix: upscaled ? .addScaleVariantOrVector(scale: scale) : .addScaleVariant(scale: scale),
                values: ["imageScale": .int(image.scale), "deviceScale": .int(scale)],
                cost: upscaled ? 0 : max(0, decoded - Int(ideal)))
        }
    }
}
