import AuditModel
import AuditPolicy
import AuditRules
import AuditTestSupport
import LaunchAudit
import UnusedAudit
import XCTest

/// Every rule's examples are its tests: each fires exactly where it says it does.
final class RuleExampleTests: XCTestCase {
    func testEveryExampleFiresExactlyWhenItSays() {
        for rule in Rules.all {
            for example in rule.examples {
                let result = example.audit()
                let fired = result.findings.contains { $0.isFound(by: rule.id) }
                XCTAssertEqual(fired, example.fires, "\(rule.id): \(example.summary) — findings: \(result.findings.map(\.message))")
            }
        }
    }

    func testEveryUnusedVerdictsExampleIsJudgedExactlyAsItSays() {
        for rule in Rules.unused {
            for example in rule.examples {
                let assets = example.judgeUnused()
                let fired = assets.contains { $0.verdict == rule.verdict }
                XCTAssertEqual(fired, example.fires, "\(rule.id): \(example.summary) — \(assets.map { "\($0.name): \($0.verdict)" })")
            }
        }
    }

    func testAnUnusedImagesFindingNamesItsBytesAndStaysTheSameAcrossDevices() throws {
        let rule = try XCTUnwrap(Rules.unused.first { $0.id == "unused-image" })
        let example = try XCTUnwrap(rule.examples.first)
        let asset = try XCTUnwrap(example.judgeUnused().first { $0.verdict == .unused })
        let phone = rule.finding(for: asset, device: .default, code: .searched)
        let ipad = try XCTUnwrap(DeviceProfile.named("ipad-pro-13-m4"))
        XCTAssertEqual(phone.fingerprint, rule.finding(for: asset, device: ipad, code: .searched).fingerprint, "an image set is unused on every device")
        XCTAssertEqual(phone.severity, .warning)
        XCTAssertEqual(phone.cost, 4096)
        XCTAssertTrue(phone.message.text.hasPrefix("`old_banner` is shipped but never used"), phone.message.text)
        // Judged from the built app alone, it is a candidate: a note that says what was not searched.
        let candidate = rule.finding(for: asset, device: .default, code: .notSearched)
        XCTAssertEqual(candidate.severity, .note)
        XCTAssertEqual(candidate.fingerprint, phone.fingerprint)
        XCTAssertTrue(candidate.message.text.contains("the source code was not searched"), candidate.message.text)
    }

    func testEveryRuleHasAFiringAndAQuietExampleAndAStableUniqueId() {
        var ids = Set<String>()
        for rule in Rules.described {
            XCTAssertTrue(ids.insert(rule.id).inserted, "duplicate id \(rule.id)")
            XCTAssertNotNil(rule.id.range(of: "^[a-z]+(-[a-z]+)*$", options: .regularExpression), rule.id)
            XCTAssertTrue(rule.examples.contains { $0.fires }, "\(rule.id) has no firing example")
            XCTAssertTrue(rule.examples.contains { !$0.fires }, "\(rule.id) has no quiet example")
            XCTAssertFalse(rule.summary.isEmpty)
        }
        // README's rule table, and the policy rules: missing evidence and budgets are findings too.
        XCTAssertEqual(
            ids,
            [
                "missing-image", "repeated-load", "uncached-repeat", "duplicate-content", "slow-image", "oversized-pixels",
                "oversized-memory", "large-file", "scale-mismatch", "loose-image", "bundle-junk", "trace-unreadable",
                "no-evidence", "budget-exceeded", "baseline-regression", "unused-image", "dynamic-only", "never-loaded",
            ])
    }

    func testRepeatedLoadBecomesAWarningAtTheThresholdAndCostsNothing() throws {
        let example = RuleExample("", images: [.init("star@3x.png", 60, 60)], loads: Array(repeating: .named("star"), count: 10), fires: true)
        let finding = try XCTUnwrap(example.audit().findings.first { $0.rule == "repeated-load" })
        XCTAssertEqual(finding.severity, .warning)
        XCTAssertEqual(finding.values["loads"], .int(10))
        XCTAssertEqual(finding.cost, 0, "cache hits are cheap: no bytes charged")
        let few = RuleExample("", images: [.init("star@3x.png", 60, 60)], loads: Array(repeating: .named("star"), count: 9), fires: true)
        XCTAssertEqual(few.audit().findings.first { $0.rule == "repeated-load" }?.severity, .note)
    }

