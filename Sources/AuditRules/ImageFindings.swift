import AuditModel

/// One finding per image for the rules that judge what an image costs.
///
/// Five rules look at the same picture from different sides: its pixels against the screen,
/// its decoded bytes, its scale variant, its file size and whether it ships loose. Reported
/// apart, one photo made five findings whose costs summed the same bytes several times. Here
/// they fold into one finding per image: the most severe rule (then the one whose fix helps
/// most, `members` order) speaks, the others become its evidence, and its cost is the largest
/// of theirs, so the image's bytes count once.
package enum ImageFindings {
    /// The rules of the family, the one whose fix does the most first: shipping the image at
    /// the size it is shown also shrinks its memory and its file; a missing variant comes next;
    /// recompressing or moving it into a catalog saves only bytes on disk.
    static let members: [String] = [
        OversizedPixelsRule.id, OversizedMemoryRule.id, ScaleMismatchRule.id, LargeFileRule.id, LooseImageRule.id,
    ]

    /// What the fingerprint of an image's finding is made from in place of a rule id: the same
    /// image keeps its fingerprint whichever of the family's rules fire for it.
    static let fingerprintKey = "image"

    /// `findings` with the family's findings about each image folded into one; every other
    /// finding, and the order of first appearance, unchanged.
    package static func folded(_ findings: [Finding], device: String) -> [Finding] {
        var groups: [String: [Int]] = [:]
        for (index, finding) in findings.enumerated() where isMember(finding) {
            groups[finding.assets[0], default: []].append(index)
        }
        guard !groups.isEmpty else { return findings }
        var result: [Finding] = []
        result.reserveCapacity(findings.count)
        for (index, finding) in findings.enumerated() {
            guard isMember(finding) else {
                result.append(finding)
                continue
            }
            let group = groups[finding.assets[0]]!
            // The group is written where its first member stood.
            guard group[0] == index else { continue }
            result.append(fold(group.map { findings[$0] }, image: finding.assets[0], device: device))
        }
        return result
    }

    private static func isMember(_ finding: Finding) -> Bool {
        finding.assets.count == 1 && finding.claim != nil && members.contains(finding.rule)
    }

    private static func rank(_ finding: Finding) -> Int { members.firstIndex(of: finding.rule) ?? members.count }

    private static func fold(_ group: [Finding], image: String, device: String) -> Finding {
        let ordered = group.sorted { a, b in a.severity != b.severity ? a.severity < b.severity : rank(a) < rank(b) }
        var finding = ordered[0]
        let others = ordered.dropFirst()
        finding.fingerprint = Finding.fingerprint(rule: fingerprintKey, identity: image, device: device)
        // What a schema-1 baseline called each rule that fired: it accepted the image only for those.
        finding.formerFingerprints = ordered.map { Finding.fingerprint(rule: $0.rule, identity: image, device: device) }.sorted()
        guard !others.isEmpty else { return finding }
        finding.evidence = others.map { Finding.Evidence(rule: $0.rule, severity: $0.severity, claim: $0.claim ?? $0.message, fix: $0.fixKind) }
        finding.message.append("; also \(Phrase.joined(finding.evidence.map(\.claim), separator: "; "))")
        finding.cost = others.reduce(finding.cost) { max($0, $1.cost) }
        var values = Array(finding.values)
        for other in others {
            for pair in other.values where finding.values[pair.key] == nil { values.append(pair) }
        }
        finding.values = FindingValues(values)
        return finding
    }
}
