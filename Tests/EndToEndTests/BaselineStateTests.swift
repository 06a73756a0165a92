import Foundation
import TestSupport
import XCTest

/// Against a baseline, every format says what this change did: GitHub annotates only what fails
/// (what the baseline accepts is one counted notice), JUnit fails exactly that, every SARIF result
/// has its `baselineState` (fixed ones `absent`), and Markdown and HTML carry the baseline block.
final class BaselineStateTests: XCTestCase {
    private var dir: URL!
    private let root = Corpus.packageRoot

    override func setUpWithError() throws { dir = try BinaryRunner.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// The example's log with `edit` applied to its text.
    private func log(_ name: String, _ edit: (String) -> String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("Examples/launch.log"), encoding: .utf8)
        let url = dir.appendingPathComponent(name)
        try edit(text).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    private func analyze(_ log: String, baseline: String, format: String) throws -> String {
        let run = try BinaryRunner.run(["analyze", log, "--bundle", "Examples/SampleApp.app", "--baseline", baseline, "--format", format], in: root)
        XCTAssertNotEqual(run.status, 2, run.stderr)
        return run.stdoutText
    }

    func testEveryFormatSaysWhatThisChangeDid() throws {
        let base = dir.appendingPathComponent("base.json").path
        let write = try BinaryRunner.run(["baseline", "write", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--output", base], in: root)
        XCTAssertEqual(write.status, 0, write.stderr)
        // Three more `placeholder` loads in the launch: one worse figure, the 3 accepted errors stay accepted.
        let more = try log("more.log") { $0.replacingOccurrences(of: "placeholder\n/private", with: "placeholder\nplaceholder\nplaceholder\nplaceholder\n/private") }

        let github = try analyze(more, baseline: base, format: "github")
        let errors = github.split(separator: "\n").filter { $0.hasPrefix("::error ") }
        XCTAssertEqual(errors.count, 1, github)
        XCTAssertTrue(errors[0].contains("title=imgtrace baseline-regression::`launch.loads` is worse than the baseline: 21 → 24"), github)
        XCTAssertTrue(github.contains("::notice title=imgtrace baseline::18 findings the baseline accepts are not annotated"), github)
        XCTAssertTrue(github.hasSuffix("imgtrace: FAIL: 4 errors, 7 warnings, 8 notes (18 accepted by the baseline)\n"), github)

        let junit = try analyze(more, baseline: base, format: "junit")
        XCTAssertTrue(junit.contains("<testsuites name=\"imgtrace launch audit\" tests=\""), junit)
        XCTAssertEqual(junit.components(separatedBy: "<failure ").count - 1, 1, junit)
        XCTAssertTrue(junit.contains("failures=\"1\" errors=\"0\">"), junit)
        XCTAssertTrue(junit.contains("<system-out>accepted by the baseline: error: `Tab_Profile` loads nothing"), junit)

        let sarif = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try analyze(more, baseline: base, format: "sarif").utf8)) as? [String: Any])
        let results = try XCTUnwrap(((sarif["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        let states = results.map { $0["baselineState"] as? String ?? "none" }
        XCTAssertEqual(states.filter { $0 == "unchanged" }.count, 18)
        XCTAssertEqual(states.filter { $0 == "updated" }.count, 1, "the worse figure")
        XCTAssertEqual(states.count, 19, "every result has one")

        let markdown = try analyze(more, baseline: base, format: "markdown")
        XCTAssertTrue(markdown.contains("### Baseline\n\n0 new, 0 fixed, 1 figure worse — FAIL\n\n- worse: launch.loads 21 → 24 (allowed up to 23)\n"), markdown)
        XCTAssertTrue(markdown.contains("| severity | baseline | rule | finding | fix |"), markdown)
        XCTAssertTrue(markdown.contains("| error | worse | `baseline-regression` |"), markdown)
        XCTAssertTrue(markdown.contains("| error | accepted | `missing-image` |"), markdown)
        XCTAssertTrue(markdown.contains("**4 errors, 7 warnings, 8 notes** (18 accepted by the baseline; fails at error)"), markdown)

        let html = try analyze(more, baseline: base, format: "html")
        XCTAssertTrue(html.contains("<div class=\"baseline\"><b>Baseline:</b> 0 new, 0 fixed, 1 figure worse — FAIL<ul><li>worse: "), html)

        // A fixed finding: `photo_of_the_day` now found nothing to miss. SARIF lists it `absent`.
        let fixed = try log("fixed.log") { $0.replacingOccurrences(of: "photo_of_the_day\n", with: "") }
        let fixedSarif = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try analyze(fixed, baseline: base, format: "sarif").utf8)) as? [String: Any])
        let fixedResults = try XCTUnwrap(((fixedSarif["runs"] as? [[String: Any]])?.first)?["results"] as? [[String: Any]])
        let absent = fixedResults.filter { $0["baselineState"] as? String == "absent" }
        XCTAssertEqual(absent.count, 1, "\(fixedResults.map { $0["baselineState"] ?? "-" })")
        XCTAssertEqual(absent.first?["kind"] as? String, "pass")
        XCTAssertTrue(((absent.first?["message"] as? [String: Any])?["text"] as? String ?? "").contains("photo_of_the_day"), "\(absent)")
    }

    /// A run failed by a budget alone: the baseline did not fail it, and the line says what did.
    func testABudgetFailureIsNotTheBaselines() throws {
        let base = dir.appendingPathComponent("base.json").path
        _ = try BinaryRunner.run(["baseline", "write", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--output", base], in: root)
        let config = dir.appendingPathComponent("imgtrace.yml")
        try "budgets:\n  maxLaunchLoads: 10\n".write(to: config, atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--baseline", base, "--config", config.path], in: root)
        XCTAssertEqual(run.status, 1, run.stdoutText)
        XCTAssertTrue(
            run.stdoutText.contains("BASELINE: 0 new, 0 fixed, figures within tolerance — FAIL on `budget-exceeded`, judged afresh every run"),
            run.stdoutText)
        // The fix names the config the budget came from, not the default name.
        let json = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--config", config.path, "--format", "json"], in: root)
        XCTAssertTrue(json.stdoutText.contains("raise `budgets.maxLaunchLoads` in `imgtrace.yml` if the growth is intended"), json.stdoutText)
    }
}

/// A baseline keeps the launch's image names: a worse figure names what moved it, in every
/// format, `baseline compare` of two builds names it, and two apps' baselines are not compared.
final class BaselineNamesTests: XCTestCase {
    func testAWorseFigureNamesTheImageThatMovedIt() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = Corpus.packageRoot
        let text = try String(contentsOf: root.appendingPathComponent("Examples/launch.log"), encoding: .utf8)
        let more = dir.appendingPathComponent("empty.log")
        try text.replacingOccurrences(of: "\nwelcome\n", with: "\nwelcome\nempty_state\n").write(to: more, atomically: true, encoding: .utf8)
        let base = dir.appendingPathComponent("base.json").path, branch = dir.appendingPathComponent("branch.json").path
        for (log, out) in [("Examples/launch.log", base), (more.path, branch)] {
            let write = try BinaryRunner.run(["baseline", "write", log, "--bundle", "Examples/SampleApp.app", "--output", out], in: root)
            XCTAssertEqual(write.status, 0, write.stderr)
        }
        let written = try String(contentsOf: URL(fileURLWithPath: base), encoding: .utf8)
        XCTAssertTrue(written.contains(#"  "app": "SampleApp.app","#), written)
        XCTAssertTrue(written.contains(#"    {"name": "placeholder", "image": "placeholder@3x.png", "loads": 3, "decodedBytes": 57600, "bytesOnDisk": 98}"#), written)

        for format in ["text", "json", "markdown", "html", "sarif", "github", "junit", "gitlab", "checkstyle", "xcode"] {
            let run = try BinaryRunner.run(
                ["analyze", more.path, "--bundle", "Examples/SampleApp.app", "--baseline", base, "--format", format], in: root)
            XCTAssertEqual(run.status, 1, "\(format): \(run.stderr)")
            XCTAssertTrue(run.stdoutText.contains("empty_state"), "\(format) names the image that moved launch.images")
        }
        let compare = try BinaryRunner.run(["baseline", "compare", base, branch], in: root)
        XCTAssertEqual(compare.status, 1)
        XCTAssertTrue(compare.stdoutText.contains("  worse: launch.images 14 → 15 (allowed up to 14)\n  moved: new at launch: `empty_state` ("), compare.stdoutText)

        // Another app's baseline: not compared.
        let other = try String(contentsOf: URL(fileURLWithPath: branch), encoding: .utf8).replacingOccurrences(of: #""app": "SampleApp.app""#, with: #""app": "Other.app""#)
        try other.write(toFile: branch, atomically: true, encoding: .utf8)
        let refused = try BinaryRunner.run(["baseline", "compare", base, branch], in: root)
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("a baseline of `Other.app`, not of `SampleApp.app`"), refused.stderr)
    }
}

/// An ordinary Xcode console, no breakpoint at all: the system's own three warnings of a missing
/// image are three `missing-image` findings at their lines, and the log is a partial launch (said).
final class ConsoleWarningTests: XCTestCase {
    func testTheSystemsWarningsAreMissingImages() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stamp = "2026-11-21 09:14:02.218204+0100 Sample[4242:118204] "
        let log = dir.appendingPathComponent("console.log")
        try [
            stamp + "application:didFinishLaunchingWithOptions:",
            stamp + "No image named 'brand_logo' found in asset catalog for /private/var/containers/Bundle/Application/5C3A/SampleApp.app",
            stamp + #"Could not load the "banner_missing" image referenced from a nib in the bundle with identifier "com.example.Sample""#,
            stamp + "[framework] CUICatalog: Invalid asset name supplied: '(null)'",
        ].joined(separator: "\n").write(to: log, atomically: true, encoding: .utf8)
        let run = try BinaryRunner.run(["analyze", log.path, "--bundle", "Examples/SampleApp.app", "--format", "json"], in: Corpus.packageRoot)
        XCTAssertEqual(run.status, 1, run.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let findings = try XCTUnwrap(json["findings"] as? [[String: Any]])
        let missing = findings.filter { $0["rule"] as? String == "missing-image" }
        let named = missing.compactMap { ($0["message"] as? String)?.split(separator: "`").first.map(String.init) }
        XCTAssertEqual(named.sorted(), ["(nil)", "banner_missing", "brand_logo"])
        let lines = missing.compactMap { (($0["lines"] as? [[String: Any]])?.first)?["line"] as? Int }.sorted()
        XCTAssertEqual(lines, [2, 3, 4])
        XCTAssertFalse(findings.contains { $0["rule"] as? String == "no-evidence" }, "a partial launch, not no evidence")
        let warnings = try XCTUnwrap(json["warnings"] as? [[String: Any]]).compactMap { $0["message"] as? String }
        XCTAssertTrue(warnings.contains { $0.contains("a partial launch") }, "\(warnings)")
    }
}
