import Foundation
import ImgtraceSupport
import Yams

/// Reads `.imgtrace.yml`. Every key is checked: an unknown key, a wrong type or a bad value is an
/// `InputError` naming the file, the line and column, and the key.
public enum ConfigFile {
    /// The file looked for in the working directory when `--config` is not given.
    public static let defaultName = ".imgtrace.yml"

    /// The keys a config may have, for error messages and documentation.
    public static let topKeys = ["device", "launchEnd", "failOn", "sourceRoot", "thresholds", "budgets", "ignore", "severity", "baseline"]

    /// The keys each section may have (`severity` takes rule ids), for error messages and the
    /// README check that every key is documented.
    public static let sectionKeys: [String: [String]] = [
        "thresholds": ["repeatedLoadWarning", "oversizedTolerance", "oversizedMemoryBytes", "largeFileBytes"],
        "budgets": [
            "maxLaunchLoads", "maxLaunchImages", "maxLaunchDecodedBytes", "maxLaunchBytesOnDisk", "maxImageDecodedBytes",
            "maxMissingImages", "minLaunchLoads",
        ],
        "ignore": ["names", "globs", "rules"],
        "baseline": ["launchDecodedBytesTolerance", "launchBytesOnDiskTolerance", "launchImagesTolerance", "launchLoadsTolerance"],
    ]

