import Foundation
import TestSupport
import XCTest

/// `imgtrace trace` as a user runs it: exit codes, stderr, formats, determinism.
final class TraceCommandTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try BinaryRunner.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testMissingFileExitsTwoWithOneLine() throws {
        let path = dir.appendingPathComponent("absent.log").path
        let result = try BinaryRunner.run(["trace", path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stdout.isEmpty, "no partial output")
        XCTAssertEqual(result.stderr, "imgtrace: error: \(path): no such file\n")
    }

    func testDirectoryExitsTwo() throws {
        let result = try BinaryRunner.run(["trace", dir.path, "--format", "json"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stdout.isEmpty)
        XCTAssertEqual(result.stderr, "imgtrace: error: \(dir.path): is a directory, expected a file\n")
    }

    func testUnreadableFileExitsTwo() throws {
        let path = try write("secret.log", "AppIcon\n")
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        // Root reads anything: the run is made as `nobody`.
        chmod((path as NSString).deletingLastPathComponent, 0o755)
        let result = try BinaryRunner.run(["trace", path], in: URL(fileURLWithPath: "/"), unprivileged: true)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasSuffix("permission denied\n"))
    }

    func testInvalidLaunchEndIsAUsageError() throws {
        let path = try write("a.log", "AppIcon\n")
        let result = try BinaryRunner.run(["trace", path, "--launch-end", "(["])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stdout.isEmpty)
    }

    func testLogWithoutHitsIsNotAnError() throws {
        let path = try write("quiet.log", "2024-05-01 12:00:00.123456+0200 Samples[1:2] hello world, nothing here\n")
        let result = try BinaryRunner.run(["trace", path, "--format", "json"])
        XCTAssertEqual(result.status, 0)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual((json["events"] as? [Any])?.count, 0)
        let summary = try XCTUnwrap(json["summary"] as? [String: Any])
        let warnings = try XCTUnwrap(summary["warnings"] as? [[String: Any]])
        XCTAssertTrue((warnings.first?["message"] as? String)?.hasPrefix("no image loads found") == true)
    }

    func testJSONContractAndDeterminism() throws {
        let path = try write(
            "launch.log",
            """
            (lldb)  po $arg3
            AppIcon
            (lldb)  po $arg3
            AppIcon
            imgtrace-launch-end
            (lldb)  po $arg3
            Logo
            """)
        let first = try BinaryRunner.run(["trace", path, "--format", "json"])
        let second = try BinaryRunner.run(["trace", path, "--format", "json"])
        XCTAssertEqual(first.status, 0)
        XCTAssertEqual(first.stdout, second.stdout, "same input, same bytes")
        XCTAssertTrue(first.stdoutText.hasPrefix("{\"schemaVersion\":1,\"summary\":{"))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: first.stdout) as? [String: Any])
        let events = try XCTUnwrap(json["events"] as? [[String: Any]])
        XCTAssertEqual(events.count, 3)
        XCTAssertEqual(events[0]["seq"] as? Int, 1)
        XCTAssertEqual(events[0]["line"] as? Int, 2)
        XCTAssertEqual(events[0]["name"] as? String, "AppIcon")
        XCTAssertEqual(events[0]["status"] as? String, "ok")
        XCTAssertEqual(events[2]["phase"] as? String, "afterLaunch")
        for key in ["api", "breakpoint", "thread", "timestamp", "backtrace"] { XCTAssertNotNil(events[0][key], key) }
        let summary = try XCTUnwrap(json["summary"] as? [String: Any])
        XCTAssertEqual(summary["hits"] as? Int, 3)
        XCTAssertEqual((summary["launchEnd"] as? [String: Any])?["line"] as? Int, 5)
    }

    func testTextReportListsNamesAndSummary() throws {
        let path = try write(
            "launch.log",
            """
            (lldb) breakpoint set -n "+[UIImage imageNamed:]" -G true -C "po $arg3"
            Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x1
            (lldb)  po $arg3
            placeholder
            (lldb)  po $arg3
            placeholder
            (lldb)  po $arg3
            <nil>
            """)
        let result = try BinaryRunner.run(["trace", path])
        XCTAssertEqual(result.status, 0)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "NAME         LOADS  FIRST LINE  API")
        XCTAssertEqual(lines[1], "placeholder      2           4  +[UIImage imageNamed:]")
        XCTAssertTrue(lines.contains("hits without a name: 1 nil"))
        XCTAssertTrue(lines.contains("launch end: no marker, the whole log is the launch"))
    }

    func testGridlockTraceFromTheCorpus() throws {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let log = root.appendingPathComponent("e2e/gridlock/b-gridlock-gdb-po-silent.txt").path
        let result = try BinaryRunner.run(["trace", log])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdoutText.contains(": 192 hits, 27 distinct names"))
        XCTAssertTrue(result.stdoutText.contains("NSMenuArrow"))
    }

    /// imgtrace's own recording is described as one, not as a console without debugger lines.
    func testARecordingIsDescribedAsARecording() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("recorded.log")
        try Data(
            ("2026-11-22 20:41:07.123 [main] (code) +[NSImage imageNamed:]: \"AppIcon\"\n"
                + "imgtrace-recording-end hits=1 launch-end=not-watched program=exit:0\n").utf8
        ).write(to: log)
        let run = try BinaryRunner.run(["trace", log.path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdoutText.contains("debugger: none, a recording by imgtrace record\n"), run.stdoutText)
        XCTAssertFalse(run.stdoutText.contains("Xcode console?"), run.stdoutText)
    }

}
