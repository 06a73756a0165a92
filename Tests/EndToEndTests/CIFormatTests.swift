import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import TestSupport
import XCTest

/// The CI formats keep their tools' rules: GitHub's annotation cap and job summary, GitLab's
/// unique fingerprints, well-formed JUnit and Checkstyle XML.
final class CIFormatTests: XCTestCase {
    /// An app whose twelve loose @2x-only images each give a `scale-mismatch` warning (their
    /// being loose is its evidence) and whose twelve loose @3x images each a `loose-image` note.
    private func manyWarnings() throws -> (dir: URL, args: [String]) {
        let dir = try BinaryRunner.temporaryDirectory()
        let app = dir.appendingPathComponent("Many.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        var log = ""
        for i in 0..<12 {
            try Data(ImageWriter.png(width: UInt32(10 + i), height: 10)).write(to: app.appendingPathComponent("icon\(i)@2x.png"))
            log += "icon\(i)\n"
            try Data(ImageWriter.png(width: UInt32(10 + i), height: 11)).write(to: app.appendingPathComponent("badge\(i)@3x.png"))
            log += "badge\(i)\n"
        }
        log += "Missing<&>\"quote\"\n"
        try log.write(to: dir.appendingPathComponent("launch.log"), atomically: true, encoding: .utf8)
        return (dir, ["analyze", "launch.log", "--bundle", "Many.app"])
    }

    func testGitHubShowsTenPerTypeMostSevereFirstAndWritesTheJobSummary() throws {
        let (dir, args) = try manyWarnings()
        defer { try? FileManager.default.removeItem(at: dir) }
        let summary = dir.appendingPathComponent("summary.md")
        try "earlier step\n".write(to: summary, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(args + ["--format", "github"], in: dir, environment: ["GITHUB_STEP_SUMMARY": summary.path])
        XCTAssertEqual(result.status, 1)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[0].hasPrefix("::error file=launch.log,line=25,title=imgtrace missing-image::"), lines[0])
        XCTAssertEqual(lines.filter { $0.hasPrefix("::warning ") }.count, 10, "GitHub shows 10 per type")
        XCTAssertEqual(lines.filter { $0.hasPrefix("::notice file=") }.count, 10)
        XCTAssertTrue(lines.contains { $0.hasPrefix("::notice title=imgtrace::2 more warning findings are not annotated") }, result.stdoutText)
        XCTAssertTrue(lines.contains { $0.hasPrefix("::notice title=imgtrace::2 more notice findings") }, result.stdoutText)
        let written = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(written.hasPrefix("earlier step\n## imgtrace launch audit"), "appended, not replaced")
    }

    func testGitHubEscapesPropertiesAndMessages() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = dir.appendingPathComponent("A,B:C.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        // An app by its Info.plist (a folder with nothing in it is no app: exit 2).
        try #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleExecutable</key><string>A</string></dict></plist>"#
            .write(to: app.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        // A capture line (the callback's): a bare line with no debugger evidence is no capture.
        try "[main] (code) +[UIImage imageNamed:]: \"50%\"\n".write(to: dir.appendingPathComponent("l.log"), atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", "l.log", "--bundle", "A,B:C.app", "--format", "github"], in: dir)
        XCTAssertTrue(result.stdoutText.contains("::error file=l.log,line=1,title=imgtrace missing-image::`50%25` loads nothing"), result.stdoutText)
    }

    func testGitLabFingerprintsAreUniqueAndXMLIsWellFormed() throws {
        let (dir, args) = try manyWarnings()
        defer { try? FileManager.default.removeItem(at: dir) }
        let gitlab = try BinaryRunner.run(args + ["--format", "gitlab"], in: dir)
        let issues = try XCTUnwrap(JSONSerialization.jsonObject(with: gitlab.stdout) as? [[String: Any]])
        XCTAssertEqual(issues.count, 25)
        XCTAssertEqual(Set(issues.compactMap { $0["fingerprint"] as? String }).count, issues.count)
        XCTAssertEqual(Set(issues.compactMap { $0["severity"] as? String }), ["critical", "major", "info"])
        for format in ["junit", "checkstyle"] {
            let result = try BinaryRunner.run(args + ["--format", format], in: dir)
            let document = try XMLDocument(data: result.stdout)
            XCTAssertNotNil(document.rootElement(), format)
            XCTAssertTrue(result.stdoutText.contains("Missing&lt;&amp;&gt;&quot;quote&quot;"), format)
        }
        let junit = try XMLDocument(data: try BinaryRunner.run(args + ["--format", "junit"], in: dir).stdout)
        XCTAssertEqual(junit.rootElement()?.attribute(forName: "failures")?.stringValue, "1", "only the error fails the policy")
        let checkstyle = try XMLDocument(data: try BinaryRunner.run(args + ["--format", "checkstyle"], in: dir).stdout)
        XCTAssertEqual(try checkstyle.nodes(forXPath: "//error").count, 25)
    }
}

/// Shell completions come from swift-argument-parser and know every subcommand and format.
final class CompletionTests: XCTestCase {
    func testCompletionScriptsListSubcommandsAndFormats() throws {
        for shell in ["bash", "zsh", "fish"] {
            let result = try BinaryRunner.run(["--generate-completion-script", shell])
            XCTAssertEqual(result.status, 0, shell)
            for word in ["analyze", "baseline", "devices", "rules", "lldb-script", "checkstyle", "sarif"] {
                XCTAssertTrue(result.stdoutText.contains(word), "\(shell) completions lack \(word)")
            }
        }
    }
}

/// Colour only where a person reads a terminal.
final class ColorTests: XCTestCase {
    func testColourIsOptInOffTerminalsAndNeverWithNoColor() throws {
        let args = ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app"]
        let escape = "\u{1B}["
        let forced = try BinaryRunner.run(args + ["--color", "always"], in: Corpus.packageRoot, environment: ["NO_COLOR": ""])
        XCTAssertTrue(forced.stdoutText.contains(escape + "1;31mFAIL"), forced.stdoutText)
        XCTAssertTrue(forced.stdoutText.contains(escape + "1;33mWARNINGS"))
        let noColor = try BinaryRunner.run(args + ["--color", "always"], in: Corpus.packageRoot, environment: ["NO_COLOR": "1"])
        XCTAssertFalse(noColor.stdoutText.contains(escape), "NO_COLOR wins")
        let auto = try BinaryRunner.run(args, in: Corpus.packageRoot, environment: ["NO_COLOR": ""])
        XCTAssertFalse(auto.stdoutText.contains(escape), "not a terminal")
        let json = try BinaryRunner.run(args + ["--color", "always", "--format", "json"], in: Corpus.packageRoot, environment: ["NO_COLOR": ""])
        XCTAssertFalse(json.stdoutText.contains(escape), "machine formats are never coloured")
    }
}
