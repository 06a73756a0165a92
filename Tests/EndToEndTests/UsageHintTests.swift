import Foundation
import TestSupport
import XCTest

/// A mistyped command or option gets the nearest real one, before argument-parser's message.
final class UsageHintTests: XCTestCase {
    func testMistypedCommandsAndOptionsAreNamed() throws {
        let cases: [([String], String)] = [
            (["analyse", "x.log"], "Error: unknown command `analyse`; did you mean `imgtrace analyze`?\n"),
            (["baseline", "writ"], "Error: unknown command `writ`; did you mean `imgtrace baseline write`?\n"),
            (["analyze", "x.log", "--bundel", "App.app"], "Error: unknown option `--bundel`; did you mean `--bundle`?\n"),
            (["catalog", "x", "--formt", "json"], "Error: unknown option `--formt`; did you mean `--format`?\n"),
            (["frobnicate"], "Error: unknown command `frobnicate`; `imgtrace --help` lists them\n"),
        ]
        for (arguments, first) in cases {
            let run = try BinaryRunner.run(arguments)
            XCTAssertEqual(run.status, 64, "\(arguments)")
            XCTAssertTrue(run.stderr.hasPrefix(first), "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains("Usage: "), "argument-parser's usage still follows: \(run.stderr)")
        }
        // A program's own options after `--` are its own, and a hint never prints for a valid line.
        let record = try BinaryRunner.run(["record", "--symbol", "x", "--output"])
        XCTAssertFalse(record.stderr.contains("did you mean"), record.stderr)
        // What the user typed is shown safely: a control character is escaped.
        let hostile = try BinaryRunner.run(["analyze", "x.log", "--bund\u{1B}[31mle"])
        XCTAssertFalse(hostile.stderr.contains("\u{1B}"), hostile.stderr)
    }
}
