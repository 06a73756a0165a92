import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
import CodeReferences
import ImgtraceSupport

/// A verdict of `imgtrace unused` as a rule: each image judged so becomes one of its findings.
package protocol UnusedRule: DescribedRule {
    /// The verdict whose images it reports.
    static var verdict: UnusedImages.Verdict { get }
    /// The finding about one image judged `verdict`, for `device`; `code` says how much of a
    /// source tree was searched (`--source-root`), if any.
    static func finding(for asset: UnusedImages.Asset, device: DeviceProfile, code: CodeSearch) -> Finding
}

/// How much source code a verdict rests on.
package enum CodeSearch: Sendable, Equatable {
    /// No `--source-root`: only the built app was read.
    case notSearched
    /// Every source file was read.
    case searched
    /// These files could not be read: what they name is unknown.
    case searchedExcept(unread: [String])

    /// The search a code index stands for (nil: no source tree).
    package init(_ index: CodeIndex?) {
        guard let index else {
            self = .notSearched
            return
        }
        let unread = index.partlyRead.compactMap { partly -> String? in
            if case .unread = partly.reason { return partly.file }
            return nil
        }
        self = unread.isEmpty ? .searched : .searchedExcept(unread: unread)
    }
}

/// `A, B and 5,998 more`: a list a reader can take in, however many targets share a phase.
private func shortList(_ names: [String], upTo limit: Int) -> String {
    guard names.count > limit else { return names.joined(separator: ", ") }
    return names.prefix(limit).joined(separator: ", ") + " and \(names.count - limit) more"
}

extension UnusedRule {
    package static var defaultSeverity: Severity { verdict.severity ?? .note }

    /// The finding every verdict shares: the image, its files and bytes, what kept it; the
    /// identity is the image set (bundle and name), the same on every device and launch.
    package static func finding(for asset: UnusedImages.Asset, device: DeviceProfile, claim: Phrase, fix: FixKind) -> Finding {
        let download = asset.inCatalog ? ", \(kibibytes(asset.deviceBytes)) downloaded by \(device.id)" : ""
        let shippedBy = asset.targets.isEmpty ? "" : "; shipped by \(shortList(asset.targets, upTo: 5))"
        var finding = Finding(
            rule: id, severity: defaultSeverity, identity: asset.bundle + "\u{0}" + asset.name, device: "", subject: asset.name,
            message: "\(code: asset.name) \(claim) (\(counted(asset.paths.count, "file")), \(kibibytes(asset.bytesOnDisk)) in the app\(download)\(shippedBy))",
            fix: fix, names: [asset.name], assets: asset.imageIDs, paths: asset.paths,
            values: [
                "bytesOnDisk": .int(asset.bytesOnDisk), "deviceBytes": .int(asset.deviceBytes),
                "keptBy": .string(asset.keptBy.first?.text ?? ""),
            ],
            cost: asset.bytesOnDisk)
        finding.claim = claim
        if !asset.targets.isEmpty {
            finding.values["targets"] = .string(shortList(asset.targets, upTo: 20))
            finding.values["targetCount"] = .int(asset.targets.count)
        }
        // The code that keeps it is where a reader checks the verdict.
        for evidence in asset.keptBy {
            switch evidence {
            case .code(let reference), .pattern(let reference):
                finding.code = SourceLocation(path: reference.file, position: TextPosition(line: reference.line, column: reference.column))
            default: continue
            }
            break
        }
        return finding
    }
}

