import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// Different names that load byte-identical content.
package enum DuplicateContentRule: AuditRule {
    package static let id = "duplicate-content"
    package static let summary = "Different names loaded at launch that resolve to byte-identical content; each name is cached and decoded on its own."
    package static let defaultSeverity = Severity.warning
    package static let parameters = "none"
    package static let examples: [RuleExample] = [
        RuleExample(
            "one picture shipped twice", images: [.init("like@3x.png", 90, 90, digest: "aa"), .init("heart@3x.png", 90, 90, digest: "aa")],
            loads: [.named("like"), .named("heart")], fires: true),
        RuleExample(
            "one file under two spellings", images: [.init("like@3x.png", 90, 90)],
            loads: [.named("like"), .named("like.png")], fires: true),
        RuleExample(
            "two different pictures", images: [.init("like@3x.png", 90, 90, digest: "aa"), .init("heart@3x.png", 90, 90, digest: "bb")],
            loads: [.named("like"), .named("heart")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        var groups: [String: [(image: BundleImage, uses: [NameUse])]] = [:]
        for (image, uses) in context.usesByImage {
            groups[image.digest.map { "digest:" + $0 } ?? "id:" + image.id, default: []].append((image, uses))
        }
        return groups.keys.sorted().compactMap { key -> Finding? in
            let members = groups[key]!
            let uses = members.flatMap(\.uses)
            let names = uses.compactMap(\.name)
            // Names the system maps to one cache entry (GNUstep's nsmapping) share one decode.
            let cached = Set(uses.map { $0.resolution.cacheName ?? $0.name ?? "" })
            guard Set(names).count >= 2, cached.count >= 2 else { return nil }
            let images = members.map(\.image)
            // Every name after the first is decoded and cached on its own.
            let decoded = images.first?.decodedBytes ?? 0
            let cost = decoded.multipliedReportingOverflow(by: cached.count - 1).partialValue
            let shown = Phrase.joined(names.sorted().map { "\(code: $0)" }, separator: ", ")
            let identity = images.map(\.id).sorted().joined(separator: "|") + "|" + names.sorted().joined(separator: "|")
            // When the toolkit's own code asks for all but one of the names, the app has no second spelling to drop.
            let appNames = Set(uses.filter { !$0.isToolkits }.compactMap(\.name))
            let toolkits = appNames.count < 2
            var finding = Finding(
                rule: id, severity: toolkits ? .note : defaultSeverity, identity: identity, device: context.device.fingerprintKey,
                message: "\(shown) load the same content (\(pixelText(images[0])), \(kibibytes(decoded)) decoded) under \(Set(names).count) names",
                fix: toolkits
                    ? .toolkitDuplicates(appNamedOne: !appNames.isEmpty)
                    : images.allSatisfy(context.isSystem) ? .toolkitImagesDuplicate : images.count > 1 ? .shipPictureOnce : .useOneSpelling,
                names: names, assets: images.map(\.id), paths: images.map(\.path), lines: uses.flatMap(\.launchLines),
                values: ["names": .int(Set(names).count), "decodedBytes": .int(decoded)], cost: cost,
                occurrences: uses.reduce(0) { $0 + $1.launchLoads })
            finding.gates = !toolkits
            return finding
        }
    }
}
