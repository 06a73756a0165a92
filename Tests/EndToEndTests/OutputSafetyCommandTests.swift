import Foundation
import TestSupport
import XCTest

/// The command line as a hostile user would try it (docs/output-safety.md): names from a log,
/// file and link names from a bundle and facet names from a catalog through every command and
/// format; outputs aimed at the run's own inputs; unreadable bundles; a job summary that cannot
/// be written; names that would add lines to a generated debugger script.
final class OutputSafetyCommandTests: XCTestCase {
    private var temp: URL!

    override func setUpWithError() throws { temp = try BinaryRunner.temporaryDirectory() }
    override func tearDownWithError() throws {
        _ = try? BinaryRunner.run(["--version"])  // nothing left running
        chmodTree(temp, 0o755)
        try? FileManager.default.removeItem(at: temp)
    }

    private func chmodTree(_ url: URL, _ mode: Int) {
        guard let items = FileManager.default.enumerator(atPath: url.path) else { return }
        for case let item as String in items { chmod(url.appendingPathComponent(item).path, mode_t(mode)) }
    }

    /// A log in lldb 16's quoted shape, every name escaped the way lldb escapes C strings.
    static func log(_ names: [String]) -> String {
        var out = "(lldb) breakpoint set -n \"+[UIImage imageNamed:]\" -G true -C \"p (char *)$arg3\"\n"
        for (i, name) in names.enumerated() {
            var quoted = ""
            for scalar in name.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                default:
                    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value > 0x2000 && scalar.value < 0x2100 {
                        quoted += String(format: "\\u%04x", scalar.value)
                    } else {
                        quoted.unicodeScalars.append(scalar)
                    }
                }
            }
            out += "(lldb)  p (char *)$arg3\n(char *) $\(i) = 0x0000555555556113 \"\(quoted)\"\n"
        }
        return out
    }

    /// An app whose files, links and catalog carry hostile names.
    private func hostileApp() throws -> URL {
        let app = temp.appendingPathComponent("App.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let png = Data(ImageWriter.png(width: 30, height: 30))
        for name in ["title\u{1B}]0;owned\u{07}@3x.png", "\u{202E}gnp.evil@3x.png", "::stop-commands::tok@3x.png", "logo##[warning]x@3x.png", "c1\u{9B}31m@3x.png"] {
            try png.write(to: app.appendingPathComponent(name))
        }
        try Data([0]).write(to: app.appendingPathComponent("._junk\u{1B}[2J"))
        try FileManager.default.createSymbolicLink(atPath: app.appendingPathComponent("link").path, withDestinationPath: "gone\u{1B}]52;c;eA==\u{07}::x")
        let car = CatalogWriter.catalog([
            .init(facet: "facet\u{1B}]0;t\u{07}", name: "a@2x.png"), .init(facet: "::stop-commands::f", name: "b@2x.png"),
            .init(facet: "x##[error]y\u{2028}", name: "c\u{1B}[2J@2x.png"),
        ])
        try Data(car).write(to: app.appendingPathComponent("Assets.car"))
        return app
    }

    private func assertSafe(_ text: String, _ what: String, allowed: (Substring) -> Bool = { _ in false }, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(ConsumerModels.rawControls(text), [], "\(what): raw control characters", file: file, line: line)
        XCTAssertEqual(ConsumerModels.runnerCommands(text, allowed: allowed), [], "\(what): runner commands", file: file, line: line)
    }

    func testEveryCommandAndFormatKeepsHostileNamesHarmless() throws {
        let app = try hostileApp()
        let names = [
            "forged\r\n/etc/passwd:1:1: error: pwned", "title\u{1B}]0;owned\u{07}", "::stop-commands::tok", "logo##[warning]x",
            "a`![x](https://evil.example/p.png)`", "\u{202E}gnp.evil", "c1\u{9B}31m", "next\u{85}line\u{2028}",
        ]
        let logURL = temp.appendingPathComponent("launch.log")
        try Self.log(names).write(to: logURL, atomically: true, encoding: .utf8)
        let log = logURL.path
        var markdown: [String] = []
        let runs: [[String]] =
            [
                ["trace", log], ["trace", log, "--format", "json"], ["catalog", app.path], ["catalog", app.path, "--format", "json"],
                ["car", app.appendingPathComponent("Assets.car").path, "--format", "text"], ["car", app.appendingPathComponent("Assets.car").path],
            ]
            + ["text", "json", "markdown", "html", "sarif", "github", "gitlab", "junit", "checkstyle", "xcode"].map {
                ["analyze", log, "--bundle", app.path, "--format", $0, "--fail-on", "never"]
            }
        for arguments in runs {
            let result = try BinaryRunner.run(arguments, in: temp)
            let what = arguments.prefix(2).joined(separator: " ") + " " + arguments.suffix(3).joined(separator: " ")
            XCTAssertEqual(result.status, 0, "\(what): \(result.stderr)")
            assertSafe(result.stdoutText, what, allowed: arguments.contains("github") ? ConsumerModels.isAnnotation : { _ in false })
            assertSafe(result.stderr, what + " (stderr)")
            if arguments.contains("markdown") { markdown.append(result.stdoutText) }
            if arguments.contains("xcode") {
                for issue in ConsumerModels.xcodeIssues(result.stdoutText) {
                    XCTAssertTrue(issue.count == 0 || (issue.count == 1 && issue.line.hasPrefix(temp.path) || issue.line.hasPrefix("/")), String(issue.line))
                    XCTAssertLessThanOrEqual(issue.count, 1, "a forged issue: \(issue.line)")
                }
            }
        }
        XCTAssertEqual(try ConsumerModels.markdownHazards(markdown), [[]])
        // Escaped, never dropped: each name can still be recognised.
        let text = try BinaryRunner.run(["trace", log], in: temp).stdoutText
        XCTAssertTrue(text.contains("title\\u{1B}]0;owned\\u{7}"), text)
        XCTAssertTrue(text.contains("forged\\r\\n/etc/passwd"), text)
        XCTAssertTrue(text.contains("\\u{3A}:stop-commands::tok") || text.contains("::stop-commands::tok"), text)
        XCTAssertTrue(text.contains("logo#\\u{23}[warning]x"), text)
    }

    // MARK: Inputs are never replaced

    private func example() -> (app: String, log: String) {
        let examples = Corpus.packageRoot.appendingPathComponent("Examples")
        return (examples.appendingPathComponent("SampleApp.app").path, examples.appendingPathComponent("launch.log").path)
    }

    private func assertRefused(_ arguments: [String], _ untouched: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: untouched)
        let result = try BinaryRunner.run(arguments, in: temp)
        XCTAssertEqual(result.status, 64, "imgtrace \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr, file: file, line: line)
        XCTAssertEqual(result.stdout.count, 0, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: untouched), before, "\(untouched.lastPathComponent) was changed", file: file, line: line)
    }

    func testAnOutputThatIsAnInputOrTwiceTheSameFileIsRefused() throws {
        let (app, exampleLog) = example()
        let log = temp.appendingPathComponent("launch.log")
        try FileManager.default.copyItem(atPath: exampleLog, toPath: log.path)
        let baseline = temp.appendingPathComponent("baseline.json")
        XCTAssertEqual(try BinaryRunner.run(["baseline", "write", log.path, "--bundle", app, "--output", baseline.path], in: temp).status, 0)
        let config = temp.appendingPathComponent(".imgtrace.yml")
        try "failOn: never\n".write(to: config, atomically: true, encoding: .utf8)
        let link = temp.appendingPathComponent("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: log.path)
        try assertRefused(["analyze", log.path, "--bundle", app, "--output", log.path], log)
        try assertRefused(["analyze", log.path, "--bundle", app, "--output", "link.txt"], log)
        try assertRefused(["analyze", "launch.log", "--bundle", app, "--report", "json:./launch.log"], log)
        try assertRefused(["analyze", log.path, "--bundle", app, "--baseline", baseline.path, "--report", "json:baseline.json"], baseline)
        try assertRefused(["analyze", log.path, "--bundle", app, "--output", ".imgtrace.yml"], config)
        try assertRefused(["baseline", "write", log.path, "--bundle", app, "--output", log.path], log)
        // The same file twice: one report would silently replace the other.
        let result = try BinaryRunner.run(["analyze", log.path, "--bundle", app, "--output", "a.txt", "--report", "json:./a.txt"], in: temp)
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.appendingPathComponent("a.txt").path))
    }

    func testAnOutputLinkIsWrittenThroughAndANewFileFollowsTheUmask() throws {
        let (app, log) = example()
        let target = temp.appendingPathComponent("real.json")
        try Data("old".utf8).write(to: target)
        chmod(target.path, 0o600)
        try FileManager.default.createSymbolicLink(atPath: temp.appendingPathComponent("out.json").path, withDestinationPath: "real.json")
        let result = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json", "--output", "out.json", "--fail-on", "never"], in: temp)
        XCTAssertEqual(result.status, 0, result.stderr)
        let attributes = try FileManager.default.attributesOfItem(atPath: temp.appendingPathComponent("out.json").path)
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeSymbolicLink, "the link stays a link")
        XCTAssertTrue(try String(contentsOf: target, encoding: .utf8).hasPrefix("{\"schemaVersion\":2"), "the target has the report")
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: target.path))[.posixPermissions] as? Int, 0o600, "a replaced file keeps its mode")
        // A new file gets what umask leaves of 0666.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask 027; exec \"$0\" analyze \"$1\" --bundle \"$2\" --output new.txt --fail-on never", BinaryRunner.executable.path, log, app]
        process.currentDirectoryURL = temp
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual((try FileManager.default.attributesOfItem(atPath: temp.appendingPathComponent("new.txt").path))[.posixPermissions] as? Int, 0o640)
    }

    // MARK: Unreadable inputs and failed writes

    func testABundleThatCannotBeReadExitsTwoEverywhere() throws {
        let (_, exampleLog) = example()
        let app = try hostileApp()
        let log = temp.appendingPathComponent("launch.log")
        try FileManager.default.copyItem(atPath: exampleLog, toPath: log.path)
        chmod(temp.path, 0o755)
        chmod(log.path, 0o644)
        chmod(app.path, 0o000)
        // Root reads everything: the runs are made as `nobody`, a user whose bundle is not theirs.
        for arguments in [["catalog", app.path], ["analyze", log.path, "--bundle", app.path], ["baseline", "write", log.path, "--bundle", app.path, "--output", "/dev/null"]] {
            let result = try BinaryRunner.run(arguments, in: URL(fileURLWithPath: "/"), unprivileged: true)
            XCTAssertEqual(result.status, 2, "\(arguments.joined(separator: " ")): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("cannot read the folder"), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
        // A file inside a readable bundle that cannot be read is a warning naming it, not a failure.
        chmod(app.path, 0o755)
        let locked = app.appendingPathComponent("locked@3x.png")
        try Data(ImageWriter.png(width: 3, height: 3)).write(to: locked)
        chmod(locked.path, 0o000)
        let listing = try BinaryRunner.run(["catalog", app.path], in: URL(fileURLWithPath: "/"), unprivileged: true)
        XCTAssertEqual(listing.status, 0, listing.stderr)
        XCTAssertTrue(listing.stdoutText.contains("warning: locked@3x.png: permission denied"), listing.stdoutText)
    }

    /// The job summary is a copy: one it cannot write is a warning, and the run ends with its verdict.
    func testAJobSummaryThatCannotBeWrittenIsAWarning() throws {
        let (app, log) = example()
        let fifo = temp.appendingPathComponent("summary.fifo")
        XCTAssertEqual(mkfifo(fifo.path, 0o644), 0)
        for summary in ["/dev/full", fifo.path, temp.appendingPathComponent("missing/summary.md").path] {
            let result = try BinaryRunner.run(
                ["analyze", log, "--bundle", app, "--format", "github", "--fail-on", "never"], in: temp, environment: ["GITHUB_STEP_SUMMARY": summary], timeout: 30)
            XCTAssertFalse(result.timedOut, summary)
            XCTAssertEqual(result.status, 0, "\(summary): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.hasPrefix("imgtrace: warning: GITHUB_STEP_SUMMARY") && result.stderr.contains(summary), result.stderr)
            XCTAssertTrue(result.stdoutText.contains("::"), "the GitHub report itself is written")
        }
    }

    // MARK: Diagnostics in proportion

    /// An error quoting a huge input line stays one short line; a config beyond any real one is
    /// refused before YAML builds a tree of it.
    func testAnErrorAboutAHugeLineIsOneShortLine() throws {
        let (app, log) = example()
        let config = temp.appendingPathComponent("huge.yml")
        try ("failOn: " + String(repeating: "y", count: 900_000) + "\u{1B}]0;t\u{07}\n").write(to: config, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", log, "--bundle", app, "--config", config.path], in: temp)
        XCTAssertEqual(result.status, 2, result.stderr.prefix(300).description)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        XCTAssertLessThan(result.stderr.utf8.count, 1_200, "the line is cut")
        XCTAssertTrue(result.stderr.contains("more bytes)"), result.stderr)
        assertSafe(result.stderr, "stderr")
        let big = temp.appendingPathComponent("big.yml")
        try ("ignore:\n  names:\n" + String(repeating: "    - name\n", count: 100_000)).write(to: big, atomically: true, encoding: .utf8)
        let refused = try BinaryRunner.run(["analyze", log, "--bundle", app, "--config", big.path], in: temp)
        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("more than the 1048576 read at most"), refused.stderr)
    }

    /// Usage errors repeat what the user typed: argument-parser's messages pass the guard too.
    func testAUsageErrorShowsWhatWasTypedOnOneHarmlessLine() throws {
        for arguments in [
            ["analyze", "x.log", "--bundle", "y", "--device", "a\n::error::pwn ##[warning]x"], ["rules", "a\r\n::stop-commands::t"],
            ["trace", "x.log", "--launch-end", "(\n::error::x"], ["analyze", "x.log", "--bundle", "y", "--no-such-flag\u{1B}]0;t\u{07}"],
        ] {
            let result = try BinaryRunner.run(arguments, in: temp)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            assertSafe(result.stderr, "stderr of \(arguments)")
            XCTAssertFalse(result.stderr.split(separator: "\n").contains { $0.hasPrefix("::") }, result.stderr)
        }
        let help = try BinaryRunner.run(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdoutText.hasPrefix("OVERVIEW: "), help.stdoutText)
    }

    // MARK: Generated scripts

    func testANameThatWouldAddALineToAScriptIsRefused() throws {
        for arguments in [
            ["lldb-script", "--symbol", "image_named\nplatform shell touch /tmp/imgtrace-pwned"],
            ["lldb-script", "--launch-end", "done\r\nshell id"], ["lldb-script", "--symbol", "a\u{2028}b", "--format", "gdb", "--arch", "x86_64"],
            ["lldb-script", "--symbol", "x\" -C \"platform shell id"], ["record", "--symbol", "f\nx", "--output", "o.log", "--", "/bin/true"],
        ] {
            let result = try BinaryRunner.run(arguments, in: temp)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout.count, 0)
            assertSafe(result.stderr, "stderr")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.appendingPathComponent("o.log").path))
    }
}