    public static func load(path: String) throws -> AuditConfig {
        let data = Data(try SmallFile.read(path, maxBytes: SmallFile.maxConfigBytes))
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError(path: path, reason: "the config file is not UTF-8")
        }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws -> AuditConfig {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw InputError(path: path, reason: "not valid YAML: \(oneLine(error))")
        }
        var config = AuditConfig()
        guard let root else { return config }
        let reader = Reader(path: path)
        for (key, value) in try reader.mapping(root, context: "the top level") {
            switch key.name {
            case "device": config.device = try reader.string(value, key.name)
            case "sourceRoot":
                // Relative to the config file, as a checked-in config is read from anywhere.
                let root = try reader.string(value, key.name)
                config.sourceRoot = root.hasPrefix("/") ? root : PathText.resolve(root, against: PathText.directory(path))
            case "launchEnd":
                let pattern = try reader.string(value, key.name)
                do { _ = try NSRegularExpression(pattern: pattern) } catch {
                    throw reader.error(value, "`launchEnd` is not a valid regular expression")
                }
                config.launchEnd = pattern
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
            case "thresholds":
                for (k, v) in try reader.mapping(value, context: "`thresholds`") {
                    switch k.name {
                    case "repeatedLoadWarning": config.thresholds.repeatedLoadWarning = try reader.count(v, k.name)
                    case "oversizedTolerance": config.thresholds.oversizedTolerance = try reader.fraction(v, k.name)
                    case "oversizedMemoryBytes": config.thresholds.oversizedMemoryBytes = try reader.count(v, k.name)
                    case "largeFileBytes": config.thresholds.largeFileBytes = try reader.count(v, k.name)
                    default:
                        throw reader.unknown(k, in: "thresholds", known: sectionKeys["thresholds"]!)
                    }
                }
            case "budgets":
                for (k, v) in try reader.mapping(value, context: "`budgets`") {
                    let limit = try reader.count(v, k.name)
                    switch k.name {
                    case "maxLaunchLoads": config.budgets.maxLaunchLoads = limit
                    case "maxLaunchImages": config.budgets.maxLaunchImages = limit
                    case "maxLaunchDecodedBytes": config.budgets.maxLaunchDecodedBytes = limit
                    case "maxLaunchBytesOnDisk": config.budgets.maxLaunchBytesOnDisk = limit
                    case "maxImageDecodedBytes": config.budgets.maxImageDecodedBytes = limit
                    case "maxMissingImages": config.budgets.maxMissingImages = limit
                    case "minLaunchLoads": config.budgets.minLaunchLoads = limit
                    default:
                        throw reader.unknown(k, in: "budgets", known: sectionKeys["budgets"]!)
                    }
                }
            case "ignore":
                for (k, v) in try reader.mapping(value, context: "`ignore`") {
                    let items = try reader.strings(v, k.name)
                    switch k.name {
                    case "names": config.ignore.names.formUnion(items)
                    case "globs": config.ignore.globs += items
                    case "rules":
                        for rule in items where Rules.named(rule) == nil {
                            throw reader.error(v, "`ignore.rules` names an unknown rule \(SafeText.quoted(rule)) (see `imgtrace rules`)")
                        }
                        config.ignore.rules.formUnion(items)
                    default: throw reader.unknown(k, in: "ignore", known: sectionKeys["ignore"]!)
                    }
                }
            case "severity":
                for (k, v) in try reader.mapping(value, context: "`severity`") {
                    guard Rules.named(k.name) != nil else {
                        throw reader.error(k.node, "`severity` names an unknown rule \(SafeText.quoted(k.name)) (see `imgtrace rules`)")
                    }
                    let level = try reader.string(v, k.name)
                    guard let severity = Severity(rawValue: level) else {
                        throw reader.error(v, "severity of \(SafeText.quoted(k.name)) must be error, warning or note, not \(SafeText.quoted(level))")
                    }
                    config.severities[k.name] = severity
                }
            case "baseline":
                for (k, v) in try reader.mapping(value, context: "`baseline`") {
                    switch k.name {
                    case "launchDecodedBytesTolerance": config.baselineTolerance.launchDecodedBytes = try reader.fraction(v, k.name)
                    case "launchBytesOnDiskTolerance": config.baselineTolerance.launchBytesOnDisk = try reader.fraction(v, k.name)
                    case "launchImagesTolerance": config.baselineTolerance.launchImages = try reader.count(v, k.name)
                    case "launchLoadsTolerance": config.baselineTolerance.launchLoads = try reader.count(v, k.name)
                    default:
                        throw reader.unknown(k, in: "baseline", known: sectionKeys["baseline"]!)
                    }
                }
            default:
                throw reader.unknown(key, in: nil, known: topKeys)
            }
        }
        return config
    }

    private static func oneLine(_ error: Error) -> String {
        "\(error)".split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// Typed access to nodes, with errors that carry the node's position.
    private struct Reader {
        var path: String

        struct Key {
            var name: String
            var node: Node
        }

        func error(_ node: Node, _ reason: String) -> InputError {
            let location = node.mark.map { "line \($0.line), column \($0.column)" }
            return InputError(path: path, location: location, reason: reason)
        }

        func unknown(_ key: Key, in section: String?, known: [String]) -> InputError {
            let place = section.map { " in \(SafeText.quoted($0))" } ?? ""
            return error(key.node, "unknown key \(SafeText.quoted(key.name))\(place) (known: \(known.joined(separator: ", ")))")
        }

        func mapping(_ node: Node, context: String) throws -> [(Key, Node)] {
            guard case let .mapping(mapping) = node else { throw error(node, "\(context) must be a mapping of keys to values") }
            var seen = Set<String>()
            return try mapping.map { key, value in
                guard let name = key.string else { throw error(key, "keys must be strings") }
                guard seen.insert(name).inserted else { throw error(key, "key \(SafeText.quoted(name)) appears twice") }
                return (Key(name: name, node: key), value)
            }
        }

        func string(_ node: Node, _ key: String) throws -> String {
            guard case let .scalar(scalar) = node else { throw error(node, "\(SafeText.quoted(key)) must be a string") }
            return scalar.string
        }

        func strings(_ node: Node, _ key: String) throws -> [String] {
            if case .scalar = node { return [try string(node, key)] }
            guard case let .sequence(sequence) = node else { throw error(node, "\(SafeText.quoted(key)) must be a list of strings") }
            return try sequence.map { try string($0, key) }
        }

        func count(_ node: Node, _ key: String) throws -> Int {
            guard case .scalar = node, let value = node.int, value >= 0 else {
                throw error(node, "\(SafeText.quoted(key)) must be a whole number ≥ 0")
            }
            return value
        }

        func fraction(_ node: Node, _ key: String) throws -> Double {
            guard case .scalar = node, let value = node.float, value.isFinite, value >= 0 else {
                throw error(node, "\(SafeText.quoted(key)) must be a number ≥ 0 (0.05 = 5%)")
            }
            return value
        }
    }
}
