import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// An image file that is big on disk.
package enum LargeFileRule: AuditRule {
    package static let id = "large-file"
    package static let summary = "An image loaded at launch whose bytes on disk exceed a threshold: it is read and inflated before the first frame."
    package static let defaultSeverity = Severity.note
    package static let parameters = "`\(limit.path)` (default \(limit.defaultText), \(limit.defaultCount / 1024) KiB)"
    /// Bytes on disk above which a file is flagged.
    package static let limit = RuleSetting.count(
        "thresholds", "largeFileBytes", help: "large-file fires above this many bytes on disk", \.thresholds.largeFileBytes)
    package static var settings: [RuleSetting] { [limit] }
    package static let examples: [RuleExample] = [
        RuleExample("a 2 MiB JPEG", images: [.init("photo.jpg", 2000, 1500, bytes: 2 << 20)], loads: [.named("photo.jpg")], fires: true),
        RuleExample("a 40 KiB PNG", images: [.init("logo@3x.png", 300, 90, bytes: 40 << 10)], loads: [.named("logo")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        let limit = context.config.thresholds.largeFileBytes
        return context.usesByImage.compactMap { image, uses -> Finding? in
            guard image.bytesOnDisk > limit else { return nil }
            return context.finding(
                self, image: image, uses: uses,
                claim: "is \(kibibytes(image.bytesOnDisk)) on disk, over \(kibibytes(limit))",
                fix: .recompress,
                values: ["bytesOnDisk": .int(image.bytesOnDisk), "limitBytes": .int(limit)], cost: image.bytesOnDisk)
        }
    }
}
