import AuditModel
import AuditPolicy
import AuditRules
import AuditTestSupport
import Foundation
import ImgtraceSupport
import LaunchAudit
import Reporters
import TestSupport
import UnusedAudit
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Hostile names through every format, each output read by a model of its consumer
/// (docs/output-safety.md): the names come from logs, bundles and catalogs, so whatever an app
/// printed must not forge an Xcode issue, drive a terminal, become a GitHub Actions command or
/// render as a live image, link or mention in a pull-request comment.
final class OutputSafetyTests: XCTestCase {
    /// One name of each dangerous class, built in code.
    static let dangerous: [String] = [
        "forged\r\n/etc/passwd:1:1: error: pwned",  // CR LF is one Character
        "lone\rreturn", "next\u{85}line", "line\u{2028}sep", "para\u{2029}sep", "new\nline",
        "title\u{1B}]0;owned\u{07}", "clip\u{1B}]52;c;cHduZWQ=\u{07}", "clear\u{1B}[2J\u{1B}[H", "c1\u{9B}31mred", "osc\u{9D}0;t\u{9C}",
        "\u{202E}gnp.evil", "iso\u{2066}late\u{2069}", "mark\u{200F}rtl",
        "::stop-commands::tok", "  ::error file=x::forged", "logo##[warning]x", "##[set-output name=a;]b", "a::b", "##",
        "a`![x](https://evil.example/p.png)`", "`<img src=https://evil.example/x.png>`", "[click](https://evil.example)",
        "@octocat", "team @org/admins", "www.evil.example", "mail@evil.example", "https://evil.example/a", "<script>alert(1)</script>",
        "|pipe|", "back\\slash", "``double``", "<&\"'>", "]]>", "nul\u{0}byte", "tab\tname", "#1 issue", "emoji 🎉", "画像",
    ]

    /// `count` names, each a few fragments of the dangerous classes joined by random text.
    static func randomNames(_ count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let glue = ["", " ", "_", "/", ":", "@2x", ".png", "`", "\n", "#"]
        return (0..<count).map { _ in
            (0...next(3)).map { _ in dangerous[next(dangerous.count)] + glue[next(glue.count)] }.joined()
        }
    }

    private func render(_ reporter: any AuditReporter, _ result: AuditResult) -> String {
        let sink = ByteSink(collecting: reporter.consumer)
        var result = result
        (result.bundlePaths, result.logPaths) = (["App.app"], ["launch.log"])
        reporter.render(ReportInput(result: result, toolVersion: "test"), to: sink)
        return String(decoding: sink.collected, as: UTF8.self)
    }

    /// An audit whose findings carry `names` as missing names and as shipped files.
    private func audit(_ names: [String]) -> AuditResult {
        let shipped = names.prefix(8).enumerated().map { i, name in
            RuleExample.Image(name.replacingOccurrences(of: "/", with: "_") + "\(i)@1x.png", 4000, 3000, bytes: 900_000)
        }
        let loads: [RuleExample.Load] = names.map { .named($0) } + shipped.map { .named(String($0.path.dropLast("@1x.png".count))) }
        return RuleExample("hostile", images: Array(shipped), loads: loads + loads.prefix(3), fires: true).audit()
    }

    func testEveryDangerousClassThroughEveryFormatIsHarmlessToItsConsumer() throws {
        try check(Self.dangerous)
    }

    func testRandomNamesThroughEveryFormatAreHarmlessToTheirConsumers() throws {
        for seed in 1...6 { try check(Self.randomNames(40, seed: UInt64(seed))) }
    }

