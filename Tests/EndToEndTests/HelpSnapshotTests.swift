import Foundation
import TestSupport
import XCTest

/// Every command's `--help`, byte for byte against `Golden/help/`: one paragraph argument-parser
/// wraps itself, two examples, each value list once, defaults as they are.
final class HelpSnapshotTests: XCTestCase {
    static let commands: [[String]] = [
        [], ["analyze"], ["unused"], ["baseline"], ["baseline", "write"], ["baseline", "compare"], ["trace"], ["car"], ["catalog"],
        ["history"], ["history", "show"], ["history", "forget"], ["devices"], ["rules"], ["lldb-script"], ["record"], ["agent-path"], ["agent-log"],
    ]

    func testEveryCommandsHelpIsItsSnapshot() throws {
        for command in Self.commands {
            let result = try BinaryRunner.run(command + ["--help"], environment: ["COLUMNS": "100"])
            XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
            let text = result.stdoutText
            let name = command.isEmpty ? "imgtrace" : command.joined(separator: "-")
            Golden.check(result.stdout, against: GoldenReportTests.golden.appendingPathComponent("help/\(name).txt"))
            guard !command.isEmpty else { continue }
            // Two examples, each a runnable-looking line.
            let examples = text.components(separatedBy: "Examples:\n").dropFirst().first?.split(separator: "\n").prefix { $0.hasPrefix("  imgtrace ") }
            XCTAssertEqual(examples?.count ?? 0, 2, "\(name): two examples\n\(text)")
            // In an 80-column terminal (and in a pipe) each example is still one line to copy.
            let narrow = try BinaryRunner.run(command + ["--help"], environment: ["COLUMNS": "80"]).stdoutText
            let narrowExamples = narrow.components(separatedBy: "Examples:\n").dropFirst().first?.split(separator: "\n").prefix { $0.hasPrefix("  imgtrace ") }
            XCTAssertEqual(narrowExamples.map(Array.init), examples.map(Array.init), "\(name): an example wraps at 80 columns\n\(narrow)")
            // A value list is printed once, by argument-parser.
            for values in ["error, warning, note", "text, json", "auto, always, never"] {
                XCTAssertLessThanOrEqual(text.components(separatedBy: values).count - 1, 1, "\(name): `\(values)` twice\n\(text)")
            }
            // argument-parser wraps everything but the usage line.
            for line in text.split(separator: "\n") where !line.hasPrefix("USAGE:") { XCTAssertLessThanOrEqual(line.count, 100, "\(name): \(line)") }
        }
    }

    /// What help says of defaults and required options is what the command does.
    func testTheDefaultsSaidAreTheDefaultsUsed() throws {
        let analyze = try BinaryRunner.run(["analyze", "--help"], environment: ["COLUMNS": "100"]).stdoutText
        XCTAssertTrue(analyze.contains("default: chosen for the app"), analyze)
        XCTAssertFalse(analyze.contains("[--bundle"), "--bundle is required, not optional: \(analyze)")
        let catalog = try BinaryRunner.run(["catalog", "--help"], environment: ["COLUMNS": "100"]).stdoutText
        XCTAssertTrue(catalog.contains("(values: text, json; default: text)"), catalog)
    }
}
