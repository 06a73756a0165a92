import AuditModel
import AuditPolicy
import AuditRules
import AuditTestSupport
import Foundation
import LaunchAudit
import Reporters
import UnusedAudit
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Every registered format on small audits built in code: the edge cases the end-to-end golden
/// files do not reach (no findings, hostile names, ten thousand findings, non-ASCII paths).
final class AuditReporterTests: XCTestCase {
    // MARK: Audits built in code

    /// An app with one 3x image and a launch that loads `names`; every other name is missing.
    private func audit(loading names: [String]) -> AuditResult {
        RuleExample("reporter test", images: [.init("icon@3x.png", 60, 60)], loads: names.map { .named($0) }, fires: true).audit()
    }

    private func render(_ reporter: any AuditReporter, _ result: AuditResult, bundle: String = "App.app", log: String = "launch.log") -> String {
        let sink = ByteSink(collecting: reporter.consumer)
        var result = result
        (result.bundlePaths, result.logPaths) = ([bundle], [log])
        reporter.render(ReportInput(result: result, toolVersion: "test"), to: sink)
        return String(decoding: sink.collected, as: UTF8.self)
    }

    private func reporter(_ id: String) throws -> any AuditReporter {
        try XCTUnwrap(AuditReporters.named(id), "no format `\(id)` in the registry")
    }

    private func json(_ text: String, _ format: String) throws -> Any {
        do { return try JSONSerialization.jsonObject(with: Data(text.utf8)) } catch {
            XCTFail("\(format) is not JSON: \(error)\n\(text.prefix(400))")
            throw error
        }
    }

    /// Parses XML and returns how many elements of each name it holds.
    private func xmlElements(_ text: String, _ format: String) -> [String: Int] {
        final class Counter: NSObject, XMLParserDelegate {
            var counts: [String: Int] = [:]
            var attributes: [[String: String]] = []
            func parser(
                _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                counts[name, default: 0] += 1
                self.attributes.append(attributes)
            }
        }
        let parser = XMLParser(data: Data(text.utf8))
        let counter = Counter()
        parser.delegate = counter
        XCTAssertTrue(parser.parse(), "\(format) is not well-formed XML: \(String(describing: parser.parserError))")
        return counter.counts
    }

    // MARK: The registry

    func testRegistryHasEveryFormatOnceWithAnExtensionAndASummary() {
        let ids = AuditReporters.ids
        XCTAssertEqual(ids, ["text", "json", "markdown", "html", "sarif", "github", "gitlab", "junit", "checkstyle", "xcode"])
        XCTAssertEqual(Set(ids).count, ids.count)
        for reporter in AuditReporters.all {
            XCTAssertFalse(reporter.fileExtension.isEmpty || reporter.fileExtension.hasPrefix("."), reporter.id)
            XCTAssertTrue(reporter.summary.hasSuffix("."), "\(reporter.id): a summary is one sentence")
            XCTAssertEqual(AuditReporters.named(reporter.id)?.id, reporter.id)
        }
        XCTAssertNil(AuditReporters.named("yaml"))
        XCTAssertEqual(AuditReporters.all.filter(\.needsLoadRecords).map(\.id), ["json", "html"])
    }

    // MARK: Reading

    /// Every line of the text report fits 120 columns; a long name wraps after its separators,
    /// whole, in the findings and in the table, where it goes on its own lines above its row.
    func testTheTextReportFits120ColumnsAndWrapsLongNamesWhole() throws {
        let long = "/private/var/containers/Bundle/Application/" + String(repeating: "0123456789", count: 20) + "/App.app/Onboarding_final_v2@3x.png"
        let wide = String(repeating: "画像", count: 80)
        let text = render(try reporter("text"), audit(loading: [long, wide, "a", "b", "c", "d"]))
        for line in text.split(separator: "\n") {
            XCTAssertLessThanOrEqual(TextTableWidth.columns(String(line)), 120, String(line))
        }
        let table = try XCTUnwrap(text.components(separatedBy: "IMAGES LOADED AT LAUNCH").last)
        let rows = table.split(separator: "\n")
        let first = try XCTUnwrap(rows.firstIndex { $0.hasPrefix("/private/") })
        // The name on its own lines, whole, then the rest of its row under the other columns.
        let pieces = rows[first...].prefix { !$0.hasPrefix(" ") }
        XCTAssertEqual(pieces.joined(), long, "the whole name, on its own lines")
        XCTAssertTrue(rows[first + pieces.count].hasPrefix("   "), "the row's other cells follow, under their columns")
        XCTAssertTrue(rows.contains { $0.hasPrefix("a ") }, "a short name keeps its row on one line")
        XCTAssertFalse(text.contains("…"), "nothing is shortened")
        XCTAssertTrue(text.contains("_final_v2@3x.png"), "the finding keeps the name's end")
        // Plurals: one finding of each kind reads `1 error`.
        let one = render(try reporter("text"), audit(loading: ["missing"]))
        XCTAssertTrue(one.contains("1 error, "), one)
        XCTAssertFalse(one.contains("1 errors") || one.contains("1 names") || one.contains("1 loads") || one.contains("1 hits"), one)
    }

