import Foundation
import TestSupport
import XCTest

/// The gate is never blind: a capture that saw no image load fails by default, names why, and
/// `--fail-on` governs that, budgets and baselines alike.
final class EvidenceTests: XCTestCase {
    private var temp: URL!
    private let app = Corpus.packageRoot.appendingPathComponent("Examples/SampleApp.app").path
    private let example = Corpus.packageRoot.appendingPathComponent("Examples/launch.log").path

    override func setUpWithError() throws { temp = try BinaryRunner.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    private func log(_ name: String, _ text: String) throws -> String {
        let url = temp.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// `analyze --format json`: exit status and the `no-evidence` findings' reasons.
    private func evidence(_ path: String, _ extra: [String] = []) throws -> (status: Int32, reasons: [String], messages: [String]) {
        let result = try BinaryRunner.run(["analyze", path, "--bundle", app, "--format", "json"] + extra)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stderr)
        let findings = (doc["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "no-evidence" }
        XCTAssertTrue(findings.allSatisfy { $0["severity"] as? String == "error" })
        return (
            result.status, findings.compactMap { ($0["values"] as? [String: Any])?["reason"] as? String },
            findings.compactMap { $0["message"] as? String }
        )
    }

    /// `po $arg3` typed at the prompt (one space after `(lldb)`) without stop reports: says which
    /// lines were not read and what shape a breakpoint's action has; with the stop reports, they are hits.
    func testPrintsTypedAtThePromptAreExplained() throws {
        let typed = try evidence(try log("typed.log", "(lldb) po $arg3\nAppIcon\n(lldb) c\nProcess 42 resuming\n(lldb) po $arg3\nlogo\n"))
        XCTAssertEqual(typed.status, 1)
        XCTAssertEqual(typed.reasons, ["typed-prints"])
        XCTAssertTrue(typed.messages.first?.contains("the 2 print commands (the first at line 1) were typed at the prompt") == true, "\(typed.messages)")
        XCTAssertTrue(typed.messages.first?.contains("`(lldb)  po …`, two spaces") == true, "\(typed.messages)")
        let stopped = try evidence(
            try log(
                "stopped.log",
                "Process 42 stopped\n* thread #1, queue = 'com.apple.main-thread', stop reason = breakpoint 1.1\n    frame #0: 0x0000000184f3c1a4 UIKitCore`+[UIImage imageNamed:]\n(lldb) po $arg3\nAppIcon\n(lldb) c\nProcess 42 resuming\n"
            ), ["--fail-on", "never"])
        XCTAssertEqual(stopped.reasons, [], "typed at a breakpoint stop, the output is a load")
    }

    func testAnEmptyLogFails() throws {
        let found = try evidence(try log("empty.log", ""))
        XCTAssertEqual(found.status, 1)
        XCTAssertEqual(found.reasons, ["empty"])
    }

    func testBreakpointsThatNeverResolvedFail() throws {
        let lldb = try log(
            "pending.log",
            """
            (lldb) breakpoint set -n "+[UIImage imageNamed:]" -G true
            Breakpoint 1: no locations (pending).
            WARNING:  Unable to resolve breakpoint to any actual locations.
            (lldb) run
            Process 4242 launched: '/tmp/App' (x86_64)
            Process 4242 exited with status = 0 (0x00000000)

            """)
        let found = try evidence(lldb)
        XCTAssertEqual(found.status, 1)
        XCTAssertEqual(found.reasons, ["pending"])
        XCTAssertTrue(found.messages[0].contains("never resolved"), found.messages[0])
        // The fix points at what works on a stripped library, not at what lldb-script already did.
        let fix = try BinaryRunner.run(["analyze", lldb, "--bundle", app, "--format", "json"]).stdoutText
        XCTAssertTrue(fix.contains("finds them through the Objective-C runtime at `main`"), fix)
        XCTAssertFalse(fix.contains("set the breakpoint by name so it resolves"), fix)
        let gdb = try log(
            "gdb.log",
            """
            Function "+[UIImage imageNamed:]" not defined.
            Make breakpoint pending on future shared library load? (y or [n]) [answered N; input not from terminal]
            [Inferior 1 (process 77) exited normally]

            """)
        XCTAssertEqual(try evidence(gdb).reasons, ["undefined"])
        let late = try log(
            "late.log",
            """
            Breakpoint 1: no locations (pending).
            1 location added to breakpoint 1
            (lldb)  po $arg3
            AppIcon

            """)
        XCTAssertEqual(try evidence(late).reasons, [], "a breakpoint that resolves later and hits is fine")
    }

    func testTheCorpusTraceWhoseEveryHitFailedFails() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let a09 = corpus.appendingPathComponent("lldb/lldb-16/a09-lldb-wrong-register-errors.txt").path
        let found = try evidence(a09)
        XCTAssertEqual(found.status, 1)
        XCTAssertEqual(found.reasons, ["unreadable"])
        XCTAssertTrue(found.messages[0].contains("none of the 65 hits printed a name"), found.messages[0])
        XCTAssertTrue(found.messages[0].contains("$r2"), "names the wrong register: \(found.messages[0])")
        let text = try BinaryRunner.run(["analyze", a09, "--bundle", app])
        XCTAssertTrue(text.stdoutText.contains("FAIL"), text.stdoutText)
    }

    func testMinimumLoadsFromTheFlagAndTheConfig() throws {
        XCTAssertEqual(try evidence(example, ["--min-loads", "1000"]).reasons, ["too-few"])
        XCTAssertEqual(try evidence(example, ["--min-loads", "5", "--fail-on", "never"]).reasons, [])
        let config = temp.appendingPathComponent("imgtrace.yml")
        try Data("budgets:\n  minLaunchLoads: 1000\n".utf8).write(to: config)
        XCTAssertEqual(try evidence(example, ["--config", config.path]).reasons, ["too-few"])
    }

    func testFailOnNeverNeverFailsAndBudgetsAreFindings() throws {
        let config = temp.appendingPathComponent("imgtrace.yml")
        try Data("budgets:\n  maxLaunchImages: 1\n".utf8).write(to: config)
        let json = try BinaryRunner.run(["analyze", example, "--bundle", app, "--config", config.path, "--format", "json"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])
        let budget = (doc["findings"] as? [[String: Any]] ?? []).first { $0["rule"] as? String == "budget-exceeded" }
        XCTAssertEqual((budget?["values"] as? [String: Any])?["budget"] as? String, "maxLaunchImages")
        XCTAssertEqual(budget?["severity"] as? String, "error")
        XCTAssertEqual((budget?["fingerprint"] as? String)?.count, 16)
        for arguments in [["--fail-on", "never"], ["--fail-on", "never", "--min-loads", "1000"]] {
            let run = try BinaryRunner.run(["analyze", try log("blind.log", ""), "--bundle", app, "--config", config.path] + arguments)
            XCTAssertEqual(run.status, 0, "\(arguments): \(run.stdoutText.prefix(300))")
        }
        let never = try BinaryRunner.run(["analyze", example, "--bundle", app, "--config", config.path, "--fail-on", "never"])
        XCTAssertEqual(never.status, 0)
        // Ignoring the rule by config silences it like any other.
        try Data("budgets:\n  maxLaunchImages: 1\nignore:\n  rules: [budget-exceeded, missing-image]\n".utf8).write(to: config)
        XCTAssertEqual(try BinaryRunner.run(["analyze", example, "--bundle", app, "--config", config.path]).status, 0)
    }

    func testBaselineCompareWithFailOnNever() throws {
        let small = try log("small.log", (try String(contentsOfFile: example, encoding: .utf8)).replacingOccurrences(of: "hero_banner.jpg\n", with: ""))
        let old = temp.appendingPathComponent("old.json").path, new = temp.appendingPathComponent("new.json").path
        XCTAssertEqual(try BinaryRunner.run(["baseline", "write", small, "--bundle", app, "--output", old]).status, 0)
        XCTAssertEqual(try BinaryRunner.run(["baseline", "write", example, "--bundle", app, "--output", new]).status, 0)
        XCTAssertEqual(try BinaryRunner.run(["baseline", "compare", old, new]).status, 1, "the new launch is worse")
        XCTAssertEqual(try BinaryRunner.run(["baseline", "compare", old, new, "--fail-on", "never"]).status, 0)
        // In an audit the worse figures are `baseline-regression` findings: in SARIF, and ignorable.
        let sarif = try BinaryRunner.run(["analyze", example, "--bundle", app, "--baseline", old, "--format", "sarif"])
        XCTAssertEqual(sarif.status, 1)
        XCTAssertTrue(sarif.stdoutText.contains("\"ruleId\":\"baseline-regression\""), "SARIF carries the regression")
        let config = temp.appendingPathComponent("ignore.yml")
        try Data("ignore:\n  rules: [baseline-regression]\n".utf8).write(to: config)
        let ignored = try BinaryRunner.run(["analyze", example, "--bundle", app, "--baseline", old, "--config", config.path])
        XCTAssertEqual(ignored.status, 0, ignored.stdoutText)
    }
}

/// Every warning from reading the inputs reaches every report format.
final class WarningsEverywhereTests: XCTestCase {
    func testABundleWarningAndALogWarningAppearInEveryFormat() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = dir.appendingPathComponent("Broken.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data("bplist00 not really".utf8).write(to: app.appendingPathComponent("Info.plist"))
        try Data(ImageWriter.png(width: 30, height: 30)).write(to: app.appendingPathComponent("tab@3x.png"))
        let log = dir.appendingPathComponent("launch.log")
        try Data("(lldb)  po $arg3\ntab\nwarning: hit breakpoint while running function, skipping commands and conditions to prevent recursion\n".utf8).write(to: log)
        for format in ["text", "json", "markdown", "html", "sarif", "github", "gitlab", "junit", "checkstyle"] {
            let result = try BinaryRunner.run(["analyze", log.path, "--bundle", app.path, "--format", format, "--fail-on", "never"])
            XCTAssertEqual(result.status, 0, "\(format): \(result.stderr)")
            XCTAssertTrue(result.stdoutText.contains("Info.plist"), "\(format) shows the bundle warning")
            XCTAssertTrue(result.stdoutText.contains("skipped by the debugger"), "\(format) shows the log warning")
        }
        let empty = dir.appendingPathComponent("Empty.app")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try BinaryRunner.run(["analyze", log.path, "--bundle", empty.path, "--format", "json", "--fail-on", "never"])
        XCTAssertTrue(none.stdoutText.contains("the app ships no image at all"), none.stdoutText)
    }
}

/// Desktop apps are judged against a desktop screen unless a device is named.
final class DeviceChoiceTests: XCTestCase {
    private func device(_ arguments: [String]) throws -> (id: String?, reason: String?) {
        let result = try BinaryRunner.run(arguments + ["--format", "json", "--fail-on", "never"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stderr)
        return ((doc["device"] as? [String: Any])?["id"] as? String, doc["deviceReason"] as? String)
    }

    func testTheDefaultDeviceFollowsThePlatform() throws {
        let example = Corpus.packageRoot.appendingPathComponent("Examples")
        let ios = try device(["analyze", example.appendingPathComponent("launch.log").path, "--bundle", example.appendingPathComponent("SampleApp.app").path])
        XCTAssertEqual(ios.id, "iphone-16-17-pro-max")
        XCTAssertEqual(ios.reason, "chosen for the largest current iPhone; --device overrides")
        guard let corpus = Corpus.root?.appendingPathComponent("e2e/gridlock") else { throw XCTSkip(Corpus.missingMessage) }
        let gnustep = [
            "analyze", corpus.appendingPathComponent("b-gridlock-gdb-po-silent.txt").path,
            "--bundle", corpus.appendingPathComponent("Gridlock.app").path,
        ]
        XCTAssertEqual(try device(gnustep).id, "display-1080p")
        let named = try device(gnustep + ["--device", "macbook-pro-14"])
        XCTAssertEqual(named.id, "macbook-pro-14")
        XCTAssertNil(named.reason, "a named device needs no reason")
        let devices = try BinaryRunner.run(["devices"]).stdoutText
        for id in ["macbook-air-13", "macbook-pro-14", "macbook-pro-16", "display-5k-27", "display-1080p"] {
            XCTAssertTrue(devices.contains(id), id)
        }
    }
}
