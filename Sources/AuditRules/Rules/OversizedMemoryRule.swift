import AuditModel
import AuditPolicy
import ImgtraceSupport

/// An image whose decoded pixels take more memory than the threshold.
package enum OversizedMemoryRule: AuditRule {
    package static let id = "oversized-memory"
    package static let summary = "Decoded size (width × height × bytes per pixel) above a threshold: by default one full screen of the device."
    package static let defaultSeverity = Severity.warning
    package static let parameters = "`\(limit.path)` (default: \(limit.defaultText))"
    /// Decoded bytes above which an image is flagged; unset, one full screen of the device.
    package static let limit = RuleSetting.count(
        "thresholds", "oversizedMemoryBytes", unset: "the device's full screen at 4 bytes per pixel",
        help: "oversized-memory fires above this many decoded bytes", \.thresholds.oversizedMemoryBytes)
    package static var settings: [RuleSetting] { [limit] }
    package static let examples: [RuleExample] = [
        RuleExample("a 4K hero image (31.6 MiB decoded)", images: [.init("hero@3x.png", 3840, 2160)], loads: [.named("hero")], fires: true),
        RuleExample("an icon", images: [.init("icon@3x.png", 180, 180)], loads: [.named("icon")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        let limit = context.config.thresholds.oversizedMemoryBytes ?? context.device.fullScreenBytes
        return context.usesByImage.compactMap { image, uses -> Finding? in
            guard let decoded = image.decodedBytes, decoded > limit else { return nil }
            return context.finding(
                self, image: image, uses: uses,
                claim: "decodes to \(kibibytes(decoded)) (\(pixelText(image))), over the \(kibibytes(limit)) limit",
                fix: .downsample,
                values: ["decodedBytes": .int(decoded), "limitBytes": .int(limit)], cost: decoded)
        }
    }
}
