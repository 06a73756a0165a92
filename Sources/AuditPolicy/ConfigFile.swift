import AuditModel
import Foundation
import ImgtraceSupport
import LaunchTrace

/// Reads `.imgtrace.yml`. Every key is checked: an unknown key, a wrong type or a bad value is an
/// `InputError` naming the file, the line and column, and the key.
public enum ConfigFile {
    /// The file looked for in the working directory when `--config` is not given.
    package static let defaultName = ".imgtrace.yml"

    /// The keys a config may have, for error messages and documentation.
    package static let topKeys = [
        "device", "launchEnd", "failOn", "namesOnly", "sourceRoot", "thresholds", "budgets", "ignore", "severity", "baseline", "toolkit", "history",
    ]

    /// The keys each section may have (`severity` takes rule ids), for error messages and the
    /// README check that every key is documented: the rules' settings, and the ignore lists.
    package static func sectionKeys(_ schema: ConfigSchema) -> [String: [String]] {
        var keys: [String: [String]] = ["ignore": ["names", "globs", "rules"], "toolkit": ["names"]]
        for setting in schema.settings { keys[setting.section, default: []].append(setting.key) }
        return keys
    }

    /// The config a run reads: `explicit` (`--config`) when given, else `.imgtrace.yml` in the
    /// working directory when there is one.
    package static func path(explicit: String?) -> String? {
        explicit ?? (FileManager.default.fileExists(atPath: defaultName) ? defaultName : nil)
    }

    /// The settings of the config a run reads (`path(explicit:)`), or the defaults without one.
    package static func settings(explicit: String?, schema: ConfigSchema) throws -> AuditConfig {
        try path(explicit: explicit).map { try load(path: $0, schema: schema) } ?? AuditConfig()
    }

