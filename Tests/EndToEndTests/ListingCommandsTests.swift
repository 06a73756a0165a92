import Foundation
import TestSupport
import XCTest

/// `imgtrace rules [ID] [--format json]`, `imgtrace devices --format json`, and the shell
/// completions users of similar tools expect.
final class ListingCommandsTests: XCTestCase {
    /// Every text listing fits 120 columns: prose wraps under its column, long names give way in the middle.
    func testTextListingsFit120Columns() throws {
        let examples = Corpus.packageRoot.appendingPathComponent("Examples").path
        for arguments in [
            ["rules"], ["devices"], ["trace", examples + "/launch.log"], ["catalog", examples + "/SampleApp.app"],
            ["car", examples + "/SampleApp.app/Assets.car", "--format", "text"],
        ] {
            let result = try BinaryRunner.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            for line in result.stdoutText.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.unicodeScalars.count, 120, "\(arguments[0]): \(line)")
            }
        }
        let trace = try BinaryRunner.run(["trace", examples + "/launch.log"]).stdoutText
        XCTAssertTrue(trace.contains("…1E2F/SampleApp.app/onboarding_step1@3x.png"), "a long name keeps both ends: \(trace)")
    }

    func testOneRuleInFullAndEveryRuleAsJSON() throws {
        let one = try BinaryRunner.run(["rules", "scale-mismatch"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdoutText.hasPrefix("scale-mismatch (warning)\n"), one.stdoutText)
        XCTAssertTrue(one.stdoutText.contains("parameters: ") && one.stdoutText.contains("fires:"), one.stdoutText)
        XCTAssertFalse(one.stdoutText.contains("missing-image"))
        // The examples are shown as the launches they are, not only their titles.
        let repeated = try BinaryRunner.run(["rules", "repeated-load"]).stdoutText
        XCTAssertTrue(repeated.contains("\n      ships   star@3x.png (60×60 px, 4096 bytes)\n"), repeated)
        XCTAssertTrue(repeated.contains("\n      launch  imageNamed: \"star\", imageNamed: \"star\", imageNamed: \"star\"\n"), repeated)
        let unused = try BinaryRunner.run(["rules", "unused-image"]).stdoutText
        XCTAssertTrue(unused.contains("\n      code    Tabs.swift: let icon = Image(.tabHome)\n"), unused)
        let all = try BinaryRunner.run(["rules", "--format", "json"])
        let rules = try XCTUnwrap(JSONSerialization.jsonObject(with: all.stdout) as? [[String: Any]])
        let table = try BinaryRunner.run(["rules"]).stdoutText
        XCTAssertEqual(rules.count, table.split(separator: "\n").filter { !$0.hasPrefix(" ") }.count - 1, "one JSON entry per table row")
        for rule in rules {
            XCTAssertNotNil(rule["id"] as? String)
            XCTAssertTrue(["error", "warning", "note"].contains(rule["severity"] as? String ?? ""))
            XCTAssertFalse((rule["examples"] as? [[String: Any]] ?? []).isEmpty, "\(rule["id"] ?? "?") has examples")
        }
        let unknown = try BinaryRunner.run(["rules", "no-such-rule"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("missing-image"), "lists the rules: \(unknown.stderr)")
    }

    func testDevicesAsJSONMarkTheDefault() throws {
        let run = try BinaryRunner.run(["devices", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        XCTAssertEqual(devices.filter { $0["default"] as? Bool == true }.count, 1)
        for device in devices {
            let width = try XCTUnwrap(device["pointWidth"] as? Int), scale = try XCTUnwrap(device["scale"] as? Int)
            XCTAssertEqual(device["pixelWidth"] as? Int, width * scale, "\(device["id"] ?? "?")")
        }
    }

    func testCompletionScriptsOfferDevicesFormatsAndRules() throws {
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: try BinaryRunner.run(["devices", "--format", "json"]).stdout) as? [[String: Any]])
        for shell in ["bash", "zsh", "fish"] {
            let script = try BinaryRunner.run(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            for device in devices { XCTAssertTrue(script.stdoutText.contains(device["id"] as? String ?? "?"), "\(shell): --device values") }
            for format in ["sarif", "checkstyle", "xcode"] { XCTAssertTrue(script.stdoutText.contains(format), "\(shell): --format \(format)") }
            XCTAssertTrue(script.stdoutText.contains("baseline-regression"), "\(shell): rule ids")
        }
    }
}

/// A report written to a file leaves one line on stderr that says how the audit went.
final class VerdictLineTests: XCTestCase {
    func testAReportWrittenToAFileLeavesAOneLineVerdictOnStderr() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("audit.json").path
        let run = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", "json", "--output", output],
            in: Corpus.packageRoot)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdoutText, "")
        XCTAssertEqual(run.stderr, "imgtrace: 3 errors, 7 warnings, 8 notes — FAIL; report: \(output)\n")
    }
}
