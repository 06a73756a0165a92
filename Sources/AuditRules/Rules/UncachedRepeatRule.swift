import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// The same file read more than once through an API that does not cache.
package enum UncachedRepeatRule: AuditRule {
    package static let id = "uncached-repeat"
    package static let summary = "The same file loaded more than once through imageWithContentsOfFile: or initWithContentsOfFile:; each load reads and decodes it again."
    package static let defaultSeverity = Severity.warning
    package static let isFixedInCode = true
    package static let parameters = "none"
    package static let examples: [RuleExample] = [
        RuleExample(
            "one path read twice", images: [.init("hero@3x.jpg", 1200, 800)],
            loads: [
                .path("/var/containers/Bundle/Application/X/Example.app/hero@3x.jpg"),
                .path("/var/containers/Bundle/Application/X/Example.app/hero@3x.jpg"),
            ], fires: true),
        RuleExample(
            "the same name through imageNamed:", images: [.init("hero@3x.png", 1200, 800)],
            loads: [.named("hero"), .named("hero")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        context.usesByImage.compactMap { image, uses -> Finding? in
            let uncached = uses.filter { $0.kind == .path }
            let count = uncached.reduce(0) { $0 + $1.maxLaunchLoadsPerLog }
            guard count >= 2 else { return nil }
            let decoded = image.decodedBytes ?? 0
            let cost = decoded.multipliedReportingOverflow(by: count - 1).partialValue
            return context.finding(
                self, image: image, uses: uncached, subject: PathText.fileName(image.path),
                quoted: "\(code: PathText.fileName(image.path))", claim: "is read from disk \(count) times in one launch: up to \(kibibytes(cost)) decoded again",
                fix: .keepLoadedImage,
                values: ["loads": .int(count), "decodedBytes": .int(decoded)], cost: cost)
        }
    }
}
