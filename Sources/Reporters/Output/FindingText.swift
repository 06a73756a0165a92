import AuditModel

/// The words of a finding as one line, for formats with one text field per finding (SARIF,
/// GitLab, GitHub, Checkstyle, JUnit): its message, then its fix. Written here once.
enum FindingText {
    /// `message — fix: fix`.
    static func withFix(_ finding: Finding) -> String { finding.message.text + " — fix: " + finding.fix }

    /// `fix: fix`, where the message stands apart.
    static func fixOnly(_ finding: Finding) -> String { "fix: " + finding.fix }
}
