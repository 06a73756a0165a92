import Foundation
import TestSupport
import XCTest

/// `baseline write`, `analyze --baseline` and `baseline compare`: only what got worse fails.
final class BaselineTests: XCTestCase {
    let root = Corpus.packageRoot

    /// A copy of the example log with `edit` applied, in `dir`.
    private func log(_ dir: URL, _ name: String, _ edit: (String) -> String) throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("Examples/launch.log"), encoding: .utf8)
        let url = dir.appendingPathComponent(name)
        try edit(text).write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    func testOnlyNewFindingsAndWorseFiguresFail() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = root.appendingPathComponent("Examples/SampleApp.app").path
        let base = dir.appendingPathComponent("imgtrace-baseline.json").path
        let same = try log(dir, "same.log") { $0 }
        let write = try BinaryRunner.run(["baseline", "write", same, "--bundle", app, "--output", base])
        XCTAssertEqual(write.status, 0, write.stderr)
        // It says what it wrote: the findings by severity and the launch figures.
        XCTAssertTrue(write.stderr.hasPrefix("imgtrace: wrote \(base): 18 findings (3 errors, 7 warnings, 8 notes); launch figures: 21 loads, "), write.stderr)
        let text = try String(contentsOf: URL(fileURLWithPath: base), encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("{\n  \"schemaVersion\": 5,\n  \"kind\": \"imgtrace-baseline\""), text)
        XCTAssertEqual(text.components(separatedBy: "\n    {\"fingerprint\"").count - 1, 18, "one finding per line")
        let again = try BinaryRunner.run(["baseline", "write", same, "--bundle", app, "--output", base + ".2"])
        XCTAssertEqual(again.status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: base)), try Data(contentsOf: URL(fileURLWithPath: base + ".2")))

        // The same launch: its three missing-image errors are known, so nothing fails.
        let unchanged = try BinaryRunner.run(["analyze", same, "--bundle", app, "--baseline", base])
        XCTAssertEqual(unchanged.status, 0, unchanged.stdoutText)
        XCTAssertTrue(
            unchanged.stdoutText.contains("PASS: 3 errors, 7 warnings, 8 notes (18 accepted by the baseline; new findings fail at error and above)"),
            unchanged.stdoutText)
        XCTAssertTrue(unchanged.stdoutText.contains("BASELINE: 0 new, 0 fixed, figures within tolerance — PASS"), unchanged.stdoutText)

        // A new missing name is a new error.
        let newMissing = try log(dir, "new.log") { $0.replacingOccurrences(of: "photo_of_the_day\n", with: "photo_of_the_day\nbrand_new_missing\n") }
        // By default a launch may load 2 more than its baseline (the spread of repeated launches):
        // the one more load is within it. With no tolerance it is a worse figure.
        let withinTolerance = try BinaryRunner.run(["analyze", newMissing, "--bundle", app, "--baseline", base])
        XCTAssertTrue(withinTolerance.stdoutText.contains("BASELINE: 1 new, 0 fixed, figures within tolerance — FAIL"), withinTolerance.stdoutText)
        let strict = dir.appendingPathComponent("strict.yml").path
        try "baseline:\n  launchLoadsTolerance: 0\n".write(toFile: strict, atomically: true, encoding: .utf8)
        let failed = try BinaryRunner.run(["analyze", newMissing, "--bundle", app, "--baseline", base, "--format", "json", "--config", strict])
        XCTAssertEqual(failed.status, 1)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: failed.stdout) as? [String: Any])
        let comparison = try XCTUnwrap(doc["baseline"] as? [String: Any])
        // The missing name is new; one load more than the baseline is a worse figure (and a
        // `baseline-regression` finding that fails), not a second new finding.
        XCTAssertEqual((comparison["newFindings"] as? [String])?.count, 1)
        let rules = (doc["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        XCTAssertTrue(rules.contains("baseline-regression"), "\(rules)")
        XCTAssertEqual(comparison["fails"] as? Bool, true)

        // `analyze --baseline` and `baseline compare` of the same two runs say the same, each worse figure once.
        let report = try BinaryRunner.run(["analyze", newMissing, "--bundle", app, "--baseline", base, "--config", strict])
        let newBase = dir.appendingPathComponent("new-baseline.json").path
        XCTAssertEqual(try BinaryRunner.run(["baseline", "write", newMissing, "--bundle", app, "--output", newBase]).status, 0)
        let compared = try BinaryRunner.run(["baseline", "compare", base, newBase, "--config", strict])
        let analyzeHead = report.stdoutText.split(separator: "\n").first { $0.hasPrefix("BASELINE:") }
        let compareHead = compared.stdoutText.split(separator: "\n").first { $0.hasPrefix("BASELINE:") }
        XCTAssertEqual(analyzeHead, compareHead)
        XCTAssertEqual(analyzeHead, "BASELINE: 1 new, 0 fixed, 1 figure worse — FAIL")
        XCTAssertEqual(report.stdoutText.components(separatedBy: "21 → 22 (allowed up to 21)").count - 1, 2, "the worse line and the finding itself, no third")
        XCTAssertFalse(report.stdoutText.contains("new error baseline-regression"), report.stdoutText)

        // A fixed problem and smaller figures pass; the fix is reported.
        let fixed = try log(dir, "fixed.log") { $0.replacingOccurrences(of: "Tab_Profile\n", with: "") }
        let better = try BinaryRunner.run(["analyze", fixed, "--bundle", app, "--baseline", base])
        XCTAssertEqual(better.status, 0, better.stdoutText)
        XCTAssertTrue(better.stdoutText.contains("BASELINE: 0 new, 1 fixed"), better.stdoutText)

        // A baseline without the hero image: the full launch decodes far more than +5% and has a new image.
        let smallBase = dir.appendingPathComponent("small.json").path
        let small = try log(dir, "small.log") { $0.replacingOccurrences(of: "hero_banner.jpg\n", with: "") }
        XCTAssertEqual(try BinaryRunner.run(["baseline", "write", small, "--bundle", app, "--output", smallBase]).status, 0)
        let never = try BinaryRunner.run(["analyze", same, "--bundle", app, "--baseline", smallBase, "--fail-on", "never"])
        XCTAssertEqual(never.status, 0, "--fail-on never never fails, worse figures included")
        XCTAssertTrue(never.stdoutText.contains("worse: launch.decodedBytes"), never.stdoutText)
        let worse = try BinaryRunner.run(["analyze", same, "--bundle", app, "--baseline", smallBase])
        XCTAssertEqual(worse.status, 1, "worse figures fail at any fail level")
        XCTAssertTrue(worse.stdoutText.contains("worse: launch.decodedBytes"), worse.stdoutText)
        XCTAssertTrue(worse.stdoutText.contains("worse: launch.images 13 → 14 (allowed up to 13)"), worse.stdoutText)
        // Sizes read as sizes, and the section fits the text report's 120 columns.
        XCTAssertNotNil(worse.stdoutText.range(of: #"worse: launch\.decodedBytes [0-9.]+ MiB → [0-9.]+ MiB \(allowed up to [0-9.]+ MiB\)"#, options: .regularExpression))
        XCTAssertFalse(worse.stdoutText.split(separator: "\n").contains { $0.unicodeScalars.count > 120 })
        let tolerant = dir.appendingPathComponent("tolerant.yml")
        try "baseline:\n  launchDecodedBytesTolerance: 1000\n  launchBytesOnDiskTolerance: 1000\n  launchImagesTolerance: 5\n  launchLoadsTolerance: 5\n"
            .write(to: tolerant, atomically: true, encoding: .utf8)
        let allowed = try BinaryRunner.run(["analyze", same, "--bundle", app, "--baseline", smallBase, "--fail-on", "never", "--config", tolerant.path])
        XCTAssertEqual(allowed.status, 0, allowed.stdoutText)

        // compare shows the same changes between two baselines.
        let compare = try BinaryRunner.run(["baseline", "compare", smallBase, base])
        XCTAssertEqual(compare.status, 1)
        XCTAssertTrue(compare.stdoutText.contains("new warning oversized-pixels: `hero_banner.jpg`"), compare.stdoutText)
        XCTAssertEqual(try BinaryRunner.run(["baseline", "compare", base, smallBase]).status, 0, "the other way round only fixes things")
        // The config's failOn and ignored rules mean what they mean to analyze.
        let neverFails = dir.appendingPathComponent("never.yml")
        try "failOn: never\n".write(to: neverFails, atomically: true, encoding: .utf8)
        XCTAssertEqual(try BinaryRunner.run(["baseline", "compare", smallBase, base, "--config", neverFails.path]).status, 0, "the config's failOn: never")
        XCTAssertEqual(try BinaryRunner.run(["baseline", "compare", smallBase, base, "--config", neverFails.path, "--fail-on", "warning"]).status, 1, "the flag wins")
        let quiet = dir.appendingPathComponent("quiet.yml")
        let ignoredRules = "oversized-pixels, oversized-memory, large-file, missing-image, scale-mismatch, repeated-load, loose-image, duplicate-content"
        let tolerances = "  launchDecodedBytesTolerance: 1000\n  launchBytesOnDiskTolerance: 1000\n  launchImagesTolerance: 50\n  launchLoadsTolerance: 50\n"
        try "failOn: note\nignore:\n  rules: [\(ignoredRules), uncached-repeat, trace-unreadable, budget-exceeded, no-evidence, bundle-junk]\nbaseline:\n\(tolerances)"
            .write(to: quiet, atomically: true, encoding: .utf8)
        let ignoring = try BinaryRunner.run(["baseline", "compare", smallBase, base, "--config", quiet.path])
        XCTAssertEqual(ignoring.status, 0, ignoring.stdoutText)
        XCTAssertFalse(ignoring.stdoutText.contains("new warning oversized-pixels"), ignoring.stdoutText)
    }

    /// A capture that saw nothing never becomes the reference: one line, exit 1, no file.
    /// A timed capture's baseline keeps the median launch's main-thread image time (lookups and
    /// decodes); a later timed launch beyond the tolerance is a regression, within it is not, and
    /// an untimed capture compares no time.
    func testMainThreadImageTimeIsGatedOnlyBetweenTimedCaptures() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = root.appendingPathComponent("Examples/SampleApp.app").path
        func timed(_ name: String, hero: String, decode: String) throws -> String {
            let url = dir.appendingPathComponent(name)
            try """
            imgtrace-recording-start 2026-11-26 10:30:25.223
            2026-11-26 10:30:25.389 [SampleApp] (code) +[UIImage imageNamed:]: "hero_banner" \(hero) ms
            2026-11-26 10:30:25.410 [loader 4242] (code) +[UIImage imageNamed:]: "tab_home" 9.000 ms
            2026-11-26 10:30:25.420 [SampleApp] (decode) -[NSImage _loadFromFile:]: "hero_banner" \(decode) ms
            imgtrace-launch-end
            imgtrace-recording-end hits=2 launch-end=reached program=exit:0 launch-ms=400

            """.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
        let base = dir.appendingPathComponent("timed-baseline.json").path
        let write = try BinaryRunner.run(["baseline", "write", try timed("a.log", hero: "10.000", decode: "2.000"), "--bundle", app, "--output", base])
        XCTAssertEqual(write.status, 0, write.stderr)
        // The main thread's 10 + 2 ms; the loader thread's 9 ms is not the main thread's.
        XCTAssertTrue(try String(contentsOfFile: base, encoding: .utf8).contains("\"mainThreadImageMicroseconds\": 12000"))
        func regressions(_ log: String) throws -> [String] {
            let run = try BinaryRunner.run(["analyze", log, "--bundle", app, "--baseline", base, "--format", "json", "--fail-on", "never"])
            XCTAssertEqual(run.status, 0, run.stderr)
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
            return (doc["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "baseline-regression" }.compactMap { $0["message"] as? String }
        }
        XCTAssertEqual(try regressions(try timed("b.log", hero: "14.000", decode: "2.000")), [], "16 ms within 50% of 12")
        XCTAssertEqual(
            try regressions(try timed("c.log", hero: "30.000", decode: "2.000")),
            ["`launch.mainThreadImageMicroseconds` is worse than the baseline: 12.000 ms → 32.000 ms (allowed up to 18.000 ms)"])
        XCTAssertEqual(try regressions(root.appendingPathComponent("Examples/launch.log").path).filter { $0.contains("Microseconds") }, [], "an untimed capture")
    }

    func testNoEvidenceWritesNoBaseline() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = root.appendingPathComponent("Examples/SampleApp.app").path
        let empty = try log(dir, "empty.log") { _ in "" }
        let base = dir.appendingPathComponent("b.json").path
        let write = try BinaryRunner.run(["baseline", "write", empty, "--bundle", app, "--output", base])
        XCTAssertEqual(write.status, 1)
        XCTAssertEqual(write.stderr, "imgtrace: not writing a baseline: the log is empty: nothing was captured\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: base))
    }

    func testBadBaselinesExitTwo() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.json")
        try "{\"schemaVersion\": 2, \"kind\": \"something else\"}".write(to: bad, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--baseline", bad.path], in: root)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("bad.json: not an imgtrace baseline"), result.stderr)
        XCTAssertEqual(result.stdout.count, 0)
        let missing = try BinaryRunner.run(["baseline", "compare", bad.path, dir.appendingPathComponent("none.json").path])
        XCTAssertEqual(missing.status, 2)
    }
}
