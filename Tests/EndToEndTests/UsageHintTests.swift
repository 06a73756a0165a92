import Foundation
import TestSupport
import XCTest

/// A mistyped command or option gets the nearest real one, and one line only.
final class UsageHintTests: XCTestCase {
    func testMistypedCommandsAndOptionsAreNamed() throws {
        let cases: [([String], String)] = [
            (["analyse", "x.log"], "Error: unknown command `analyse`; did you mean `imgtrace analyze`?\n"),
            (["baseline", "writ"], "Error: unknown command `writ`; did you mean `imgtrace baseline write`?\n"),
            (["analyze", "x.log", "--bundel", "App.app"], "Error: unknown option `--bundel`; did you mean `--bundle`?\n"),
            (["catalog", "x", "--formt", "json"], "Error: unknown option `--formt`; did you mean `--format`?\n"),
            (["frobnicate"], "Error: unknown command `frobnicate`; `imgtrace --help` lists them\n"),
            // argument-parser would call the value missing: it takes `-3` for a short option.
            (["lldb-script", "--backtrace", "-3"], "Error: `--backtrace` takes no negative value (`-3`): give 0 or more\n"),
        ]
        for (arguments, first) in cases {
            let run = try BinaryRunner.run(arguments)
            XCTAssertEqual(run.status, 64, "\(arguments)")
            XCTAssertEqual(run.stderr, first, "one mistake, one line: \(arguments)")
        }
        // An option argument-parser keeps out of the help is known: its own message explains the value.
        let completion = try BinaryRunner.run(["--generate-completion-script", "powershell"])
        XCTAssertEqual(completion.status, 64)
        XCTAssertFalse(completion.stderr.contains("unknown option"), completion.stderr)
        XCTAssertEqual(completion.stderr, "Error: no completion script for `powershell`: imgtrace writes them for bash, zsh and fish\n")
        // A program's own options after `--` are its own, and a hint never prints for a valid line.
        let record = try BinaryRunner.run(["record", "--symbol", "x", "--output"])
        XCTAssertFalse(record.stderr.contains("did you mean"), record.stderr)
        // What the user typed is shown safely: a control character is escaped.
        let hostile = try BinaryRunner.run(["analyze", "x.log", "--bund\u{1B}[31mle"])
        XCTAssertFalse(hostile.stderr.contains("\u{1B}"), hostile.stderr)
    }

    /// A `--report` value says what is wrong with it, not only that it is invalid.
    func testAReportValueSaysWhatIsWrong() throws {
        let cases: [(String, String)] = [
            ("json", "give FORMAT:PATH, e.g. json:audit.json (formats: text, json,"),
            ("jsn:x", "no format `jsn`; did you mean `json`?"),
            ("json:-", "a report goes to a file: standard output is --format's"),
        ]
        for (value, reason) in cases {
            let run = try BinaryRunner.run(["analyze", "x.log", "--bundle", "App.app", "--report", value])
            XCTAssertEqual(run.status, 64, value)
            XCTAssertTrue(run.stderr.contains("invalid for '--report <format:path>': " + reason), "\(value): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one mistake, one line: \(run.stderr)")
        }
    }

    /// Every usage mistake is one line on stderr, exit 64: argument-parser's usage and help lines
    /// after it repeated `--help` and buried the line that matters.
    func testEveryUsageMistakeIsOneLine() throws {
        for arguments in [
            ["analyze", "x.log", "--bundle", "App.app", "--device", "iPhone 99"], ["analyze", "x.log"], ["analyze"], ["car"],
            ["lldb-script", "--format", "gdb"], ["unused", "--bundle", "App.app", "--format", "yaml"],
        ] {
            let run = try BinaryRunner.run(arguments)
            XCTAssertEqual(run.status, 64, "\(arguments): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("Error: "), run.stderr)
        }
    }

    /// Devices: every model with the same screen is accepted, a near miss is named, a family lists its profiles.
    func testDevicesByAnyModelNameAndNearMisses() throws {
        let root = Corpus.packageRoot
        func analyze(_ device: String) throws -> BinaryRunner.Result {
            try BinaryRunner.run(["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--fail-on", "never", "--device", device], in: root)
        }
        for (model, id) in [
            ("iPhone X", "iphone-x-xs-11-pro-12-13-mini"), ("iPhone 8", "iphone-6-7-8-se"), ("iPhone 11 Pro", "iphone-x-xs-11-pro-12-13-mini"),
            ("iPhone 8 Plus", "iphone-6-7-8-plus"), ("iPhone 14 Pro", "iphone-14-pro-15-16"), ("iphone-se", "iphone-6-7-8-se"),
        ] {
            let run = try analyze(model)
            XCTAssertEqual(run.status, 0, "\(model): \(run.stderr)")
            XCTAssertTrue(run.stdoutText.contains("device   \(id): "), "\(model) → \(id)")
        }
        let typo = try analyze("iPhone 15 Pro Maxx")
        XCTAssertEqual(typo.status, 64)
        XCTAssertTrue(typo.stderr.contains("unknown device `iPhone 15 Pro Maxx`; did you mean \"iPhone 15 Pro Max\" (iphone-14-15-pro-max-15-16-plus)?"), typo.stderr)
        let family = try analyze("ipad")
        XCTAssertEqual(family.status, 64)
        XCTAssertTrue(
            family.stderr.contains("it names 6 profiles: ipad-mini, ipad-10-a16-air-11, ipad-pro-11, ipad-pro-11-m4, ipad-pro-12.9-air-13, ipad-pro-13-m4"), family.stderr)
        // The number typed is the model's: the 13-inch is suggested for "iPad Pro 13", nothing for a phone that does not exist.
        XCTAssertTrue(try analyze("iPad Pro 13").stderr.contains("did you mean ipad-pro-13-m4?"))
        let none = try analyze("iPhone 99")
        XCTAssertEqual(none.status, 64)
        XCTAssertFalse(none.stderr.contains("did you mean"), none.stderr)
    }

    /// `analyze` and `unused` answer the same mistake the same way: a mistyped device is one usage
    /// line and exit 64 in both (unused said it as an input error, exit 2), and neither writes its
    /// report over the config file it reads.
    func testAnalyzeAndUnusedAnswerTheSameMistakeAlike() throws {
        let root = Corpus.packageRoot
        let work = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let commands = [
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app"], ["unused", "--bundle", "Examples/SampleApp.app"],
        ]
        var messages: [String] = []
        for command in commands {
            let run = try BinaryRunner.run(command + ["--device", "iPhone 15 Pro Maxx"], in: root)
            XCTAssertEqual(run.status, 64, "\(command[0]): \(run.stderr)")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            messages.append(run.stderr)
        }
        XCTAssertEqual(messages[0], messages[1])
        let config = work.appendingPathComponent("imgtrace.yml")
        try "failOn: never\n".write(to: config, atomically: true, encoding: .utf8)
        for command in commands {
            let run = try BinaryRunner.run(command + ["--config", config.path, "--output", config.path], in: root)
            XCTAssertEqual(run.status, 64, "\(command[0]): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("refusing to overwrite an input"), run.stderr)
            XCTAssertEqual(try String(contentsOf: config, encoding: .utf8), "failOn: never\n", "\(command[0]) left the config as it was")
        }
    }
}
