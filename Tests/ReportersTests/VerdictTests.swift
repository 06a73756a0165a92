import AuditModel
import AuditPolicy
import AuditRules
import AuditTestSupport
import LaunchAudit
import Reporters
import UnusedAudit
import XCTest

/// The verdict reads as the gate decided: a run that `--fail-on never` does not judge never
/// says PASS (in a pull-request comment, "✅ pass" above three errors reads as clean).
final class VerdictTests: XCTestCase {
    func testEachOutcomeAndItsWords() {
        let found: [Severity: Int] = [.error: 3, .warning: 10, .note: 11]
        let failing = Verdict(fails: true, failOn: .error, counts: found)
        XCTAssertEqual(failing.word, "FAIL")
        XCTAssertEqual(failing.badge, "FAIL")
        let passing = Verdict(fails: false, failOn: .error, counts: [.warning: 2])
        XCTAssertEqual(passing.word, "PASS")
        let notGating = Verdict(fails: false, failOn: nil, counts: found)
        XCTAssertEqual(notGating.outcome, .notGating)
        XCTAssertEqual(notGating.word, "NOT GATING")
        XCTAssertEqual(notGating.badge, "3 errors — not gating")
        XCTAssertEqual(Verdict(fails: false, failOn: nil, counts: [.note: 1]).badge, "1 note — not gating")
        XCTAssertEqual(Verdict(fails: false, failOn: nil, counts: [:]).badge, "no findings — not gating")
        XCTAssertEqual(notGating.countsText, "3 errors, 10 warnings, 11 notes")
    }

    /// Every report a person reads, for a run with errors that nothing gates: no PASS anywhere.
    func testNoHumanReportSaysPassWhenNothingGates() throws {
        let example = try XCTUnwrap(Rules.all.first { $0.id == "missing-image" }?.examples.first { $0.fires })
        var result = example.audit()
        XCTAssertGreaterThan(result.severityCounts[.error] ?? 0, 0, "the example has an error")
        result.failOn = nil
        (result.bundlePaths, result.logPaths) = (["Example.app"], ["example.log"])
        for id in ["text", "markdown", "html", "github"] {
            let reporter = try XCTUnwrap(AuditReporters.all.first { $0.id == id })
            let sink = ByteSink(collecting: reporter.consumer)
            reporter.render(ReportInput(result: result, toolVersion: "0"), to: sink)
            let text = String(decoding: sink.collected, as: UTF8.self)
            XCTAssertFalse(text.contains("PASS") || text.contains("✅"), "\(id) says pass:\n\(text.prefix(600))")
            XCTAssertTrue(text.contains("not gating") || text.contains("NOT GATING"), "\(id) does not say it did not gate")
        }
    }
}
