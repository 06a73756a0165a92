import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// What every rule declares, whichever command judges it: a stable id, a one-line summary, a
/// default severity, its thresholds and examples that are also its tests. `imgtrace rules`,
/// SARIF's rule list, the config's `ignore.rules` and `severity` read this.
public protocol DescribedRule {
    /// Stable id used in reports, baselines, ignores and severity overrides.
    static var id: String { get }
    /// What it flags, in one line.
    static var summary: String { get }
    static var defaultSeverity: Severity { get }
    /// The thresholds and config keys it reads, in words.
    static var parameters: String { get }
    /// The `.imgtrace.yml` values it reads, declared here once (none for most rules).
    static var settings: [RuleSetting] { get }
    /// Small apps and launches that fire the rule, and ones that must not.
    static var examples: [RuleExample] { get }
    /// Whether its findings are fixed where the code asks for the name (`--source-root` points
    /// them at that line), not in the asset: how a name is asked for, not what the image is.
    static var isFixedInCode: Bool { get }
}

extension DescribedRule {
    package static var settings: [RuleSetting] { [] }
    package static var isFixedInCode: Bool { false }
}

/// One check over an audited launch (`imgtrace analyze`).
package protocol AuditRule: DescribedRule {
    /// The findings over one audited launch.
    static func check(_ context: RuleContext) -> [Finding]
}

/// Every rule, in the order `imgtrace rules` lists them.
public enum Rules {
    nonisolated(unsafe) package static let all: [any AuditRule.Type] = [
        MissingImageRule.self, RepeatedLoadRule.self, UncachedRepeatRule.self, DuplicateContentRule.self,
        SlowImageRule.self, OversizedPixelsRule.self, OversizedMemoryRule.self, LargeFileRule.self, ScaleMismatchRule.self,
        LooseImageRule.self, BundleJunkRule.self, TraceUnreadableRule.self, NoEvidenceRule.self,
        BudgetExceededRule.self, BaselineRegressionRule.self,
    ]

    package static func named(_ id: String) -> (any AuditRule.Type)? { all.first { $0.id == id } }

}

/// What a rule sees: the device, the thresholds, the inventory and every name loaded at launch.
package struct RuleContext: Sendable {
    package var device: DeviceProfile
    package var config: AuditConfig
    package var inventory: BundleInventory
    /// Names loaded in the launch window (of any log).
    package var uses: [NameUse]
    package var unreadable: [UnreadableHits]
    package var logs: [LogReport]
    /// Figures over all logs together.
    package var metrics: AuditMetrics
    /// Ids of the `--system-images` folders (the auditor's set, not rebuilt per question).
    package var systemBundles: Set<String>
    /// The launch figures of the baseline this run is compared with (`analyze --baseline`).
    package var baseline: PhaseMetrics?
    /// The image names that baseline's launch asked for (schema 5 and later), so a worse figure
    /// names what moved it.
    package var baselineImages: [ImageRecord]?

    package init(
        device: DeviceProfile, config: AuditConfig, inventory: BundleInventory, uses: [NameUse], unreadable: [UnreadableHits], logs: [LogReport],
        metrics: AuditMetrics, systemBundles: Set<String>, baseline: PhaseMetrics?
    ) {
        self.device = device
        self.config = config
        self.inventory = inventory
        self.uses = uses
        self.unreadable = unreadable
        self.logs = logs
        self.metrics = metrics
        self.systemBundles = systemBundles
        self.baseline = baseline
    }

    /// Whether the image is judged by UIKit's rules (scale variants, app thinning); AppKit
    /// and system images pick representations at draw time and ship no thinning.
    package func isUIKit(_ image: BundleImage) -> Bool {
        guard let bundle = inventory.bundles.first(where: { $0.id == image.bundle }) else { return true }
        return !bundle.usesAppKitNames
    }

    /// Whether the app does not ship the image: it is in a `--system-images` folder (the
    /// toolkit's own pictures), so its findings are the toolkit's, not the app's.
    package func isSystem(_ image: BundleImage) -> Bool { systemBundles.contains(image.bundle) }

    /// What a `NameRule` sees of this context.
    package var nameContext: NameRuleContext { NameRuleContext(device: device, config: config, systemBundles: systemBundles) }

    /// Launch uses grouped by the image they resolved to, in a stable order.
    package var usesByImage: [(image: BundleImage, uses: [NameUse])] {
        var groups: [String: (BundleImage, [NameUse])] = [:]
        for use in uses {
            guard let image = use.resolution.image else { continue }
            groups[image.id, default: (image, [])].1.append(use)
        }
        return groups.keys.sorted().map { (groups[$0]!.0, groups[$0]!.1) }
    }

    /// A finding about one image, with the names that loaded it and their lines. Its message is
    /// `quoted` (the image as `quotedImage` names it, unless given) followed by `claim`; its subject
    /// is a catalog image's name or a file's name. The claim alone is how the image's finding
    /// quotes it when another rule's finding about the same image carries it (`ImageFindings`).
    package func finding(
        _ rule: any AuditRule.Type, severity: Severity? = nil, image: BundleImage, uses: [NameUse], subject: String? = nil,
        quoted: Phrase? = nil, claim: Phrase, fix: FixKind, values: FindingValues, cost: Int
    ) -> Finding {
        var finding = Finding(
            rule: rule.id, severity: severity ?? rule.defaultSeverity, identity: image.id, device: device.fingerprintKey,
            subject: subject ?? (image.source == .assetCatalog ? image.name : PathText.fileName(image.id)),
            message: "\(quoted ?? quotedImage(image)) \(claim)", fix: fix, names: uses.compactMap(\.name),
            assets: [image.id], paths: [image.path],
            lines: uses.flatMap(\.launchLines), values: values, cost: cost, occurrences: uses.reduce(0) { $0 + $1.launchLoads })
        finding.claim = claim
        return finding
    }
}

/// `120×80 px`.
package func pixelText(_ image: BundleImage) -> String {
    guard let w = image.pixelWidth, let h = image.pixelHeight else { return "unknown size" }
    return dimensions(w, h) + " px"
}

/// An image as a finding's message names it: a file by its file name, a catalog rendition by
/// its facet with the catalog and traits beside it (`` `logo` (Assets.car, universal @3x) ``),
/// so the first quoted word is always the name a developer searches for.
package func quotedImage(_ image: BundleImage) -> Phrase {
    guard image.source == .assetCatalog else { return "\(code: PathText.fileName(image.id))" }
    let appearance = image.appearance.map { ", \($0)" } ?? ""
    return "\(code: image.name) (\(PathText.fileName(image.path)), \(image.idiom) @\(image.scale)x\(appearance))"
}

extension Rules {
    /// Every rule's settings, in the order the rules are listed.
    package static var settings: [RuleSetting] { all.flatMap { $0.settings } }

    /// The setting at `section.key`, if any rule declares it.
    package static func setting(section: String, key: String) -> RuleSetting? {
        settings.first { $0.section == section && $0.key == key }
    }
}
