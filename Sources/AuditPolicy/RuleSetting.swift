/// A value a team tunes in `.imgtrace.yml`, declared once, beside the rule that reads it: its
/// place in the file, the values it takes, its default and what it does. The config reader,
/// `AuditConfig`'s defaults, `imgtrace rules --verbose`, the README's settings table and the
/// rules' examples all read this declaration, so changing a default is one edit.
public struct RuleSetting: Sendable {
    /// The values a setting takes.
    package enum Kind: Sendable {
        /// A whole number ≥ 0.
        case count
        /// A number ≥ 0 (0.05 = 5%).
        case fraction

        /// In words, for listings and errors.
        package var words: String {
            switch self {
            case .count: return "a whole number ≥ 0"
            case .fraction: return "a number ≥ 0 (0.05 = 5%)"
            }
        }
    }

    /// A value as read from the file.
    package enum Value: Sendable, Equatable {
        case count(Int)
        case fraction(Double)

        /// As the config file writes it.
        package var text: String {
            switch self {
            case .count(let n): return String(n)
            case .fraction(let f): return String(f)
            }
        }
    }

    /// The config section (`thresholds`, `budgets`, `baseline`).
    package let section: String
    package let key: String
    package let kind: Kind
    /// What it changes, in one line.
    package let help: String
    /// The default in words: a number, or what applies when the key is absent.
    package let defaultText: String
    /// The default value; nil when an absent key means off (a budget) or something derived.
    package let defaultValue: Value?
    private let store: @Sendable (inout AuditConfig, Value) -> Void

    /// A value for this setting, as an example's config sets it.
    package struct Assignment: Sendable {
        package let setting: RuleSetting
        package let value: Value
    }

    /// This setting at `count`.
    package func set(_ count: Int) -> Assignment { Assignment(setting: self, value: .count(count)) }

    /// This setting at `fraction`.
    package func set(_ fraction: Double) -> Assignment { Assignment(setting: self, value: .fraction(fraction)) }

    /// `thresholds.largeFileBytes`.
    package var path: String { section + "." + key }

    /// Writes `value` into `config`.
    package func apply(_ value: Value, to config: inout AuditConfig) { store(&config, value) }

    private init(
        _ section: String, _ key: String, _ kind: Kind, help: String, defaultValue: Value?, defaultText: String,
        store: @escaping @Sendable (inout AuditConfig, Value) -> Void
    ) {
        self.section = section
        self.key = key
        self.kind = kind
        self.help = help
        self.defaultValue = defaultValue
        self.defaultText = defaultText
        self.store = store
    }

    /// The default of a count setting.
    package var defaultCount: Int {
        guard case .count(let n) = defaultValue else { preconditionFailure("\(path) has no count default") }
        return n
    }

    /// A count whose default is `AuditConfig`'s initial value.
    package static func count(_ section: String, _ key: String, help: String, _ path: WritableKeyPath<AuditConfig, Int> & Sendable) -> RuleSetting {
        let value = AuditConfig()[keyPath: path]
        return RuleSetting(section, key, .count, help: help, defaultValue: .count(value), defaultText: String(value)) { config, read in
            if case .count(let n) = read { config[keyPath: path] = n }
        }
    }

    /// A count that is off (or derived, as `unset` says) unless the file sets it.
    package static func count(_ section: String, _ key: String, unset: String, help: String, _ path: WritableKeyPath<AuditConfig, Int?> & Sendable) -> RuleSetting {
        RuleSetting(section, key, .count, help: help, defaultValue: nil, defaultText: unset) { config, read in
            if case .count(let n) = read { config[keyPath: path] = n }
        }
    }

    /// A fraction whose default is `AuditConfig`'s initial value.
    package static func fraction(_ section: String, _ key: String, help: String, _ path: WritableKeyPath<AuditConfig, Double> & Sendable) -> RuleSetting {
        let value = AuditConfig()[keyPath: path]
        return RuleSetting(section, key, .fraction, help: help, defaultValue: .fraction(value), defaultText: RuleSetting.text(value)) { config, read in
            if case .fraction(let x) = read { config[keyPath: path] = x }
        }
    }

    /// `0.05`, `0`: a fraction as a config file writes it.
    static func text(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
}

/// What a config file may name: the settings the rules declare and every rule's id. The rules
/// live above the reader, so whoever reads a config says what its keys are.
public struct ConfigSchema: Sendable {
    package var settings: [RuleSetting]
    package var ruleIDs: Set<String>

    package init(settings: [RuleSetting], ruleIDs: Set<String>) {
        self.settings = settings
        self.ruleIDs = ruleIDs
    }

    /// The setting at `section.key`, if a rule declares it.
    package func setting(section: String, key: String) -> RuleSetting? {
        settings.first { $0.section == section && $0.key == key }
    }
}
