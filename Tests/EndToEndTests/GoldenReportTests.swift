import Foundation
import Reporters
import TestSupport
import XCTest

/// Every analyze format on the example inputs, byte for byte against `Golden/`.
/// After an intended change, regenerate with `IMGTRACE_UPDATE_GOLDEN=1 swift test --filter GoldenReportTests`
/// (the run that rewrites fails; the next one passes).
final class GoldenReportTests: XCTestCase {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    private func check(_ format: String, file: String) throws {
        let arguments = ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", format]
        let result = try BinaryRunner.run(arguments, in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 1, result.stderr)
        Golden.check(result.stdout, against: Self.golden.appendingPathComponent(file))
    }

    /// The golden file of each format.
    static let files = [
        "text": "example.txt", "json": "example.json", "markdown": "example.md", "html": "example.html",
        "sarif": "example.sarif", "github": "example.github.txt", "gitlab": "example.gitlab.json",
        "junit": "example.junit.xml", "checkstyle": "example.checkstyle.xml", "xcode": "example.xcode.txt",
    ]

    /// A format added to the registry needs its golden file (and its test here).
    func testEveryRegisteredFormatHasAGoldenFile() {
        XCTAssertEqual(Set(Self.files.keys), Set(AuditReporters.ids))
        for (id, file) in Self.files {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Self.golden.appendingPathComponent(file).path), "\(id): Golden/\(file)")
        }
    }

    func testText() throws { try check("text", file: "example.txt") }

    /// `imgtrace unused` on the example and its sources, in the formats people read and the one
    /// code scanning reads: the verdicts at the asset slot or the line of code.
    func testUnusedTextMarkdownAndSARIF() throws {
        for (format, file) in [("text", "unused.txt"), ("markdown", "unused.md"), ("sarif", "unused.sarif")] {
            let arguments = [
                "unused", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/SampleSource",
                "--format", format, "--all",
            ]
            let result = try BinaryRunner.run(arguments, in: Corpus.packageRoot)
            XCTAssertEqual(result.status, 0, result.stderr)
            // SARIF's source-root base is an absolute URI: the checkout's own path is `$ROOT` in the golden file.
            let text = result.stdoutText.replacingOccurrences(of: Corpus.packageRoot.standardizedFileURL.path, with: "$ROOT")
            Golden.check(Data(text.utf8), against: Self.golden.appendingPathComponent(file))
        }
    }

    /// Xcode's lines carry absolute paths: the checkout's own path is `$ROOT` in the golden file.
    func testXcode() throws {
        let arguments = ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", "xcode"]
        let result = try BinaryRunner.run(arguments, in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 1, result.stderr)
        let root = Corpus.packageRoot.standardizedFileURL.path
        let text = result.stdoutText.replacingOccurrences(of: root, with: "$ROOT")
        Golden.check(Data(text.utf8), against: Self.golden.appendingPathComponent("example.xcode.txt"))
        // Every line but the summary is one Xcode reads as an issue: an absolute path, a line ≥ 1.
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        let issue = try NSRegularExpression(pattern: #"^/[^:]+:([1-9][0-9]*):([1-9][0-9]*): (error|warning|note): .+ \[[a-z-]+\]$"#)
        XCTAssertGreaterThan(lines.count, 1)
        for line in lines.dropLast() {
            XCTAssertNotNil(issue.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), line)
            let path = String(line.prefix { $0 != ":" })
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), "points at a real file: \(path)")
        }
        XCTAssertEqual(lines.last, "imgtrace: 3 errors, 7 warnings, 8 notes — FAIL")
    }
    func testJSON() throws { try check("json", file: "example.json") }
    func testMarkdown() throws { try check("markdown", file: "example.md") }
    func testGitHub() throws { try check("github", file: "example.github.txt") }

    /// Names and paths in the page break only after `/`, `.`, `_` or `@` (a `<wbr>`), never inside
    /// a word: no CSS lets a cell break anywhere, and the table's names keep their letters together.
    func testHTMLBreaksNamesOnlyAtSeparators() throws {
        let result = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", "html", "--fail-on", "never"], in: Corpus.packageRoot)
        let html = result.stdoutText
        XCTAssertFalse(html.contains("overflow-wrap:anywhere") || html.contains("word-break:break-all"), "no breaking anywhere")
        XCTAssertTrue(html.contains("<code>AppIcon</code>"), "a name without separators is one word")
        XCTAssertTrue(html.contains("AppIcon[phone,3x,any]"), "an id keeps its bracket together")
        let breaks = try NSRegularExpression(pattern: "(.)<wbr>")
        let before = Set(breaks.matches(in: html, range: NSRange(html.startIndex..., in: html)).map { String(html[Range($0.range(at: 1), in: html)!]) })
        XCTAssertFalse(before.isEmpty)
        XCTAssertTrue(before.isSubset(of: ["/", ".", "_", "@"]), "breaks only after separators: \(before)")
        // Rule ids never wrap.
        XCTAssertTrue(html.contains("code.rule{") || html.contains(",code.rule{"), "rule ids stay on one line")
    }

    func testHTMLIsSelfContained() throws {
        try check("html", file: "example.html")
        let html = try String(contentsOf: Self.golden.appendingPathComponent("example.html"), encoding: .utf8)
        for external in ["http://", "https://", "<link", "src=", "@import", "url("] {
            XCTAssertFalse(html.contains(external), "the report must load nothing: found \(external)")
        }
        XCTAssertEqual(html.components(separatedBy: "<svg").count - 1, 2, "timeline and memory chart, drawn inline")
        XCTAssertTrue(html.contains("hero_banner.jpg"))
        XCTAssertTrue(html.contains("Fix: "))
        XCTAssertTrue(html.contains("id=\"loads\""), "the sortable table")
        // One row per load (23 hits in the example, 2 after the launch-end marker), each marked.
        let loads = try XCTUnwrap(html.components(separatedBy: "<table id=\"loads\">").last?.components(separatedBy: "</table>").first)
        XCTAssertEqual(loads.components(separatedBy: "<tr").count - 2, 23, "rows after the header row")
        XCTAssertEqual(loads.components(separatedBy: "<tr class=\"after\">").count - 1, 2)
        XCTAssertEqual(loads.components(separatedBy: ">after launch</span>").count - 1, 2)
        XCTAssertTrue(loads.contains("aria-sort=\"ascending\""), "the table says how it is sorted")
        XCTAssertTrue(html.contains("[aria-sort=descending]::after"), "and shows it")
        // The timeline has an axis with ticks and the launch end marked.
        XCTAssertTrue(html.contains(">log line</text>"))
        XCTAssertGreaterThanOrEqual(html.components(separatedBy: "text-anchor=\"middle\">").count - 1, 4, "tick labels")
        XCTAssertTrue(html.contains("launch ends (line 28)"))
        // A chart label too long for its room keeps a path's whole file name, and the whole name
        // is its tooltip: never a name cut in its middle.
        let labels = html.components(separatedBy: "text-anchor=\"end\">").dropFirst().map { $0.components(separatedBy: "</text>")[0] }
        let shortened = labels.filter { $0.contains("…") }
        XCTAssertFalse(shortened.isEmpty, "the example has a long path")
        for label in shortened {
            XCTAssertTrue(label.hasPrefix("<title>"), label)
            let shown = label.components(separatedBy: "</title>")[1]
            XCTAssertTrue(shown.hasPrefix("…/"), label)
            XCTAssertTrue(label.components(separatedBy: "</title>")[0].hasSuffix(String(shown.dropFirst())), "the tooltip is the whole name: \(label)")
        }
        // Seven loose-image notes are one row (two more loose images carry it as evidence).
        XCTAssertTrue(html.contains("7 findings: <code>placeholder</code>"))
    }
    func testGitLab() throws { try check("gitlab", file: "example.gitlab.json") }
    func testJUnit() throws { try check("junit", file: "example.junit.xml") }
    func testCheckstyle() throws { try check("checkstyle", file: "example.checkstyle.xml") }

    func testReportsWriteEveryFormatFromOneRun() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try BinaryRunner.run(
            [
                "analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app",
                "--report", "json:\(dir.path)/a.json", "--report", "markdown:\(dir.path)/a.md",
                "--report", "text:\(dir.path)/a.txt",
            ], in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 1)
        for (file, golden) in [("a.json", "example.json"), ("a.md", "example.md"), ("a.txt", "example.txt")] {
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent(file)), try Data(contentsOf: Self.golden.appendingPathComponent(golden)), file)
        }
        XCTAssertEqual(result.stdout, try Data(contentsOf: Self.golden.appendingPathComponent("example.txt")), "stdout still gets --format")
        let bad = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--report", "pdf:x.pdf"],
            in: Corpus.packageRoot)
        XCTAssertEqual(bad.status, 64, bad.stderr)
        let unwritable = try BinaryRunner.run(
            [
                "analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app",
                "--report", "json:\(dir.path)/no/such/dir/a.json",
            ], in: Corpus.packageRoot)
        XCTAssertEqual(unwritable.status, 2)
        XCTAssertTrue(unwritable.stderr.contains("no/such/dir/a.json"), unwritable.stderr)
    }
}

/// The README's formats table is the registry's, row for row.
final class ReadmeFormatsTests: XCTestCase {
    func testTheReadmeListsEveryRegisteredFormatWithItsSummary() throws {
        let readme = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.hasSuffix(". |") }
        for reporter in AuditReporters.all {
            XCTAssertTrue(rows.contains("| `\(reporter.id)` | \(reporter.summary) |"), "README formats table: `\(reporter.id)`")
        }
    }
}
