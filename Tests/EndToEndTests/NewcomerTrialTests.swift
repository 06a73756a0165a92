import Foundation
import TestSupport
import XCTest

/// What a newcomer met trying the CLI (issue 59's smaller items), each as it now behaves.
final class NewcomerTrialTests: XCTestCase {
    private let root = Corpus.packageRoot

    /// An Objective-C method starts with a dash: `--launch-end '-[…]'` (and `--objc`, `--symbol`)
    /// take it as the value, not as an option.
    func testAMethodNameIsAValueNotAnOption() throws {
        let method = "-[NSApplication finishLaunching]"
        let script = try BinaryRunner.run(["lldb-script", "--launch-end", method], in: root)
        XCTAssertEqual(script.status, 0, script.stderr)
        XCTAssertTrue(script.stdoutText.contains(#"breakpoint set --name "-[NSApplication finishLaunching]" -o true"#), script.stdoutText)
        for command in [["trace", "Examples/launch.log"], ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--fail-on", "never"]] {
            let run = try BinaryRunner.run(command + ["--launch-end", method], in: root)
            XCTAssertEqual(run.status, 0, "\(command[0]): \(run.stderr)")
        }
        let record = try BinaryRunner.run(["record", "--objc", "-[UIImage initWithContentsOfFile:]", "--launch-end", method, "--help"], in: root)
        XCTAssertNotEqual(record.status, 64, record.stderr)
    }

    /// A format name that does not exist says which do, and the nearest.
    func testAnUnknownFormatListsTheFormats() throws {
        let run = try BinaryRunner.run(["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", "htm"], in: root)
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("no format `htm`; did you mean `html`? (formats: text, json, markdown, html, sarif"), run.stderr)
    }

    /// `unused`'s page says why a run with unused images passes, as the text report does.
    func testUnusedsPageSaysItIsNotGating() throws {
        let run = try BinaryRunner.run(["unused", "--bundle", "Examples/SampleApp.app", "--format", "html"], in: root)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdoutText.contains("unused images, ") && run.stdoutText.contains("not gating: add"), "a bare PASS beside unused images")
    }

    /// A run within its budgets shows how close it came; a baseline that is a log says what it is not.
    func testBudgetHeadroomAndABaselineThatIsALog() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("imgtrace.yml")
        try "budgets:\n  maxLaunchLoads: 30\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--config", config.path, "--fail-on", "never"], in: root)
        XCTAssertTrue(run.stdoutText.contains("within budget: maxLaunchLoads 21 of 30 (70%)"), run.stdoutText)
        let markdown = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--config", config.path, "--format", "markdown"], in: root)
        XCTAssertTrue(markdown.stdoutText.contains("- ✅ within budget `maxLaunchLoads`: 21 of 30 (70%)"), markdown.stdoutText)

        let compare = try BinaryRunner.run(["baseline", "compare", "Examples/launch.log", "Examples/launch.log"], in: root)
        XCTAssertEqual(compare.status, 2)
        XCTAssertTrue(compare.stderr.contains("Examples/launch.log: offset 4: not an imgtrace baseline: not JSON"), compare.stderr)
    }

    /// `imgtrace rules` is a table, a row per rule with its severity beside it, the prose wrapping
    /// within its column: not a block per rule.
    func testTheRulesListIsARowPerRule() throws {
        let run = try BinaryRunner.run(["rules"], in: root)
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdoutText.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("ID ") == true && lines.first?.contains("SEVERITY  WHAT IT FLAGS") == true, run.stdoutText)
        let missing = try XCTUnwrap(lines.first { $0.hasPrefix("missing-image ") })
        XCTAssertTrue(missing.contains(" error ") && missing.contains("A name that resolves to nothing"), String(missing))
        XCTAssertTrue(lines.allSatisfy { $0.count <= 120 })
    }
}
