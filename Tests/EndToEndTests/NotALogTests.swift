import Foundation
import TestSupport
import XCTest

/// A file that is not a debugger log is refused for what it is; a log on standard input is read.
final class NotALogTests: XCTestCase {
    private let example = Corpus.packageRoot.appendingPathComponent("Examples")

    private func refusal(_ path: String) throws -> String {
        let result = try BinaryRunner.run(["trace", path], timeout: 60)
        XCTAssertEqual(result.status, 2, "\(path): \(result.stdoutText.prefix(200))")
        XCTAssertTrue(result.stdout.isEmpty, "nothing on stdout for \(path)")
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        return result.stderr
    }

    func testBinariesGivenAsTheLogAreNamed() throws {
        XCTAssertTrue(try refusal(example.appendingPathComponent("SampleApp.app/Assets.car").path).contains("compiled asset catalog"))
        XCTAssertTrue(try refusal(example.appendingPathComponent("SampleApp.app/favorite@3x.png").path).contains("an image"))
        XCTAssertTrue(try refusal(example.appendingPathComponent("SampleApp.app/HomeViewController.nib").path).contains("compiled nib"))
        XCTAssertTrue(try refusal(BinaryRunner.executable.path).contains("ELF"))
        let analyze = try BinaryRunner.run([
            "analyze", example.appendingPathComponent("SampleApp.app/Assets.car").path,
            "--bundle", example.appendingPathComponent("SampleApp.app").path,
        ])
        XCTAssertEqual(analyze.status, 2)
    }

    func testTextThatIsPlainlyNotALogByItsName() throws {
        XCTAssertTrue(try refusal(Corpus.packageRoot.appendingPathComponent("README.md").path).contains("a Markdown document"))
        XCTAssertTrue(try refusal(Corpus.packageRoot.appendingPathComponent("Package.swift").path).contains("Swift source"))
    }

