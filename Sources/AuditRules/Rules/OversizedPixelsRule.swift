import AppBundle
import AuditModel
import AuditPolicy

/// An image larger, in points, than the device's screen in both orientations.
package enum OversizedPixelsRule: AuditRule {
    package static let id = "oversized-pixels"
    package static let summary = "An image whose size in points exceeds the device screen in both orientations; it is decoded at full size and scaled down."
    package static let defaultSeverity = Severity.warning
    package static let parameters = "`\(tolerance.path)` (fraction of the screen, default \(tolerance.defaultText))"
    /// How much larger than the screen an image may be.
    package static let tolerance = RuleSetting.fraction(
        "thresholds", "oversizedTolerance", help: "oversized-pixels allows an image this fraction larger than the screen (0.1 = 10%)",
        \.thresholds.oversizedTolerance)
    package static var settings: [RuleSetting] { [tolerance] }
    package static let examples: [RuleExample] = [
        RuleExample("a 4000×3000 photo at @3x", images: [.init("hero@3x.jpg", 4000, 3000)], loads: [.named("hero@3x.jpg")], fires: true),
        RuleExample("a full-screen background", images: [.init("bg@3x.png", 1320, 2868)], loads: [.named("bg")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        let device = context.device
        return context.usesByImage.compactMap { image, uses -> Finding? in
            guard exceedsScreen(image, context), let w = image.pixelWidth, let h = image.pixelHeight else { return nil }
            let pw = Double(w) / Double(image.scale), ph = Double(h) / Double(image.scale)
            let decoded = image.decodedBytes ?? 0
            let screen = device.fullScreenBytes
            return context.finding(
                self, image: image, uses: uses,
                claim:
                    "is \(pixelText(image)) at @\(image.scale)x (\(Int(saturating: pw))×\(Int(saturating: ph)) pt), larger than the \(device.pointWidth)×\(device.pointHeight) pt screen either way",
                fix: .shipAtShownSize,
                values: [
                    "pixelWidth": .int(w), "pixelHeight": .int(h), "pointWidth": .number(pw), "pointHeight": .number(ph),
                    "decodedBytes": .int(decoded),
                ],
                cost: max(0, decoded - screen))
        }
    }

    /// Whether the bitmap's size in points exceeds the screen in both orientations (with the
    /// configured tolerance): it is shown scaled down, whatever its scale.
    package static func exceedsScreen(_ image: BundleImage, _ context: RuleContext) -> Bool {
        guard !image.isVector, image.scale > 0, let w = image.pixelWidth, let h = image.pixelHeight else { return false }
        let device = context.device
        let tolerance = 1 + context.config.thresholds.oversizedTolerance
        let short = Double(min(device.pointWidth, device.pointHeight)) * tolerance
        let long = Double(max(device.pointWidth, device.pointHeight)) * tolerance
        let pw = Double(w) / Double(image.scale), ph = Double(h) / Double(image.scale)
        return !((pw <= short && ph <= long) || (pw <= long && ph <= short))
    }
}