/// Shipped, and nothing names it: no code, interface file, plist or launch.
package enum UnusedImageRule: UnusedRule {
    package static let id = UnusedImages.Verdict.unused.rawValue
    package static let verdict = UnusedImages.Verdict.unused
    package static let summary = "Shipped, but no code, interface file, plist or catalog names it, no name built at run time fits it and no given launch loads it."
    package static let parameters = "Conservative: a string literal equal to its name anywhere, a generated symbol of it or a fitting pattern keeps it"
    package static let examples: [RuleExample] = [
        RuleExample(
            "a catalog image nothing names", images: [.init("Assets.car#old_banner@3x", 300, 90)], loads: [],
            sources: [.init("Feed.swift", "let tab = UIImage(named: \"tab\")\n")], fires: true),
        RuleExample(
            "named through Xcode's generated asset symbol", images: [.init("Assets.car#tab_home@3x", 75, 75)], loads: [],
            sources: [.init("Tabs.swift", "let icon = Image(.tabHome)\n")], fires: false),
        RuleExample(
            "a name built at run time fits it", images: [.init("Assets.car#flag_fr@3x", 60, 40)], loads: [],
            sources: [.init("Flags.swift", "func flag(_ code: String) -> UIImage? { UIImage(named: \"flag_\\(code)\") }\n")], fires: false),
        RuleExample(
            "named only by an Objective-C string literal", images: [.init("Assets.car#badge@3x", 30, 30)], loads: [],
            sources: [.init("Badge.m", "NSString *const kBadge = @\"badge\";\n")], fires: false),
    ]

    package static func finding(for asset: UnusedImages.Asset, device: DeviceProfile, code: CodeSearch) -> Finding {
        switch code {
        case .notSearched:
            // Without the sources, Swift's short literals (inlined in the machine code) go unseen:
            // a candidate to check, not a verdict to fail a build on.
            var candidate = finding(
                for: asset, device: device,
                claim: "is shipped, and no nib, plist, catalog or string in the app's executables names it and no launch loads it; the source code was not searched",
                fix: .searchCodeFirst)
            candidate.severity = .note
            return candidate
        case .searchedExcept(let unread):
            // A file that was not read may name it: not judged, and not a verdict to fail on.
            let files: Phrase = "\(Phrase.joined(unread.prefix(3).map { "\(code: $0)" }, separator: ", "))\(unread.count > 3 ? " and \(unread.count - 3) more" : "")"
            var candidate = finding(
                for: asset, device: device,
                claim: "is shipped and nothing that was read names it, but \(counted(unread.count, "source file")) could not be read (\(files)): not judged",
                fix: .makeSourcesReadable)
            candidate.severity = .note
            return candidate
        case .searched:
            break
        }
        return finding(
            for: asset, device: device, claim: "is shipped but never used: nothing names it and no launch loads it",
            fix: .deleteUnusedImage)
    }
}

/// Loaded at run time, with no static reference: what a static tool would wrongly delete.
package enum DynamicOnlyRule: UnusedRule {
    package static let id = UnusedImages.Verdict.dynamicOnly.rawValue
    package static let verdict = UnusedImages.Verdict.dynamicOnly
    package static let summary = "Loaded in a given launch, but no code, interface file or plist names it: a tool that only reads the code would delete it."
    package static let parameters = "Needs a launch log; a pattern built at run time that fits it is shown as what loads it"
    package static let examples: [RuleExample] = [
        RuleExample(
            "loaded by a name read from data", images: [.init("Assets.car#promo_winter@3x", 300, 90)], loads: [.named("promo_winter")],
            sources: [.init("Promo.swift", "let banner = UIImage(named: campaign.imageName)\n")], fires: true),
        RuleExample(
            "loaded and named in code", images: [.init("Assets.car#promo_winter@3x", 300, 90)], loads: [.named("promo_winter")],
            sources: [.init("Promo.swift", "let banner = UIImage(named: \"promo_winter\")\n")], fires: false),
    ]

    package static func finding(for asset: UnusedImages.Asset, device: DeviceProfile, code: CodeSearch) -> Finding {
        finding(
            for: asset, device: device, claim: "is loaded at run time, but no code, interface file or plist names it",
            fix: .keepDynamicImage)
    }
}

/// Named in code or an interface file, but no given launch loads it.
package enum NeverLoadedRule: UnusedRule {
    package static let id = UnusedImages.Verdict.neverLoaded.rawValue
    package static let verdict = UnusedImages.Verdict.neverLoaded
    package static let summary = "Named in code, an interface file or a plist, but no given launch loads it: a screen the launches did not reach, or dead code."
    package static let parameters = "Needs a launch log; informational, since one launch reaches few screens"
    package static let examples: [RuleExample] = [
        RuleExample(
            "named in code, not loaded at launch", images: [.init("Assets.car#tab@3x", 75, 75), .init("Assets.car#settings_gear@3x", 75, 75)],
            loads: [.named("tab")], sources: [.init("Settings.swift", "let gear = UIImage(named: \"settings_gear\")\n")], fires: true),
        RuleExample(
            "named in code and loaded", images: [.init("Assets.car#settings_gear@3x", 75, 75)],
            loads: [.named("settings_gear")], sources: [.init("Settings.swift", "let gear = UIImage(named: \"settings_gear\")\n")],
            fires: false),
    ]

    package static func finding(for asset: UnusedImages.Asset, device: DeviceProfile, code: CodeSearch) -> Finding {
        finding(
            for: asset, device: device, claim: "is named but no given launch loads it",
            fix: .checkNeverLoaded)
    }
}

/// The verdicts of `imgtrace unused` as rules, most severe first.
package enum UnusedRules {
    nonisolated(unsafe) package static let all: [any UnusedRule.Type] = [UnusedImageRule.self, DynamicOnlyRule.self, NeverLoadedRule.self]
}
