import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
import LaunchTrace
import UnusedAudit
import XCTest

@testable import LaunchAudit

/// The audit keeps name findings as rank and place (`FindingList`); reading them must give what
/// the rules find, in report order, and the auditor's slot bookkeeping must count each name once.
final class FindingListTests: XCTestCase {
    /// A launch with a bit of everything: missing names, repeats, a nil name, a path read twice,
    /// names the config ignores and a severity it overrides.
    private func audit(logs: Int = 2, config: AuditConfig = AuditConfig()) -> (AuditResult, RuleExample) {
        var loads: [RuleExample.Load] = [.named("logo"), .named("logo"), .named("logo"), .nilName, .named("placeholder")]
        for i in 0..<40 { loads.append(.named("gone_\(i % 25)")) }
        loads += [.path("/x/Example.app/hero@3x.jpg"), .path("/x/Example.app/hero@3x.jpg"), .request("hero", .swiftui)]
        let example = RuleExample(
            "", images: [.init("logo@3x.png", 300, 90), .init("hero@3x.jpg", 1200, 800), .init("placeholder@2x.png", 50, 50)],
            loads: loads, fires: true)
        let auditor = LaunchAuditor(inventory: example.inventory, device: .default, config: config)
        for log in 0..<logs {
            auditor.beginLog("log\(log)")
            for event in example.events { auditor.add(event) }
            auditor.endLog(.init())
        }
        return (auditor.finish(), example)
    }

    func testNameFindingsReadAsTheRulesFindThemInReportOrder() throws {
        var config = AuditConfig()
        config.ignore.names = ["gone_3"]
        config.severities["repeated-load"] = .warning
        let (result, example) = audit(config: config)
        let findings = Array(result.findings)
        XCTAssertGreaterThan(findings.filter { $0.rule == MissingImageRule.id }.count, 20)
        for (a, b) in zip(findings, findings.dropFirst()) {
            XCTAssertFalse(Finding.reportOrder(b, a), "\(b.rule) \(b.fingerprint) ranks before \(a.rule) \(a.fingerprint)")
        }
        // Each name rule's findings over the same launch names, judged by the same config.
        let context = RuleContext(
            device: .default, config: config, inventory: example.inventory, uses: result.uses.filter { $0.launchLoads > 0 },
            unreadable: result.unreadable, logs: result.logs, metrics: result.metrics, systemBundles: [], baseline: nil)
        for rule in [MissingImageRule.self, RepeatedLoadRule.self] as [any NameRule.Type] {
            var expected = rule.check(context).filter { !$0.names.contains("gone_3") }
            for i in expected.indices { expected[i].severity = config.severities[rule.id] ?? expected[i].severity }
            let got = findings.filter { $0.rule == rule.id }
            XCTAssertEqual(got.count, expected.count, rule.id)
            for finding in expected { XCTAssertTrue(got.contains(finding), "\(rule.id): \(finding.message)") }
        }
        XCTAssertEqual(findings.first { $0.rule == RepeatedLoadRule.id }?.severity, .warning)
        XCTAssertFalse(findings.contains { $0.names == ["gone_3"] })
        XCTAssertTrue(findings.contains { $0.rule == UncachedRepeatRule.id }, "findings held whole sit among name findings")
        // Ranks say what the built findings say.
        XCTAssertEqual(
            result.findings.ranks.map { $0 },
            findings.map {
                FindingRank(
                    rule: $0.rule, severity: $0.severity, fingerprint: $0.fingerprint, formerFingerprints: $0.formerFingerprints,
                    foldedRules: $0.foldedRules)
            })
        XCTAssertEqual(result.severityCounts[.error], findings.filter { $0.severity == .error }.count)
    }

    func testAWrittenBackFindingIsKept() {
        var (result, _) = audit(logs: 1)
        let at = result.findings.firstIndex { $0.rule == MissingImageRule.id }!
        result.findings[at].source = SourceLocation(path: "Assets.xcassets/gone_0.imageset")
        XCTAssertEqual(result.findings[at].source?.path, "Assets.xcassets/gone_0.imageset")
        XCTAssertEqual(result.findings[at].rule, MissingImageRule.id)
    }

    func testSourcePlacesKeepANameFindingARank() {
        var (result, _) = audit(logs: 1)
        let at = result.findings.firstIndex { $0.rule == MissingImageRule.id }!
        let whole = result.findings.wholeCount
        let code = SourceLocation(path: "App/View.swift", position: TextPosition(line: 12, column: 5))
        result.findings.locate(at: at, source: nil, code: code, alsoNamedAt: "App/Other.swift:3")
        XCTAssertEqual(result.findings.wholeCount, whole, "a located name finding is still built when read, not held whole")
        XCTAssertEqual(result.findings[at].code, code)
        XCTAssertEqual(result.findings[at].values["alsoNamedAt"], .string("App/Other.swift:3"))
        XCTAssertNil(result.findings[at].source)
        XCTAssertNil(result.findings[at + 1].code)
    }

    func testANameIsOneUseWhetherItsLoadsCarryAReaderIDOrNot() {
        let example = RuleExample("", images: [.init("a@3x.png", 10, 10)], loads: [], fires: false)
        let auditor = LaunchAuditor(inventory: example.inventory, device: .default)
        func load(_ name: String, line: Int, id: Int?) -> ImageLoad {
            ImageLoad(seq: line, line: line, name: name, status: .ok, api: "+[UIImage imageNamed:]", nameID: id)
        }
        auditor.beginLog("one")
        auditor.add(load("a", line: 1, id: 0))
        auditor.add(load("b", line: 2, id: 1))
        auditor.add(load("a", line: 3, id: nil))  // same name, no id: found through the dictionary
        auditor.add(load("b", line: 4, id: 1))
        auditor.endLog(.init())
        auditor.beginLog("two")
        auditor.add(load("b", line: 1, id: 0))  // a reader's ids are its log's: 0 is `b` now
        auditor.add(load("c", line: 2, id: 1))
        auditor.add(load("a", line: 3, id: 2))
        auditor.endLog(.init())
        let result = auditor.finish()
        let loads = Dictionary(uniqueKeysWithValues: result.uses.map { ($0.name ?? "", $0.launchLoads) })
        XCTAssertEqual(loads, ["a": 3, "b": 3, "c": 1])
        XCTAssertEqual(result.uses.first { $0.name == "b" }?.launchLines, [LogLine(log: 0, line: 2), LogLine(log: 0, line: 4), LogLine(log: 1, line: 1)])
        XCTAssertEqual(result.uses.first { $0.name == "b" }?.maxLaunchLoadsPerLog, 2)
    }

    func testPermuteFollowsCycles() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 2, 7, 100] {
            let values = (0..<count).map { "v\($0)" }
            let order = (0..<Int32(count)).shuffled(using: &generator)
            var permuted = values
            permuted.permute(by: order)
            XCTAssertEqual(permuted, order.map { values[Int($0)] })
        }
    }
}
