import Foundation
import TestSupport
import XCTest

/// Every SARIF these tests produce is valid against the official 2.1.0 schema.
final class SARIFReportTests: XCTestCase {
    private func validate(_ data: Data, _ label: String) throws {
        guard SARIFValidator.schema != nil else { throw XCTSkip("../shared/schemas is absent") }
        guard SARIFValidator.python != nil else { throw XCTSkip("python3 with jsonschema is absent (.ci/run installs python3-jsonschema)") }
        let errors = try SARIFValidator.errors(in: data)
        XCTAssertEqual(errors, [], label)
    }

    func testExampleSARIFIsValidAndPointsAtAssetsAndLogLines() throws {
        let result = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", "sarif"],
            in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 1, result.stderr)
        try validate(result.stdout, "example")
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let run = try XCTUnwrap((doc["runs"] as? [[String: Any]])?.first)
        let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.count, 15, "every rule, the policy rules (no-evidence, budget-exceeded, baseline-regression) included")
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        let hero = try XCTUnwrap(results.first { $0["ruleId"] as? String == "oversized-pixels" && "\($0)".contains("hero_banner") })
        let uris = (hero["locations"] as? [[String: Any]] ?? []).compactMap {
            (($0["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        }
        XCTAssertEqual(uris, ["Examples/SampleApp.app/hero_banner.jpg", "Examples/launch.log"])
        let fingerprints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?["imgtraceFingerprint/v1"] }
        XCTAssertEqual(Set(fingerprints).count, results.count)
        let url = GoldenReportTests.golden.appendingPathComponent("example.sarif")
        Golden.check(result.stdout, against: url)
    }

    func testGridlockSARIFIsValid() throws {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let dir = root.appendingPathComponent("e2e/gridlock")
        let result = try BinaryRunner.run(
            [
                "analyze", "b-gridlock-gdb-po-silent.txt", "b-gridlock-lldb-nsprint.txt", "--bundle", "Gridlock.app",
                "--system-images", "system-images", "--format", "sarif",
            ], in: dir)
        // Unmodified Gridlock passes: what is missing or repeated is GNUstep's own lookups (`toolkit.names`).
        XCTAssertEqual(result.status, 0, result.stderr)
        try validate(result.stdout, "gridlock")
        XCTAssertTrue(result.stdoutText.contains("\"uri\":\"b-gridlock-gdb-po-silent.txt\""))
    }

    func testOddPathsAreEscapedAndStillValid() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = dir.appendingPathComponent("My App#1.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data(ImageWriter.png(width: 10, height: 10)).write(to: app.appendingPathComponent("ünïcode 50%@2x.png"))
        try "ünïcode 50%\nnothing\n".write(to: dir.appendingPathComponent("run 1.log"), atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", "run 1.log", "--bundle", "My App#1.app", "--format", "sarif"], in: dir)
        XCTAssertEqual(result.status, 1, result.stderr)
        try validate(result.stdout, "odd paths")
        XCTAssertTrue(result.stdoutText.contains("My%20App%231.app/%C3%BCn%C3%AFcode%2050%25@2x.png"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("\"uri\":\"run%201.log\""))
    }
}
