import Foundation
import TestSupport
import XCTest

/// A launch is the unit: several launches of one build give the median launch's figures with
/// their range in every format, budgets and baselines — never their sum — so the number of
/// launches recorded decides no verdict.
final class LaunchUnitTests: XCTestCase {
    private var work: URL!

    override func setUpWithError() throws {
        work = try BinaryRunner.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// The names every launch of the example app asks for at launch, in order.
    static let launchNames = ["AppIcon", "logo", "tab_home", "hero_banner.jpg", "placeholder", "placeholder"]

    /// One launch as `record --agent` writes it against `Examples/SampleApp.app`: each request
    /// timed on the main thread (`milliseconds` over the names), `extra` more lookups of
    /// `placeholder`, one load after the launch end.
    static func timedLog(launch: Int, milliseconds: [Double], extra: Int = 0, launchLength: Int = 400) -> String {
        let names = launchNames + Array(repeating: "placeholder", count: extra)
        var log = "imgtrace-recording-start 2026-11-27 10:0\(launch % 10):00.000\n"
        for (index, name) in names.enumerated() {
            let time = milliseconds[index % milliseconds.count]
            log += "2026-11-27 10:0\(launch % 10):00.\(String(format: "%03d", 100 + index)) [SampleApp] (code) +[UIImage imageNamed:]: \"\(name)\" "
            log += String(format: "%.3f ms\n", time)
        }
        log += "imgtrace-launch-end\n"
        log += "2026-11-27 10:0\(launch % 10):01.000 [SampleApp] (code) +[UIImage imageNamed:]: \"icon_settings\" 0.500 ms\n"
        log += "imgtrace-recording-end hits=\(names.count + 1) launch-end=reached program=exit:0 launch-ms=\(launchLength)\n"
        return log
    }

    /// Writes `logs` as `launch-1.log` …, returning their paths.
    private func write(_ logs: [String], prefix: String = "launch") throws -> [String] {
        try logs.enumerated().map { index, text in
            let url = work.appendingPathComponent("\(prefix)-\(index + 1).log")
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
    }

    /// Three launches: 6, 9 and 6 loads; main-thread time 30, 12 and 21 ms.
    private func threeLaunches() throws -> [String] {
        try write([
            Self.timedLog(launch: 1, milliseconds: [5], launchLength: 400),
            Self.timedLog(launch: 2, milliseconds: [2, 1], extra: 3, launchLength: 380),
            Self.timedLog(launch: 3, milliseconds: [3.5], launchLength: 420),
        ])
    }

    private func analyze(_ logs: [String], _ extra: [String]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["analyze"] + logs + ["--bundle", "Examples/SampleApp.app", "--fail-on", "never"] + extra, in: Corpus.packageRoot)
    }

    /// Every format with several launches, byte for byte; no format states a sum as a launch's figure.
    func testSeveralLaunchesGiveTheMedianLaunchInEveryFormat() throws {
        let logs = try threeLaunches()
        let files = ["text": "launches.txt", "markdown": "launches.md", "html": "launches.html", "json": "launches.json", "junit": "launches.junit.xml"]
        for (format, file) in files.sorted(by: { $0.key < $1.key }) {
            let result = try analyze(logs, ["--format", format])
            XCTAssertEqual(result.status, 0, result.stderr)
            let text = result.stdoutText.replacingOccurrences(of: work.path, with: "$WORK")
            Golden.check(Data(text.utf8), against: GoldenReportTests.golden.appendingPathComponent(file))
            // 6 + 9 + 6 = 21 loads in all: never shown as the launch's.
            XCTAssertFalse(text.contains("21 loads") || text.contains("<b>21</b>") || text.contains("| loads | 21"), "\(format) states the sum")
        }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: try analyze(logs, ["--format", "json"]).stdout) as? [String: Any])
        XCTAssertEqual(json["schemaVersion"] as? Int, 2)
        let metrics = try XCTUnwrap(json["metrics"] as? [String: Any])
        XCTAssertEqual(metrics["launches"] as? Int, 3)
        let launch = try XCTUnwrap(metrics["launch"] as? [String: Any])
        let median = try XCTUnwrap(launch["median"] as? [String: Any]), low = try XCTUnwrap(launch["min"] as? [String: Any])
        let high = try XCTUnwrap(launch["max"] as? [String: Any])
        XCTAssertEqual(median["loads"] as? Int, 6)
        XCTAssertEqual(low["loads"] as? Int, 6)
        XCTAssertEqual(high["loads"] as? Int, 9)
        // Main-thread image time per launch: 30 (6 × 5 ms), 14 (5 × 2 ms and 4 × 1 ms) and 21 ms (6 × 3.5 ms); the median 21.
        XCTAssertEqual(median["mainThreadImageMicroseconds"] as? Int, 21_000)
        XCTAssertEqual(low["mainThreadImageMicroseconds"] as? Int, 14_000)
        XCTAssertEqual(high["mainThreadImageMicroseconds"] as? Int, 30_000)
        XCTAssertEqual(median["lengthMilliseconds"] as? Int, 400)
    }

    /// One main-thread image time, the same in text, Markdown, HTML and the budget's breach line.
    func testOneMainThreadImageTimeInEveryFormatAndTheBudget() throws {
        let logs = try threeLaunches()
        let config = work.appendingPathComponent("budget.yml")
        try "budgets:\n  maxMainThreadImageMilliseconds: 20\n".write(to: config, atomically: true, encoding: .utf8)
        for format in ["text", "markdown", "html"] {
            let result = try analyze(logs, ["--format", format, "--config", config.path])
            let text = result.stdoutText
            XCTAssertTrue(text.contains("21.000 ms [14.000 ms–30.000 ms]"), "\(format): the median launch's time and its range\n\(text)")
            // As each format escapes `>`: HTML's entity, Markdown's backslash.
            let breach = ["21.000 ms &gt; 20.000 ms", "21.000 ms \\> 20.000 ms", "21.000 ms > 20.000 ms"]
            XCTAssertTrue(breach.contains(where: text.contains), "\(format): the budget's line says the same")
        }
    }

    /// The process's first request carries the toolkit's set-up: the slowest list says so.
    func testTheFirstRequestIsMarked() throws {
        let logs = try write([Self.timedLog(launch: 1, milliseconds: [40, 1])])
        let text = try analyze(logs, []).stdoutText
        XCTAssertTrue(text.contains("`AppIcon` 40.000 ms (the process's first image request"), text)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: try analyze(logs, ["--format", "json"]).stdout) as? [String: Any])
        let names = try XCTUnwrap(json["names"] as? [[String: Any]])
        XCTAssertEqual(names.filter { $0["firstRequest"] as? Bool == true }.compactMap { $0["name"] as? String }, ["AppIcon"])
    }

    /// Baselines per launch: the number of launches on either side decides nothing.
    func testABaselineComparesLaunchWithLaunch() throws {
        // Unchanged launches of one build: a few percent apart, as real ones are.
        let five = try write((1...5).map { Self.timedLog(launch: $0, milliseconds: [3 + Double($0) / 10]) }, prefix: "base")
        let baseline = work.appendingPathComponent("baseline.json").path
        let written = try BinaryRunner.run(["baseline", "write"] + five + ["--bundle", "Examples/SampleApp.app", "--output", baseline], in: Corpus.packageRoot)
        XCTAssertEqual(written.status, 0, written.stderr)
        let file = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: baseline))) as? [String: Any])
        XCTAssertEqual(file["launches"] as? Int, 5)
        XCTAssertEqual((file["launch"] as? [String: Any])?["loads"] as? Int, 6, "the median launch's loads, not 5 × 6")
        func gate(_ logs: [String]) throws -> BinaryRunner.Result {
            try BinaryRunner.run(["analyze"] + logs + ["--bundle", "Examples/SampleApp.app", "--baseline", baseline], in: Corpus.packageRoot)
        }
        // One launch with 50 more lookups of one name fails, on loads.
        let worse = try write([Self.timedLog(launch: 1, milliseconds: [0.4], extra: 50)], prefix: "worse")
        let failed = try gate(worse)
        XCTAssertEqual(failed.status, 1, failed.stdoutText)
        XCTAssertTrue(failed.stdoutText.contains("launch.loads"), failed.stdoutText)
        // Six unchanged launches pass.
        let six = try write((1...6).map { Self.timedLog(launch: $0, milliseconds: [3 + Double($0) / 10]) }, prefix: "six")
        let passed = try gate(six)
        XCTAssertEqual(passed.status, 0, passed.stdoutText)
        // A baseline from one launch against five unchanged launches passes.
        let single = work.appendingPathComponent("single.json").path
        XCTAssertEqual(
            try BinaryRunner.run(["baseline", "write", five[0], "--bundle", "Examples/SampleApp.app", "--output", single], in: Corpus.packageRoot).status, 0)
        let againstOne = try BinaryRunner.run(["analyze"] + five + ["--bundle", "Examples/SampleApp.app", "--baseline", single], in: Corpus.packageRoot)
        XCTAssertEqual(againstOne.status, 0, againstOne.stdoutText)
    }

    /// A baseline of an earlier schema is still read, and a warning says its figures may be a sum.
    func testAnOlderBaselineIsReadWithAWarning() throws {
        let logs = try write([Self.timedLog(launch: 1, milliseconds: [1])])
        let old = work.appendingPathComponent("old.json")
        let figures = #""loads": 6, "names": 5, "images": 5, "decodedBytes": 0, "bytesOnDisk": 0, "missing": 0, "repeated": 1, "unreadable": 0, "largestImageDecodedBytes": 0"#
        try #"{"schemaVersion": 3, "kind": "imgtrace-baseline", "device": "iphone-16-17-pro-max", "launch": {\#(figures)}, "findings": []}"#
            .write(to: old, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(
            ["analyze"] + logs + ["--bundle", "Examples/SampleApp.app", "--baseline", old.path, "--fail-on", "never", "--format", "json"],
            in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let warnings = try XCTUnwrap(json["warnings"] as? [[String: Any]]).compactMap { $0["message"] as? String }
        XCTAssertTrue(warnings.contains { $0.hasPrefix("written in schema 3, before launch figures were per launch") }, "\(warnings)")
    }
}
