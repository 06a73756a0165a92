import AppBundle
import AuditModel
import AuditPolicy

/// What a rule that judges each name on its own sees: no inventory, no other names. The list of
/// findings keeps it, to build such a rule's findings again when they are read.
package struct NameRuleContext: Sendable {
    package var device: DeviceProfile
    package var config: AuditConfig
    /// Ids of the `--system-images` folders.
    package var systemBundles: Set<String>

    /// Whether the image is the toolkit's, not the app's (see `RuleContext.isSystem`).
    package func isSystem(_ image: BundleImage) -> Bool { systemBundles.contains(image.bundle) }
}

/// A rule that finds at most one problem per name, from that name's use alone.
///
/// An audit of a million unknown names has a million `missing-image` findings; the auditor keeps
/// each as its rank and its name's place (`FindingList`) and builds it again when a report reads it.
package protocol NameRule: AuditRule {
    /// The finding about one name loaded at launch, if the rule fires for it.
    static func finding(for use: NameUse, in context: NameRuleContext) -> Finding?
}

extension NameRule {
    package static func check(_ context: RuleContext) -> [Finding] {
        let names = context.nameContext
        return context.uses.compactMap { finding(for: $0, in: names) }
    }
}