    /// A name of megabytes costs the page what its ends cost (issue 40: six 16 MiB names took a
    /// minute in HTML); the JSON keeps it whole.
    func testTheHTMLReportShowsTheEndsOfAHugeName() throws {
        let huge = "hostile_" + String(repeating: "x", count: 2 << 20) + "_end.png"
        let result = audit(loading: [huge, "a"])
        let html = render(try reporter("html"), result)
        XCTAssertLessThan(html.utf8.count, 200_000, "the page does not grow with the name")
        XCTAssertTrue(html.contains("hostile_") && html.contains("_<wbr>end.<wbr>png"), "both ends are shown")
        XCTAssertGreaterThan(render(try reporter("json"), result).utf8.count, 2 << 20, "the JSON keeps it whole")
    }

    // MARK: No findings

    func testEveryFormatSaysSoWhenThereAreNoFindings() throws {
        var result = audit(loading: ["icon"])
        result.findings = []
        for reporter in AuditReporters.all {
            XCTAssertFalse(render(reporter, result).isEmpty, "\(reporter.id) wrote nothing")
        }
        let text = render(try reporter("text"), result)
        XCTAssertTrue(text.contains("PASS"), text)
        let document = try json(render(try reporter("json"), result), "json") as? [String: Any]
        XCTAssertEqual((document?["findings"] as? [Any])?.count, 0)
        XCTAssertEqual((document?["loads"] as? [Any])?.count, 0, "no load records were kept")
        XCTAssertEqual((try json(render(try reporter("gitlab"), result), "gitlab") as? [Any])?.count, 0)
        let sarif = try json(render(try reporter("sarif"), result), "sarif") as? [String: Any]
        let runs = sarif?["runs"] as? [[String: Any]]
        XCTAssertEqual((runs?.first?["results"] as? [Any])?.count, 0)
        XCTAssertEqual(xmlElements(render(try reporter("checkstyle"), result), "checkstyle")["error"] ?? 0, 0)
        XCTAssertEqual(xmlElements(render(try reporter("junit"), result), "junit")["failure"] ?? 0, 0)
        XCTAssertFalse(render(try reporter("github"), result).contains("::error"))
    }

    // MARK: Hostile names

    func testANameWithMarkupQuotesAndANewlineIsEscapedInEveryFormat() throws {
        let name = "x<&\"'>\ny"
        let result = audit(loading: ["icon", name])
        XCTAssertTrue(result.findings.contains { $0.names.contains(name) }, "the name is in a finding")
        // A sentence shows the name on one line; the finding's `names` keep it exactly.
        XCTAssertTrue(result.findings.contains { $0.message.text.contains("`x<&\"'>\\ny`") }, "the message shows the name escaped")
        for reporter in AuditReporters.all {
            let text = render(reporter, result)
            switch reporter.id {
            case "html", "junit", "checkstyle":
                XCTAssertFalse(text.contains("<&\""), "\(reporter.id) wrote markup from the name unescaped")
                if reporter.id != "html" { _ = xmlElements(text, reporter.id) }
            case "json", "gitlab", "sarif":
                _ = try json(text, reporter.id)
                // The name exactly (JSON's `\n`), or the message's visible `\n` (JSON's `\\n`).
                XCTAssertTrue(text.contains("x<&\\\"'>\\ny") || text.contains("x<&\\\"'>\\\\ny"), "\(reporter.id) keeps the name, JSON-escaped")
            case "github":
                // A workflow command is one line: a newline or `::` in a name would start another.
                for line in text.split(separator: "\n") where line.hasPrefix("::") {
                    XCTAssertFalse(line.contains("y\n"))
                }
                XCTAssertTrue(text.contains("x<&\"'>\\ny"), text)
            default:
                // Text and Markdown show control characters escaped, never a raw line break.
                XCTAssertFalse(text.contains("x<&\"'>\ny"), "\(reporter.id) broke the name over two lines")
            }
        }
    }