    func testAPathLoadWithTheDevicesVariantBesideItBlamesTheLoad() throws {
        // The example app's case: `onboarding_step1@3x.png` loaded by path on a @2x device, its @2x in the bundle.
        let example = RuleExample(
            "", images: [.init("onboarding_step1@2x.png", 50, 50), .init("onboarding_step1@3x.png", 75, 75)],
            loads: [.named("/var/containers/Bundle/Application/X/App.app/onboarding_step1@3x.png")], fires: true)
        let device = try XCTUnwrap(DeviceProfile.named("iphone-6-7-8-se"))
        let finding = try XCTUnwrap(example.audit(device: device).findings.first { $0.rule == "scale-mismatch" })
        XCTAssertTrue(
            finding.message.text.contains("is loaded by its path as the @3x file on a @2x screen, though `onboarding_step1@2x.png` ships beside it"), finding.message.text)
        XCTAssertFalse(finding.message.text.contains("only a higher scale exists"))
        XCTAssertEqual(finding.fix, "Load it by name (`UIImage(named: \"onboarding_step1\")`), so UIKit picks the @2x variant.")
        XCTAssertEqual(finding.values["kind"], .string("file"))
        // Loaded by name, the same files say nothing: UIKit picks the @2x.
        let byName = RuleExample("", images: example.images, loads: [.named("onboarding_step1")], fires: false)
        XCTAssertNil(byName.audit(device: device).findings.first { $0.rule == "scale-mismatch" })
    }

    func testAnIgnoredNameIsNotCountedMissingByTheBudgetOrTheFigures() throws {
        let example = RuleExample("", images: [.init("tab@3x.png", 60, 60)], loads: [.named("tab"), .named("legacy_logo"), .named("old_1")], fires: true)
        var config = AuditConfig()
        config.budgets.maxMissingImages = 0
        let counted = example.audit(config: config)
        XCTAssertEqual(counted.metrics.launch.missing, 2)
        XCTAssertEqual(counted.findings.filter { $0.rule == "budget-exceeded" }.count, 1)
        config.ignore.names = ["legacy_logo"]
        config.ignore.globs = ["old_*"]
        let ignored = example.audit(config: config)
        XCTAssertEqual(ignored.metrics.launch.missing, 0)
        XCTAssertEqual(ignored.findings.filter { $0.rule == "budget-exceeded" }.count, 0, "\(ignored.findings.map(\.message))")
    }

    func testFingerprintsIgnoreLinesButFollowDeviceAndAsset() throws {
        let a = RuleExample("", images: [.init("tab@2x.png", 50, 50)], loads: [.named("tab")], fires: true)
        let b = RuleExample(
            "", images: [.init("tab@2x.png", 50, 50), .init("other@3x.png", 5, 5)],
            loads: [.named("other"), .named("other"), .named("tab")], fires: true)
        let fa = try XCTUnwrap(a.audit().findings.first { $0.rule == "scale-mismatch" })
        let fb = try XCTUnwrap(b.audit().findings.first { $0.rule == "scale-mismatch" })
        XCTAssertNotEqual(fa.lines, fb.lines)
        XCTAssertEqual(fa.fingerprint, fb.fingerprint, "same problem, same fingerprint, whatever the line")
        XCTAssertEqual(fa.fingerprint.count, 16)
        let ipad = try XCTUnwrap(DeviceProfile.named("ipad-pro-13-m4"))
        let onPad = a.audit(device: ipad).findings.first { $0.rule == "loose-image" }
        let onPhone = a.audit().findings.first { $0.rule == "loose-image" }
        XCTAssertNotEqual(onPad?.fingerprint, onPhone?.fingerprint, "the device is part of the identity")
    }

    func testCostRanksFindingsWithinASeverity() {
        let example = RuleExample(
            "", images: [.init("a@3x.png", 3000, 3000), .init("b@3x.png", 5000, 5000)],
            loads: [.named("a"), .named("b")], fires: true)
        let memory = example.audit().findings.filter { $0.isFound(by: "oversized-memory") }
        XCTAssertEqual(memory.map(\.assets), [["b@3x.png"], ["a@3x.png"]], "the costliest first")
    }
}
