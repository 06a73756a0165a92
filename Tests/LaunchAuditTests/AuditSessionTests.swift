import AuditModel
import AuditPolicy
import AuditRules
import Foundation
import ImgtraceSupport
import LaunchAudit
import LaunchTrace
import TestSupport
import UnusedAudit
import XCTest

/// The audit as a library: what an embedder gets from `AuditSession.run` without the CLI.
final class AuditSessionTests: XCTestCase {
    private var example: AuditRequest {
        let root = Corpus.packageRoot
        return AuditRequest(
            logs: [root.appendingPathComponent("Examples/launch.log").path],
            bundles: [root.appendingPathComponent("Examples/SampleApp.app").path])
    }

    func testTheExampleFailsOnItsErrorsAndStreamsEveryLoad() throws {
        var streamed = 0
        let outcome = try AuditSession.run(example) { _, log, _ in
            XCTAssertEqual(log, 0)
            streamed += 1
        }
        XCTAssertEqual(streamed, outcome.result.logs[0].summary.hits)
        XCTAssertTrue(outcome.result.findings.contains { $0.rule == "missing-image" && $0.severity == .error })
        XCTAssertTrue(outcome.fails)
        XCTAssertNil(outcome.baseline)
    }

    /// The result carries the inputs it was read from, as given: a reporter needs nothing beside it.
    func testTheResultCarriesItsInputs() throws {
        let analyzed = try AuditSession.run(example).result
        XCTAssertEqual(analyzed.bundlePaths, example.bundles)
        XCTAssertEqual(analyzed.logPaths, example.logs)
        let unused = try AuditSession.unused(example).result
        XCTAssertEqual(unused.bundlePaths, example.bundles)
        XCTAssertEqual(unused.logPaths, example.logs)
    }

    func testOverridesReplaceTheConfig() throws {
        var request = example
        request.failOn = .some(nil)
        XCTAssertFalse(try AuditSession.run(request).fails, "--fail-on never never fails")
        request.failOn = nil
        request.minLaunchLoads = 1_000
        let outcome = try AuditSession.run(request)
        XCTAssertTrue(outcome.result.findings.contains { $0.rule == "no-evidence" })
        XCTAssertEqual(outcome.settings.evidence.minLaunchLoads, 1_000)
    }

    func testABaselineOfTheSameRunHasNothingNew() throws {
        let first = try AuditSession.run(example)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-session-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("baseline.json")
        try Data(Baseline(first.result).render()).write(to: file)
        var request = example
        request.baselinePath = file.path
        let again = try AuditSession.run(request)
        let comparison = try XCTUnwrap(again.baseline)
        XCTAssertTrue(comparison.newFindings.isEmpty, "\(comparison.newFindings.map(\.rule))")
        XCTAssertTrue(comparison.regressions.isEmpty)
        XCTAssertFalse(again.fails)
    }

    func testUnreadableInputsAreInputErrorsNamingThem() {
        var request = example
        request.device = "iphone-99"
        XCTAssertThrowsError(try AuditSession.run(request)) { error in
            XCTAssertTrue(error is InputError && "\(error)".contains("iphone-99"), "\(error)")
        }
        request = example
        request.bundles = ["/nonexistent/App.app"]
        XCTAssertThrowsError(try AuditSession.run(request)) { error in
            XCTAssertTrue(error is InputError && "\(error)".contains("/nonexistent/App.app"), "\(error)")
        }
        request = example
        request.baselinePath = "/nonexistent/baseline.json"
        XCTAssertThrowsError(try AuditSession.run(request)) { error in
            XCTAssertTrue(error is InputError && "\(error)".contains("baseline.json"), "\(error)")
        }
    }
}
