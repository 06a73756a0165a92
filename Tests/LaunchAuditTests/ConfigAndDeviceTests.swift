import AuditModel
import AuditPolicy
import AuditRules
import ImgtraceSupport
import LaunchAudit
import UnusedAudit
import XCTest

final class ConfigAndDeviceTests: XCTestCase {
    func testDeviceProfilesComeFromTheScreenTable() throws {
        XCTAssertEqual(DeviceProfile.default.id, "iphone-16-17-pro-max")
        XCTAssertEqual(DeviceProfile.default.pixelWidth, 1320)
        XCTAssertEqual(DeviceProfile.default.pixelHeight, 2868)
        XCTAssertEqual(DeviceProfile.default.fullScreenBytes, 1320 * 2868 * 4)
        XCTAssertEqual(DeviceProfile.named("iPhone 16 Pro Max"), DeviceProfile.default)
        XCTAssertEqual(DeviceProfile.named("iphone16promax"), DeviceProfile.default)
        let pad = try XCTUnwrap(DeviceProfile.named("iPad Pro 13\" (M4)"))
        XCTAssertEqual([pad.pixelWidth, pad.pixelHeight, pad.scale], [2064, 2752, 2])
        XCTAssertEqual(pad.idiom, "pad")
        XCTAssertEqual(DeviceProfile.named("iphone-6-7-8-se")?.scale, 2)
        XCTAssertNil(DeviceProfile.named("pixel-9"))
        XCTAssertEqual(Set(DeviceProfile.builtIn.map(\.id)).count, DeviceProfile.builtIn.count)
    }

    /// An id names the models it holds: each phone's and pad's generation (`16e`, `xr`, `se`,
    /// `a16`, `mini`; `6s` by its `6`) is one of its id's words, so `iphone-14` can no longer be
    /// read as the 14 Pro's screen.
    func testDeviceIdsNameTheirModels() {
        for profile in DeviceProfile.builtIn where profile.idiom != "mac" {
            let words = Set(profile.id.split(separator: "-").map(String.init))
            for model in profile.models {
                // "iPhone 6s Plus" → "6"; "iPad (10th gen)" → "10"; "iPad Pro 11\" (M4)" → "pro".
                var generation = model.lowercased().split(separator: " ").dropFirst().first.map(String.init) ?? ""
                generation = generation.trimmingCharacters(in: CharacterSet(charactersIn: "()"))
                for suffix in ["th", "s"] where generation.hasSuffix(suffix) && generation.dropLast(suffix.count).allSatisfy(\.isNumber) {
                    generation.removeLast(suffix.count)
                }
                XCTAssertTrue(words.contains(generation), "\(profile.id) does not name \(model) (\(generation))")
            }
        }
    }

    /// The ids profiles had before they named their models still work, and findings keep the
    /// fingerprints they had: a baseline written before the rename holds the same problems.
    func testFormerDeviceIdsStillResolveAndKeepFingerprints() throws {
        let former = [
            "iphone-se": "iphone-6-7-8-se", "iphone-14": "iphone-12-13-14-16e", "iphone-16": "iphone-14-pro-15-16",
            "iphone-17-pro": "iphone-16-pro-17", "iphone-17-pro-max": "iphone-16-17-pro-max", "ipad-pro-12.9": "ipad-pro-12.9-air-13",
        ]
        for (old, new) in former {
            XCTAssertEqual(DeviceProfile.named(old)?.id, new, old)
        }
        // "iphone-14" names the iPhone 14, whose screen the former `iphone-14` profile was.
        XCTAssertTrue(try XCTUnwrap(DeviceProfile.named("iphone-14")).models.contains("iPhone 14"))
        XCTAssertEqual(DeviceProfile.default.fingerprintKey, "iphone-17-pro-max")
        XCTAssertEqual(try XCTUnwrap(DeviceProfile.named("iphone-air")).fingerprintKey, "iphone-air")
        XCTAssertEqual(Set(DeviceProfile.builtIn.map(\.fingerprintKey)).count, DeviceProfile.builtIn.count)
    }

    func testAFullConfigParses() throws {
        let config = try ConfigFile.parse(
            """
            device: iphone-se
            launchEnd: "viewDidAppear"
            failOn: warning
            thresholds:
              repeatedLoadWarning: 4
              oversizedTolerance: 0.1
              oversizedMemoryBytes: 8000000
              largeFileBytes: 100000
            budgets:
              maxLaunchImages: 40
              maxLaunchDecodedBytes: 20000000
            ignore:
              names: [legacy_logo]
              globs: ["Onboarding/*"]
              rules: [loose-image]
            severity:
              repeated-load: warning
            baseline:
              launchDecodedBytesTolerance: 0.1
            """, path: ".imgtrace.yml")
        XCTAssertEqual(config.device, "iphone-se")
        XCTAssertEqual(config.launchEnd?.text, "viewDidAppear")
        XCTAssertEqual(config.failOn, .warning)
        XCTAssertEqual(config.thresholds.repeatedLoadWarning, 4)
        XCTAssertEqual(config.thresholds.oversizedTolerance, 0.1)
        XCTAssertEqual(config.thresholds.oversizedMemoryBytes, 8_000_000)
        XCTAssertEqual(config.thresholds.largeFileBytes, 100_000)
        XCTAssertEqual(config.budgets.maxLaunchImages, 40)
        XCTAssertEqual(config.budgets.maxLaunchDecodedBytes, 20_000_000)
        XCTAssertEqual(config.ignore.names, ["legacy_logo"])
        XCTAssertEqual(config.ignore.globs, ["Onboarding/*"])
        XCTAssertEqual(config.ignore.rules, ["loose-image"])
        XCTAssertEqual(config.severities["repeated-load"], .warning)
        XCTAssertEqual(config.baselineTolerance.launchDecodedBytes, 0.1)
        XCTAssertEqual(try ConfigFile.parse("", path: "x"), AuditConfig())
    }