    // MARK: Ten thousand findings

    func testTenThousandFindingsAreAllReportedWhereTheFormatListsThemAll() throws {
        let names = (0..<10_000).map { "missing_\($0)" }
        let result = audit(loading: names)
        let count = result.findings.count
        XCTAssertGreaterThanOrEqual(count, 10_000)
        let document = try json(render(try reporter("json"), result), "json") as? [String: Any]
        XCTAssertEqual((document?["findings"] as? [Any])?.count, count)
        XCTAssertEqual((try json(render(try reporter("gitlab"), result), "gitlab") as? [Any])?.count, count)
        let sarif = try json(render(try reporter("sarif"), result), "sarif") as? [String: Any]
        XCTAssertEqual(((sarif?["runs"] as? [[String: Any]])?.first?["results"] as? [Any])?.count, count)
        XCTAssertEqual(xmlElements(render(try reporter("checkstyle"), result), "checkstyle")["error"], count)
        XCTAssertGreaterThanOrEqual(xmlElements(render(try reporter("junit"), result), "junit")["testcase"] ?? 0, count)
        // GitHub shows ten annotations per type and counts the rest in one notice.
        let github = render(try reporter("github"), result).split(separator: "\n")
        XCTAssertLessThanOrEqual(github.filter { $0.hasPrefix("::error") }.count, 10)
        XCTAssertTrue(github.contains { $0.hasPrefix("::notice") && $0.contains("more") }, "\(github.suffix(3))")
        // The readable formats stay readable: bounded, not ten thousand sections.
        XCTAssertLessThan(render(try reporter("markdown"), result).count, 200_000)
        XCTAssertFalse(render(try reporter("html"), result).isEmpty)
        XCTAssertTrue(render(try reporter("text"), result).contains("missing_9999"))
    }

    // MARK: Non-ASCII paths

    func testNonASCIIBundleAndLogPathsSurviveEveryFormat() throws {
        let bundle = "Bühne/Äpp 🙂.app", log = "läunch ✓.log"
        let result = audit(loading: ["icon", "gone"])
        for reporter in AuditReporters.all {
            let text = render(reporter, result, bundle: bundle, log: log)
            switch reporter.id {
            case "sarif":
                let sarif = try json(text, "sarif") as? [String: Any]
                let results = (sarif?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]] ?? []
                let uris = results.flatMap { ($0["locations"] as? [[String: Any]]) ?? [] }.compactMap {
                    (($0["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
                }
                XCTAssertFalse(uris.isEmpty)
                for uri in uris {
                    XCTAssertFalse(uri.contains(" "), "a SARIF uri is percent-encoded: \(uri)")
                    let decoded = uri.removingPercentEncoding ?? ""
                    XCTAssertTrue(decoded.hasPrefix(bundle) || decoded == log, decoded)
                }
            case "gitlab":
                _ = try json(text, reporter.id)
                XCTAssertTrue(text.contains(log) || text.contains(bundle), "\(reporter.id) names the input")
            case "json":
                // The JSON names inputs as the audit read them (`inputs.logs[].path`), not by these.
                _ = try json(text, reporter.id)
            case "checkstyle":
                _ = xmlElements(text, reporter.id)
                XCTAssertTrue(text.contains("name=\"\(log)\"") || text.contains("name=\"\(bundle)"), text)
            case "junit":
                _ = xmlElements(text, reporter.id)
            case "github":
                XCTAssertTrue(text.contains("file=\(log)") || text.contains("file=\(bundle)"), text)
            default:
                XCTAssertFalse(text.isEmpty)
            }
        }
    }
}

/// Terminal columns, counted as the text report counts them (wide CJK characters take two).
enum TextTableWidth {
    static func columns(_ line: String) -> Int {
        line.unicodeScalars.reduce(0) { width, scalar in
            let v = scalar.value
            return width + ((0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v) || (0xFF00...0xFF60).contains(v) ? 2 : 1)
        }
    }
}