    /// Any text reads as Xcode's bare console, one name a line; notes with no debugger line and no
    /// name the app ships are no capture: `no-evidence`, not a list of missing images. A bare
    /// console capture that names an image the app ships is still read as one.
    func testTextWithNoCaptureEvidenceIsNoEvidence() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let notes = directory.appendingPathComponent("notes.txt"), console = directory.appendingPathComponent("console.txt")
        try "hello world\nremember the icons\nbutton: \"Play\"\n".write(to: notes, atomically: true, encoding: .utf8)
        try "favorite\nno_such_image\n".write(to: console, atomically: true, encoding: .utf8)
        let bundle = example.appendingPathComponent("SampleApp.app").path
        func findings(_ log: URL) throws -> (status: Int32, rules: [String]) {
            let result = try BinaryRunner.run(["analyze", log.path, "--bundle", bundle, "--format", "json"])
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
            return (result.status, (json["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String })
        }
        let read = try findings(notes)
        XCTAssertEqual(read.status, 1)
        XCTAssertTrue(read.rules.contains("no-evidence"), "\(read.rules)")
        XCTAssertFalse(read.rules.contains("missing-image"), "no missing-image findings from notes: \(read.rules)")
        let captured = try findings(console)
        XCTAssertFalse(captured.rules.contains("no-evidence"), "\(captured.rules)")
        XCTAssertTrue(captured.rules.contains("missing-image"), "\(captured.rules)")
    }

    /// A debugger that crashed before the launch end leaves part of a launch and its crash
    /// report: the audit fails with `no-evidence` (`debugger-crashed`) and no baseline is made of
    /// it; the same loads before a launch-end marker and the crash are a launch, judged as usual.
    func testADebuggerCrashBeforeTheLaunchEndIsNoEvidence() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = example.appendingPathComponent("SampleApp.app").path
        let hits = """
            Breakpoint 1 at 0x24c6: file UIImage.m, line 43.
            Thread 1 "SampleApp" hit Breakpoint 1, +[UIImage imageNamed:] (self=0x5555555c5160, _cmd=0x55555555b040, name=0x55555555a640) at UIImage.m:43
            favorite

            """
        let crash = """
            Fatal signal: Segmentation fault
            ----- Backtrace -----
            0x5577b1c0340e ???
            ---------------------
            A fatal error internal to GDB has been detected, further
            debugging is not possible.  GDB will now terminate.

            """
        let crashed = directory.appendingPathComponent("crashed.log"), complete = directory.appendingPathComponent("complete.log")
        try (hits + crash).write(to: crashed, atomically: true, encoding: .utf8)
        try (hits + "imgtrace-launch-end\n" + crash).write(to: complete, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", crashed.path, "--bundle", bundle, "--format", "json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let findings = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])["findings"] as? [[String: Any]] ?? []
        let noEvidence = try XCTUnwrap(findings.first { $0["rule"] as? String == "no-evidence" })
        XCTAssertEqual((noEvidence["values"] as? [String: Any])?["reason"] as? String, "debugger-crashed")
        XCTAssertFalse(findings.contains { ($0["names"] as? [String] ?? []).contains { $0.contains("Backtrace") } }, "a crash report is no name")
        let baseline = try BinaryRunner.run(["baseline", "write", crashed.path, "--bundle", bundle, "--output", directory.appendingPathComponent("b.json").path])
        XCTAssertEqual(baseline.status, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("b.json").path))
        let launch = try BinaryRunner.run(["analyze", complete.path, "--bundle", bundle, "--format", "json", "--fail-on", "never"])
        let launchFindings = try XCTUnwrap(JSONSerialization.jsonObject(with: launch.stdout) as? [String: Any])["findings"] as? [[String: Any]] ?? []
        XCTAssertFalse(launchFindings.contains { $0["rule"] as? String == "no-evidence" }, "\(launchFindings)")
    }

    func testTheCorpusIpaGivenAsTheLogIsAZipArchive() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let ipa = corpus.appendingPathComponent("bundles/bitbar-reactnative-2023-device-ipa/BitBarSampleApp.ipa")
        guard FileManager.default.fileExists(atPath: ipa.path) else { throw XCTSkip("the corpus .ipa is not there") }
        XCTAssertTrue(try refusal(ipa.path).contains("zip archive (an .ipa?): give it with --bundle"))
    }

    func testALogWithAFewInvalidBytesIsStillALog() throws {
        let folder = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var bytes = Array("(lldb)  po $arg3\nAppIcon\n".utf8)
        bytes += Array("2024-01-01 10:00:00.000 App[1:2] noise ".utf8) + [0xFF, 0xFE, 0x0A]
        bytes += Array("(lldb)  po $arg3\ncaf".utf8) + [0xE9, 0x0A]
        let url = folder.appendingPathComponent("launch.log")
        try Data(bytes).write(to: url)
        let result = try BinaryRunner.run(["trace", url.path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("\"AppIcon\""))
    }

    func testStandardInputAsTheLog() throws {
        let log = example.appendingPathComponent("launch.log").path
        let fromFile = try BinaryRunner.run(["analyze", log, "--bundle", example.appendingPathComponent("SampleApp.app").path, "--format", "json"])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [
            "-c", "exec \"$0\" analyze - --bundle \"$1\" --format json < \"$2\"", BinaryRunner.executable.path,
            example.appendingPathComponent("SampleApp.app").path, log,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, fromFile.status)
        // The same audit; only the log's name differs.
        let stdinText = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"-\"", with: "\"\(log)\"")
        XCTAssertEqual(stdinText, fromFile.stdoutText)
    }

    /// A capture by imgtrace's script that ends with the program stopped before the launch end
    /// holds part of a launch: `no-evidence` (`capture-stopped`); stopped after the launch end,
    /// the launch is whole and judged.
    func testACaptureThatEndsStoppedBeforeTheLaunchEndIsNoEvidence() throws {
        let directory = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = example.appendingPathComponent("SampleApp.app").path
        let request = "[SampleApp] (code) +[UIImage imageNamed:]: \"favorite\"\n"
        let stop = "Process 4242 stopped\n* thread #1, name = 'SampleApp', stop reason = trace\n"
        let cut = directory.appendingPathComponent("cut.log"), whole = directory.appendingPathComponent("whole.log")
        try (request + stop).write(to: cut, atomically: true, encoding: .utf8)
        try (request + "imgtrace-launch-end\n" + stop).write(to: whole, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", cut.path, "--bundle", bundle, "--format", "json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let findings = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])["findings"] as? [[String: Any]]
        let noEvidence = try XCTUnwrap(findings?.first { $0["rule"] as? String == "no-evidence" })
        XCTAssertEqual((noEvidence["values"] as? [String: Any])?["reason"] as? String, "capture-stopped")
        XCTAssertEqual(try BinaryRunner.run(["baseline", "write", cut.path, "--bundle", bundle, "--output", directory.appendingPathComponent("b.json").path]).status, 1)
        let judged = try BinaryRunner.run(["analyze", whole.path, "--bundle", bundle, "--format", "json", "--fail-on", "never"])
        let rules = (try XCTUnwrap(JSONSerialization.jsonObject(with: judged.stdout) as? [String: Any])["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        XCTAssertFalse(rules.contains("no-evidence"), "\(rules)")
    }
}