    func testBadConfigsNameTheFileTheLineAndTheKey() {
        let cases: [(String, String)] = [
            ("device: a\ndevise: b\n", "line 2, column 1: unknown key `devise`"),
            ("thresholds:\n  largeFile: 3\n", "line 2, column 3: unknown key `largeFile` in `thresholds`"),
            ("budgets:\n  maxLaunchImages: many\n", "line 2, column 20: `maxLaunchImages` must be a whole number"),
            ("severity:\n  no-such-rule: note\n", "unknown rule `no-such-rule`"),
            ("severity:\n  loose-image: fatal\n", "must be error, warning or note"),
            ("ignore:\n  rules: [nope]\n", "unknown rule `nope`"),
            ("failOn: sometimes\n", "`failOn` must be error, warning, note or never"),
            ("launchEnd: \"(\"\n", "not a valid regular expression"),
            ("- a\n- b\n", "the top level must be a mapping"),
            ("device: [a\n", "not valid YAML"),
            ("device: a\ndevice: b\n", "duplicated key"),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try ConfigFile.parse(text, path: "cfg.yml"), text) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("cfg.yml: "), message)
                XCTAssertTrue(message.contains(expected), "\(message) lacks \(expected)")
                XCTAssertFalse(message.contains("\n"), "one line: \(message)")
            }
        }
    }

    func testIgnoresAndSeverityOverridesApply() {
        let example = RuleExample(
            "", images: [.init("tab@2x.png", 50, 50), .init("Onboarding/a@3x.png", 5, 5)],
            loads: [.named("tab"), .named("Onboarding/a"), .named("gone")], fires: true)
        func audit(_ config: AuditConfig) -> [Finding] {
            let auditor = LaunchAuditor(inventory: example.inventory, device: .default, config: config)
            auditor.beginLog("x")
            for event in example.events { auditor.add(event) }
            auditor.endLog(.init())
            return Array(auditor.finish().findings)
        }
        var config = AuditConfig()
        XCTAssertTrue(audit(config).contains { $0.rule == "loose-image" && $0.names == ["Onboarding/a"] })
        config.ignore.globs = ["Onboarding/*"]
        config.ignore.names = ["gone"]
        config.severities["scale-mismatch"] = .error
        let findings = audit(config)
        XCTAssertFalse(findings.contains { $0.names.contains("Onboarding/a") })
        XCTAssertFalse(findings.contains { $0.rule == "missing-image" })
        XCTAssertEqual(findings.first?.rule, "scale-mismatch")
        XCTAssertEqual(findings.first?.severity, .error)
        config.ignore.rules = ["loose-image"]
        XCTAssertFalse(audit(config).contains { $0.rule == "loose-image" })
    }

    func testBudgetsAreJudgedPerLaunch() {
        let example = RuleExample("", images: [.init("a@3x.png", 100, 100)], loads: [.named("a"), .named("a")], fires: true)
        var config = AuditConfig()
        config.budgets.maxLaunchLoads = 2
        config.budgets.maxLaunchDecodedBytes = 1000
        let auditor = LaunchAuditor(inventory: example.inventory, device: .default, config: config)
        for log in ["one", "two"] {
            auditor.beginLog(log)
            for event in example.events { auditor.add(event) }
            auditor.endLog(.init())
        }
        let result = auditor.finish()
        XCTAssertEqual(result.metrics.launch.loads, 2, "the median launch's loads, not their sum")
        XCTAssertEqual(result.metrics.launches, 2)
        XCTAssertEqual(result.metrics.launch.repeated, 1, "one repeat per launch")
        XCTAssertEqual(result.budgetBreaches.map(\.budget), ["maxLaunchDecodedBytes"], "each launch made 2 loads: within budget")
        XCTAssertEqual(result.budgetBreaches.first?.actual, 40_000)
        XCTAssertTrue(result.fails)
    }

    /// One judgement for both commands: the config's severity, the toolkit's note, the ignores.
    func testTheConfigJudgesAFindingTheSameWayInEveryCommand() throws {
        let config = try ConfigFile.parse("severity:\n  missing-image: warning\nignore:\n  globs: [\"Onboarding*\"]\n", path: "c.yml")
        var app = Finding(rule: "missing-image", severity: .error, identity: "a", device: "d", message: "m", fix: .matchCase, names: ["logo"])
        XCTAssertTrue(config.judge(&app))
        XCTAssertEqual(app.severity, .warning)
        var toolkits = app
        toolkits.gates = false
        XCTAssertTrue(config.judge(&toolkits))
        XCTAssertEqual(toolkits.severity, .note, "the toolkit's own lookups are notes whatever the config says")
        var ignored = Finding(
            rule: "unused-image", severity: .warning, identity: "b", device: "d", message: "m", fix: .deleteUnusedImage, names: ["Onboarding1"])
        XCTAssertFalse(config.judge(&ignored))
    }
}
