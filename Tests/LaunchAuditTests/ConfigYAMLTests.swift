import AuditModel
@testable import AuditPolicy
import AuditRules
import UnusedAudit
import XCTest
import Yams

@testable import LaunchAudit

/// The config's YAML reader against libyaml (Yams): random documents in every style it reads give
/// the same tree, and what it refuses is refused with its place.
final class ConfigYAMLTests: XCTestCase {
    /// A document as both readers see it.
    indirect enum Value: Equatable, CustomStringConvertible {
        case scalar(String)
        case sequence([Value])
        case mapping([String], [Value])

        var description: String {
            switch self {
            case let .scalar(s): return "\(s.debugDescription)"
            case let .sequence(items): return "[" + items.map(\.description).joined(separator: ", ") + "]"
            case let .mapping(keys, values): return "{" + zip(keys, values).map { "\($0.debugDescription): \($1)" }.joined(separator: ", ") + "}"
            }
        }
    }

    private func ours(_ text: String) throws -> Value? {
        let bytes = Array(text.utf8)
        let yaml = ConfigYAML(bytes)
        func convert(_ node: ConfigYAML.Node) -> Value {
            switch node {
            case let .scalar(scalar): return .scalar(yaml.text(scalar))
            case let .sequence(items, _): return .sequence(items.map(convert))
            case let .mapping(pairs, _): return .mapping(pairs.map { yaml.text($0.key) }, pairs.map { convert($0.value) })
            }
        }
        return try ConfigYAML.parse(bytes).map(convert)
    }

    private func libyaml(_ text: String) throws -> Value? {
        func convert(_ node: Yams.Node) -> Value {
            switch node {
            case let .scalar(scalar): return .scalar(scalar.string)
            case let .sequence(sequence): return .sequence(sequence.map(convert))
            case let .mapping(mapping): return .mapping(mapping.map { $0.key.string ?? "?" }, mapping.map { convert($0.value) })
            default: return .scalar("alias")
            }
        }
        return try Yams.compose(yaml: text).map(convert)
    }

    // MARK: Random documents

    private struct Writer<G: RandomNumberGenerator> {
        var random: G
        var out = ""

        mutating func pick<T>(_ options: [T]) -> T { options.randomElement(using: &random)! }
        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

        mutating func plain() -> String {
            let first = Array("abcdefghijklmnopqrstuvwxyzABCZ0123456789_é")
            let rest = first + Array("-./*@ ")
            var text = String(pick(first))
            for _ in 0..<Int.random(in: 0..<10, using: &random) { text.append(pick(rest)) }
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }

