import Foundation
import TestSupport
import XCTest

/// `analyze --source-root`: findings point at what the developer edits, in every format that
/// carries locations.
final class SourceRootTests: XCTestCase {
    private let exampleArguments = [
        "analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/SampleSource",
    ]

    /// The lines of a text file (1-based lookup by the caller).
    private func lines(_ path: String) throws -> [Substring] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
    }

    func testXcodeLinesPointAtTheSourceEntryThatNamesTheImage() throws {
        let result = try BinaryRunner.run(exampleArguments + ["--format", "xcode"], in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 1, result.stderr)
        let root = Corpus.packageRoot.standardizedFileURL.path
        let text = result.stdoutText.replacingOccurrences(of: root, with: "$ROOT")
        Golden.check(Data(text.utf8), against: GoldenReportTests.golden.appendingPathComponent("example.xcode-source.txt"))

        let issue = try NSRegularExpression(pattern: #"^(/[^:]+):([1-9][0-9]*):([1-9][0-9]*): (error|warning|note): (.+) \[([a-z-]+)\]$"#)
        var inSource: [String: Int] = [:]
        for line in result.stdoutText.split(separator: "\n").dropLast().map(String.init) {
            let match = try XCTUnwrap(issue.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
            let field = { (i: Int) in String(line[Range(match.range(at: i), in: line)!]) }
            let (path, lineNumber, column) = (field(1), Int(field(2))!, Int(field(3))!)
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), path)
            guard path.contains("/Examples/SampleSource/") else { continue }
            inSource[field(6), default: 0] += 1
            // A text location is the entry itself: the column starts the `"filename"` key or the attribute.
            if path.hasSuffix(".swift") || path.hasSuffix(".m") {
                // A code location is the string literal the code passes: a missing or repeated name is fixed there.
                let text = try lines(path)[lineNumber - 1]
                XCTAssertTrue(text.dropFirst(column - 1).hasPrefix("\"") || text.dropFirst(column - 1).hasPrefix("@\""), "\(line)")
                XCTAssertTrue(["missing-image", "repeated-load", "uncached-repeat"].contains(field(6)), line)
            } else if path.hasSuffix(".json") || path.hasSuffix(".xib") || path.hasSuffix(".storyboard") {
                let text = try lines(path)[lineNumber - 1]
                let at = text.dropFirst(column - 1)
                let attribute = at.range(of: #"^[A-Za-z]*[iI]mage=""#, options: .regularExpression) != nil
                XCTAssertTrue(at.hasPrefix("\"filename\"") || attribute, "\(line)")
            } else {
                XCTAssertEqual(lineNumber, 1, "an image file has no lines: \(line)")
            }
        }
        // Catalog renditions, loose files and a storyboard's missing image all map into the source tree.
        XCTAssertEqual(inSource["missing-image"], 2, "photo_of_the_day, named by Main.storyboard; Tab_Profile, asked for by FeedViewController.swift")
        XCTAssertGreaterThanOrEqual(inSource["oversized-pixels"] ?? 0, 2, "promo_banner's catalog entry and hero_banner.jpg")
        XCTAssertNotNil(inSource["loose-image"])
        XCTAssertTrue(result.stdoutText.contains("/Examples/SampleSource/SampleApp/Assets.xcassets/promo_banner.imageset/Contents.json:12:7:"))
        XCTAssertTrue(result.stdoutText.contains("/Examples/SampleSource/SampleApp/Base.lproj/Main.storyboard:9:"))
        // Findings with no source file keep the bundle or log location.
        XCTAssertTrue(result.stdoutText.contains("/Examples/SampleApp.app/.DS_Store:1:1: warning:"))
        XCTAssertTrue(result.stdoutText.contains("/Examples/SampleSource/SampleApp/FeedViewController.swift:8:43: error: `Tab_Profile` loads nothing"))
        XCTAssertTrue(result.stdoutText.contains("/Examples/SampleSource/SampleApp/FeedViewController.swift:14:48: note: `placeholder` is looked up 3 times"))
    }

    func testSARIFSourceLocationsAreRelativeToTheSourceRootBase() throws {
        let result = try BinaryRunner.run(exampleArguments + ["--format", "sarif"], in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 1, result.stderr)
        let document = try JSONSerialization.jsonObject(with: result.stdout) as! [String: Any]
        let run = (document["runs"] as! [[String: Any]])[0]
        let bases = try XCTUnwrap(run["originalUriBaseIds"] as? [String: [String: String]])
        let base = try XCTUnwrap(bases["SRCROOT"]?["uri"])
        XCTAssertTrue(base.hasPrefix("file:///") && base.hasSuffix("/Examples/SampleSource/"), base)
        let locations = (run["results"] as! [[String: Any]]).compactMap { ($0["locations"] as? [[String: Any]])?.first }
        let artifacts = locations.compactMap { ($0["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: String] }
        let relative = artifacts.filter { $0["uriBaseId"] == "SRCROOT" }
        XCTAssertGreaterThan(relative.count, 5)
        for artifact in relative {
            XCTAssertFalse(artifact["uri"]!.hasPrefix("/"), "relative to the base: \(artifact)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: Corpus.packageRoot.path + "/Examples/SampleSource/" + artifact["uri"]!), "\(artifact)")
        }
        guard SARIFValidator.schema != nil, SARIFValidator.python != nil else { return }
        XCTAssertEqual(try SARIFValidator.errors(in: result.stdout), [])
    }

    func testEveryLocationCarryingFormatUsesTheSourceLocation() throws {
        let storyboard = "Examples/SampleSource/SampleApp/Base.lproj/Main.storyboard"
        let expectations: [(format: String, needle: String)] = [
            ("github", "file=\(storyboard),line=9,col=90"),
            ("gitlab", "\"path\":\"\(storyboard)\""),
            ("checkstyle", "<file name=\"\(storyboard)\">"),
            ("junit", "\(storyboard):9"),
            ("json", "\"source\":{\"path\":\"SampleApp/Base.lproj/Main.storyboard\",\"line\":9,\"column\":90}"),
        ]
        for (format, needle) in expectations {
            let result = try BinaryRunner.run(exampleArguments + ["--format", format], in: Corpus.packageRoot)
            XCTAssertEqual(result.status, 1, "\(format): \(result.stderr)")
            XCTAssertTrue(result.stdoutText.contains(needle), "\(format) lacks \(needle)")
        }
    }

    /// A CI job at the repository root passes `--source-root .`: paths come out repository-relative.
    func testTheWorkingDirectoryAsSourceRootGivesRelativePaths() throws {
        let examples = Corpus.packageRoot.appendingPathComponent("Examples")
        let result = try BinaryRunner.run(
            [
                "analyze", examples.path + "/launch.log", "--bundle", examples.path + "/SampleApp.app", "--source-root", ".",
                "--format", "gitlab",
            ], in: examples.appendingPathComponent("SampleSource"))
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("\"path\":\"SampleApp/Base.lproj/Main.storyboard\""), result.stdoutText)
    }

    func testTheConfigKeyIsRelativeToTheConfigFileAndTheFlagWins() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("imgtrace.yml")
        // From the config's folder to the checkout's example source tree.
        let relative =
            String(repeating: "../", count: dir.standardizedFileURL.pathComponents.count - 1) + String(Corpus.packageRoot.standardizedFileURL.path.dropFirst())
            + "/Examples/SampleSource"
        try Data("sourceRoot: \(relative)\n".utf8).write(to: config)
        let base = ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", "xcode", "--config", config.path]
        let viaConfig = try BinaryRunner.run(base, in: Corpus.packageRoot)
        XCTAssertEqual(viaConfig.status, 1, viaConfig.stderr)
        XCTAssertTrue(viaConfig.stdoutText.contains("/Examples/SampleSource/SampleApp/Base.lproj/Main.storyboard:9:90: error:"), viaConfig.stdoutText)
        // The flag replaces the config's root: a root that holds nothing maps nothing, and says so.
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let viaFlag = try BinaryRunner.run(base + ["--source-root", empty.path], in: Corpus.packageRoot)
        XCTAssertFalse(viaFlag.stdoutText.contains("SampleSource"))
        let json = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", "json", "--source-root", empty.path],
            in: Corpus.packageRoot)
        XCTAssertTrue(json.stdoutText.contains("no finding maps to a file in this source root"), json.stdoutText)
    }

    func testASourceRootThatIsNotAFolderIsExitTwoWithNoOutput() throws {
        let result = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/launch.log"],
            in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.stdout, Data())
        XCTAssertTrue(result.stderr.contains("Examples/launch.log"), result.stderr)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
    }
}