    private func check(_ names: [String]) throws {
        let result = audit(names)
        XCTAssertGreaterThan(result.findings.count, names.count, "every name is in a finding")
        var markdown: [String] = []
        for reporter in AuditReporters.all {
            let text = render(reporter, result)
            XCTAssertEqual(ConsumerModels.rawControls(text), [], "\(reporter.id) holds raw control characters")
            let commands = ConsumerModels.runnerCommands(text, allowed: reporter.id == "github" ? ConsumerModels.isAnnotation : { _ in false })
            XCTAssertEqual(commands, [], "\(reporter.id) holds GitHub runner commands")
            switch reporter.consumer {
            case .json:
                let document = try JSONSerialization.jsonObject(with: Data(text.utf8))
                if reporter.id == "json", let names = (document as? [String: Any])?["names"] as? [[String: Any]] {
                    // The same data: every name exactly as the app passed it.
                    let written = Set(names.compactMap { $0["name"] as? String })
                    XCTAssertTrue(Set(result.uses.compactMap(\.name)).isSubset(of: written), "json lost or changed a name")
                }
            case .xml:
                let parser = XMLParser(data: Data(text.utf8))
                XCTAssertTrue(parser.parse(), "\(reporter.id) is not well-formed XML: \(String(describing: parser.parserError))")
            case .markdown:
                markdown.append(text)
            case .html:
                XCTAssertFalse(text.contains("<img") || text.contains("<script>alert") || text.contains("href=\"https://evil"), "html has live markup from a name")
            case .terminal where reporter.id == "xcode":
                // Exactly one issue per finding, each on its own line, none forged inside a message.
                let issues = ConsumerModels.xcodeIssues(text)
                XCTAssertEqual(issues.filter { $0.count > 1 }.map(\.line), [], "a line holds a second issue")
                XCTAssertEqual(issues.filter { $0.count == 1 }.count, result.findings.count, "one issue line per finding")
            default:
                break
            }
        }
        for (document, hazards) in zip(markdown, try ConsumerModels.markdownHazards(markdown)) {
            XCTAssertEqual(hazards, [], "markdown renders live content:\n\(document.prefix(2000))")
        }
    }

    /// The guard on its own: bytes split anywhere across writes give the same output, and the
    /// guarded output of safe text is that text.
    func testTheGuardIsTheSameWhereverAWriteSplitsTheBytes() {
        let text = "ok line\n::stop-commands::x\n  ::y\nlogo##[warning]z \u{1B}[2J \u{202E} \u{85} é — … → 画像\n##\n:\n#"
        let whole = ByteSink(collecting: .terminal)
        whole.write(text)
        let expected = whole.collected
        let bytes = Array(text.utf8)
        for cut in 0...bytes.count {
            let split = ByteSink(collecting: .terminal)
            split.write(Array(bytes[..<cut]))
            split.write(Array(bytes[cut...]))
            XCTAssertEqual(split.collected, expected, "split at \(cut)")
        }
        let shown = String(decoding: expected, as: UTF8.self)
        XCTAssertTrue(shown.contains("\\u{3A}:stop-commands::x"), shown)
        XCTAssertTrue(shown.contains("  \\u{3A}:y"), shown)
        XCTAssertTrue(shown.contains("logo#\\u{23}[warning]z \\u{1B}[2J \\u{202E} \\u{85} é — … → 画像"), shown)
        let plain = "A plain report — 4032×3024 px, 46.5 MiB, `name`, #1, a: b\n"
        let sink = ByteSink(collecting: .terminal)
        sink.write(plain)
        XCTAssertEqual(String(decoding: sink.collected, as: UTF8.self), plain)
        // JSON's escapes keep the data: `#` as \u0023 inside a string.
        let json = ByteSink(collecting: .json)
        json.write("{\"name\":\"logo##[warning]x\u{202E}\"}")
        let decoded = try? JSONSerialization.jsonObject(with: Data(json.collected)) as? [String: String]
        XCTAssertEqual(decoded?["name"], "logo##[warning]x\u{202E}")
    }

    /// Colour passes only as SGR and only when asked for; every other escape is shown.
    func testColourIsTheOnlyEscapeThatPasses() {
        let coloured = ByteSink(collecting: .terminal, colour: true)
        let plain = ByteSink(collecting: .terminal)
        let text = "\u{1B}[1;31mFAIL\u{1B}[0m \u{1B}]0;title\u{07}"
        coloured.write(text)
        plain.write(text)
        XCTAssertEqual(String(decoding: coloured.collected, as: UTF8.self), "\u{1B}[1;31mFAIL\u{1B}[0m \\u{1B}]0;title\\u{7}")
        XCTAssertEqual(String(decoding: plain.collected, as: UTF8.self), "\\u{1B}[1;31mFAIL\\u{1B}[0m \\u{1B}]0;title\\u{7}")
    }
}
