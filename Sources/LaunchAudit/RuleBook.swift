import AuditPolicy
import AuditRules
import UnusedAudit

// Both commands' rules in one book: what a config may ignore or re-rate, what `imgtrace rules`
// lists. The engine is the first place that sees analyze's rules and unused's together.
extension Rules {
    /// The verdicts of `imgtrace unused`, most severe first.
    package static var unused: [any UnusedRule.Type] { UnusedRules.all }

    /// Every rule of every command, in the order `imgtrace rules` lists them.
    public static var described: [any DescribedRule.Type] { all + unused }

    /// The rule of any command with this id: what the config may ignore or re-rate.
    public static func described(_ id: String) -> (any DescribedRule.Type)? { described.first { $0.id == id } }
}

extension ConfigSchema {
    /// imgtrace's own: every rule's settings and id. Built once, and only by a run that reads a
    /// config: gathering the rules casts each rule's type at run time.
    public static let imgtrace = ConfigSchema(settings: Rules.settings, ruleIDs: Set(Rules.described.map { $0.id }))
}

extension ConfigFile {
    /// The keys each section of imgtrace's config may have (`sectionKeys(_:)`).
    public static var sectionKeys: [String: [String]] { sectionKeys(.imgtrace) }

    /// The settings of the config a run reads, by imgtrace's rules (`settings(explicit:schema:)`).
    public static func settings(explicit: String?) throws -> AuditConfig {
        guard let path = path(explicit: explicit) else { return AuditConfig() }
        return try load(path: path, schema: .imgtrace)
    }

    /// `text` read as imgtrace's config (`parse(_:path:schema:)`).
    public static func parse(_ text: String, path: String) throws -> AuditConfig { try parse(text, path: path, schema: .imgtrace) }
}