        /// A scalar in one of the styles, and the text it stands for.
        mutating func scalar(inFlow: Bool) -> (source: String, value: String) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let text = plain()
                return (text, text)
            case 1:
                let text = plain() + (chance(50) ? "'s" : "") + (inFlow ? "" : ", [x] # not a comment")
                return ("'" + text.replacingOccurrences(of: "'", with: "''") + "'", text)
            case 2:
                let escapes: [(String, String)] = [("\\n", "\n"), ("\\t", "\t"), ("\\\"", "\""), ("\\\\", "\\"), ("\\u00e9", "é"), ("\\x41", "A"), ("\\/", "/")]
                var source = "\"", value = ""
                for _ in 0..<Int.random(in: 0..<4, using: &random) {
                    let text = plain()
                    source += text
                    value += text
                    if chance(60) {
                        let escape = pick(escapes)
                        source += escape.0
                        value += escape.1
                    }
                }
                return (source + "\"", value)
            default:
                return ("", "")
            }
        }

        mutating func flow(depth: Int) -> (String, Value) {
            if depth > 2 || chance(40) {
                var s = scalar(inFlow: true)
                if s.source.isEmpty { s = ("x", "x") }
                return (s.source, .scalar(s.value))
            }
            let count = Int.random(in: 0..<4, using: &random)
            let space = pick(["", " ", "\n    "])
            if chance(50) {
                var parts: [String] = [], items: [Value] = []
                for _ in 0..<count {
                    let (source, value) = flow(depth: depth + 1)
                    parts.append(source)
                    items.append(value)
                }
                return ("[" + space + parts.joined(separator: "," + space) + space + "]", .sequence(items))
            }
            var parts: [String] = [], keys: [String] = [], values: [Value] = []
            for k in 0..<count {
                let key = "k\(k)\(plain().filter { $0 != " " })"
                let (source, value) = flow(depth: depth + 1)
                parts.append(key + ": " + source)
                keys.append(key)
                values.append(value)
            }
            return ("{" + space + parts.joined(separator: "," + space) + space + "}", .mapping(keys, values))
        }

        /// A block node at `indent`, written after a key (`inline` when it may stay on the key's line).
        mutating func block(indent: Int, depth: Int) -> Value {
            let pad = String(repeating: " ", count: indent)
            if depth > 3 || chance(30) {
                if chance(30) {
                    let (source, value) = flow(depth: 0)
                    out += " " + source + comment() + "\n"
                    return value
                }
                let s = scalar(inFlow: false)
                out += (s.source.isEmpty ? "" : " " + s.source) + comment() + "\n"
                return .scalar(s.value)
            }
            out += comment() + "\n"
            if chance(20) { out += pad + "# a comment line\n\n" }
            let count = Int.random(in: 1..<4, using: &random)
            if chance(40) {
                var items: [Value] = []
                // A sequence under a key may sit at the key's own indentation.
                let dash = chance(30) && indent >= 2 ? String(repeating: " ", count: indent - 2) : pad
                for _ in 0..<count {
                    out += dash + "-"
                    items.append(block(indent: dash.count + 2, depth: depth + 1))
                }
                return .sequence(items)
            }
            var keys: [String] = [], values: [Value] = []
            for k in 0..<count {
                let key = chance(20) ? "\"key \(k)\"" : "key\(k)"
                out += pad + key + ":"
                keys.append(key.replacingOccurrences(of: "\"", with: ""))
                values.append(block(indent: indent + 2, depth: depth + 1))
            }
            return .mapping(keys, values)
        }

        mutating func comment() -> String { chance(15) ? "  # note: [x]" : "" }
    }

    func testRandomDocumentsReadAsLibyamlReadsThem() throws {
        var generator = SystemRandomNumberGenerator()
        var valid = 0, asGenerated = 0
        for _ in 0..<800 {
            var writer = Writer(random: generator)
            let count = Int.random(in: 1..<5, using: &generator)
            var keys: [String] = [], values: [Value] = []
            if writer.chance(10) { writer.out += "---\n" }
            for k in 0..<count {
                writer.out += "top\(k):"
                keys.append("top\(k)")
                values.append(writer.block(indent: 2, depth: 0))
            }
            generator = writer.random
            let text = writer.out
            // libyaml is the judge, not the generator's own idea of the document (a dash under a
            // dash nests differently than it looks); both must agree on what is not YAML too.
            let reference = try? libyaml(text)
            if reference != nil { valid += 1 }
            if reference == .mapping(keys, values) { asGenerated += 1 }
            XCTAssertEqual(try? ours(text), reference, text)
        }
        XCTAssertGreaterThan(valid, 700, "the generator writes YAML")
        XCTAssertGreaterThan(asGenerated, 400, "and mostly what it means to")
    }

    func testWhatTheReaderRefusesNamesThePlace() throws {
        let cases: [(String, String)] = [
            ("a: &x 1\nb: *x\n", "line 1, column 4: not valid YAML: anchors"),
            ("a: !!str 1\n", "tags"),
            ("a: |\n  text\n", "block scalars"),
            ("a: [1, 2\n", "never closed"),
            ("a: 'open\n", "must end on its line"),
            ("a: \"\\q\"\n", "unknown escape"),
            ("a: 1\n---\nb: 2\n", "one document"),
            ("a:\n    b: 1\n  c: 2\n", "line 3, column 3: not valid YAML"),
            ("a: b\n  c\n", "unexpected indentation"),
            ("? a\n: b\n", "complex keys"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ConfigFile.parse(text, path: "c.yml"), text) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) lacks \(expected)")
            }
        }
    }

    /// Hostile input, round 4: block collections nest as deep as flow ones may (a 200 KB
    /// `- - - …` was a stack overflow), nothing follows a document's end, and YAML's null is no
    /// string. Each is one error with its place; a quoted "null" is the text.
    func testDepthDocumentEndAndNullAreReadAsYAMLReadsThem() throws {
        let deepSequence = String(repeating: "- ", count: 100_000) + "x\n"
        var deepMapping = ""
        for level in 0..<200 { deepMapping += String(repeating: " ", count: level) + "k\(level):\n" }
        let cases: [(String, String)] = [
            (deepSequence, "line 1, column 129: not valid YAML: collections nest deeper than 64 levels"),
            (deepMapping, "line 65, column 65: not valid YAML: collections nest deeper than 64 levels"),
            ("failOn: error\n...\nfailOn: never\n", "line 3, column 1: not valid YAML: a config is one document"),
            ("launchEnd: null\n", "line 1, column 12: `launchEnd` must be a string, not YAML's null"),
            ("launchEnd: ~\n", "not YAML's null"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ConfigFile.parse(text, path: "c.yml"), String(text.prefix(60))) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error) lacks \(expected)")
            }
        }
        XCTAssertNoThrow(try ConfigFile.parse("failOn: error\n...\n# a comment after the end\n\n", path: "c.yml"))
        XCTAssertEqual(try ConfigFile.parse("launchEnd: \"null\"\n", path: "c.yml").launchEnd?.text, "null")
    }

    func testNumbersAndTheByteOrderMark() throws {
        let config = try ConfigFile.parse("\u{FEFF}thresholds:\n  largeFileBytes: 1_000_000\n  oversizedMemoryBytes: 0x10\n  oversizedTolerance: \"0.25\"\n", path: "c.yml")
        XCTAssertEqual(config.thresholds.largeFileBytes, 1_000_000)
        XCTAssertEqual(config.thresholds.oversizedMemoryBytes, 16)
        XCTAssertEqual(config.thresholds.oversizedTolerance, 0.25)
    }
}