    package static func load(path: String, schema: ConfigSchema) throws -> AuditConfig {
        let bytes = try SmallFile.read(path, maxBytes: SmallFile.maxConfigBytes)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw InputError(path: path, reason: "the config file is not UTF-8")
        }
        return try parse(bytes: bytes, path: path, schema: schema)
    }

    package static func parse(_ text: String, path: String, schema: ConfigSchema) throws -> AuditConfig {
        try parse(bytes: Array(text.utf8), path: path, schema: schema)
    }

    private static func parse(bytes: [UInt8], path: String, schema: ConfigSchema) throws -> AuditConfig {
        // A byte-order mark is not part of the first key.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let yaml = ConfigYAML(body)
        let reader = Reader(path: path, yaml: yaml)
        let root: ConfigYAML.Node?
        do {
            root = try ConfigYAML.parse(body)
        } catch {
            let at = yaml.position(of: error.offset)
            throw InputError(path: path, location: "line \(at.line), column \(at.column)", reason: "not valid YAML: \(error.reason)")
        }
        var config = AuditConfig()
        guard let root else { return config }
        for (key, value) in try reader.mapping(root, context: "the top level") {
            switch key.name {
            case "device": config.device = try reader.string(value, key.name)
            case "namesOnly": config.namesOnly = try reader.bool(value, key.name)
            case "sourceRoot":
                // Relative to the config file, as a checked-in config is read from anywhere.
                let root = try reader.string(value, key.name)
                config.sourceRoot = root.hasPrefix("/") ? root : PathText.resolve(root, against: PathText.directory(path))
            case "launchEnd":
                do { config.launchEnd = try LaunchEndPattern(try reader.string(value, key.name)) } catch let invalid as LaunchEndPattern.Invalid {
                    throw reader.error(value, "`launchEnd` is \(invalid)")
                }
            case "failOn":
                let level = try reader.string(value, key.name)
                if level == "never" {
                    config.failOn = nil
                } else {
                    guard let severity = Severity(rawValue: level) else {
                        throw reader.error(value, "`failOn` must be error, warning, note or never, not \(SafeText.quoted(level))")
                    }
                    config.failOn = severity
                }
            case "thresholds", "budgets", "baseline", "history":
                // Each key is a rule's own setting (`RuleSetting`), read by the kind it declares.
                for (k, v) in try reader.mapping(value, context: "`\(key.name)`") {
                    guard let setting = schema.setting(section: key.name, key: k.name) else {
                        throw reader.unknown(k, in: key.name, known: sectionKeys(schema)[key.name] ?? [])
                    }
                    switch setting.kind {
                    case .count: setting.apply(.count(try reader.count(v, k.name)), to: &config)
                    case .fraction: setting.apply(.fraction(try reader.fraction(v, k.name)), to: &config)
                    }
                }
            case "ignore":
                for (k, v) in try reader.mapping(value, context: "`ignore`") {
                    switch k.name {
                    case "names": try reader.forEachString(v, k.name) { config.ignore.names.insert($0) }
                    case "globs": try reader.forEachString(v, k.name) { config.ignore.globs.append($0) }
                    case "rules":
                        try reader.forEachString(v, k.name) { rule in
                            guard schema.ruleIDs.contains(rule) else {
                                throw reader.error(v, "`ignore.rules` names an unknown rule \(SafeText.quoted(rule)) (see `imgtrace rules`)")
                            }
                            config.ignore.rules.insert(rule)
                        }
                    default: throw reader.unknown(k, in: "ignore", known: sectionKeys(schema)["ignore"]!)
                    }
                }
            case "toolkit":
                for (k, v) in try reader.mapping(value, context: "`toolkit`") {
                    guard k.name == "names" else { throw reader.unknown(k, in: "toolkit", known: sectionKeys(schema)["toolkit"]!) }
                    // The list replaces the defaults: `names: []` makes every load the app's.
                    config.toolkit.names = []
                    try reader.forEachString(v, k.name) { config.toolkit.names.append($0) }
                }
            case "severity":
                for (k, v) in try reader.mapping(value, context: "`severity`") {
                    guard schema.ruleIDs.contains(k.name) else {
                        throw reader.error(k.node, "`severity` names an unknown rule \(SafeText.quoted(k.name)) (see `imgtrace rules`)")
                    }
                    let level = try reader.string(v, k.name)
                    guard let severity = Severity(rawValue: level) else {
                        throw reader.error(v, "severity of \(SafeText.quoted(k.name)) must be error, warning or note, not \(SafeText.quoted(level))")
                    }
                    config.severities[k.name] = severity
                }
            default:
                throw reader.unknown(key, in: nil, known: topKeys)
            }
        }
        return config
    }

    /// Typed access to nodes, with errors that carry the node's position.
    private struct Reader {
        var path: String
        var yaml: ConfigYAML
        typealias Node = ConfigYAML.Node

        struct Key {
            var name: String
            var node: Node
        }

        func error(_ node: Node, _ reason: String) -> InputError {
            let at = yaml.position(of: node.offset)
            return InputError(path: path, location: "line \(at.line), column \(at.column)", reason: reason)
        }

        func unknown(_ key: Key, in section: String?, known: [String]) -> InputError {
            let place = section.map { " in \(SafeText.quoted($0))" } ?? ""
            return error(key.node, "unknown key \(SafeText.quoted(key.name))\(place) (known: \(known.joined(separator: ", ")))")
        }

        func mapping(_ node: Node, context: String) throws -> [(Key, Node)] {
            guard case let .mapping(pairs, _) = node else { throw error(node, "\(context) must be a mapping of keys to values") }
            var seen = Set<String>()
            return try pairs.map { pair in
                let name = yaml.text(pair.key)
                let key = Key(name: name, node: .scalar(pair.key))
                guard seen.insert(name).inserted else { throw error(key.node, "duplicated key \(SafeText.quoted(name))") }
                return (key, pair.value)
            }
        }

        func string(_ node: Node, _ key: String) throws -> String {
            guard case let .scalar(scalar) = node else { throw error(node, "\(SafeText.quoted(key)) must be a string") }
            let text = yaml.text(scalar)
            // YAML reads these plain words as no value at all, not as text.
            if scalar.style == .plain, ["null", "Null", "NULL", "~"].contains(text) {
                throw error(node, "\(SafeText.quoted(key)) must be a string, not YAML's null (quote it to mean the text)")
            }
            return text
        }

        func bool(_ node: Node, _ key: String) throws -> Bool {
            guard case let .scalar(scalar) = node, scalar.style == .plain else { throw error(node, "\(SafeText.quoted(key)) must be true or false") }
            switch yaml.text(scalar) {
            case "true", "True", "TRUE": return true
            case "false", "False", "FALSE": return false
            default: throw error(node, "\(SafeText.quoted(key)) must be true or false")
            }
        }

        /// Each string of a list (or the one string given instead of a list), decoded one at a time.
        func forEachString(_ node: Node, _ key: String, _ body: (String) throws -> Void) throws {
            if case .scalar = node { return try body(try string(node, key)) }
            guard case let .sequence(items, _) = node else { throw error(node, "\(SafeText.quoted(key)) must be a list of strings") }
            for item in items { try body(try string(item, key)) }
        }

        /// A scalar's text without `_` digit separators; nil for a collection.
        private func number(_ node: Node) -> String? {
            guard case let .scalar(scalar) = node else { return nil }
            return yaml.text(scalar).filter { $0 != "_" }
        }

        func count(_ node: Node, _ key: String) throws -> Int {
            let text = number(node) ?? ""
            let digits = text.hasPrefix("+") ? String(text.dropFirst()) : text
            let value: Int?
            if digits.hasPrefix("0x") {
                value = Int(digits.dropFirst(2), radix: 16)
            } else if digits.hasPrefix("0o") {
                value = Int(digits.dropFirst(2), radix: 8)
            } else {
                value = digits.allSatisfy(\.isASCII) ? Int(digits) : nil
            }
            guard let value, value >= 0 else { throw error(node, "\(SafeText.quoted(key)) must be a whole number ≥ 0") }
            return value
        }

        func fraction(_ node: Node, _ key: String) throws -> Double {
            guard let text = number(node), text.allSatisfy(\.isASCII), let value = Double(text), value.isFinite, value >= 0 else {
                throw error(node, "\(SafeText.quoted(key)) must be a number ≥ 0 (0.05 = 5%)")
            }
            return value
        }
    }
}
