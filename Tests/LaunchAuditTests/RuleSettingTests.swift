import AuditModel
import AuditPolicy
import AuditRules
import LaunchAudit
import UnusedAudit
import XCTest

/// Every value a team tunes is a rule's declared setting: the config file reads each one by its
/// declaration, and `AuditConfig` starts from each declared default.
final class RuleSettingTests: XCTestCase {
    func testTheConfigFileReadsEveryDeclaredSetting() throws {
        for setting in Rules.settings {
            let value: RuleSetting.Value = setting.kind == .count ? .count(7) : .fraction(0.25)
            let written = setting.kind == .count ? "7" : "0.25"
            let parsed = try ConfigFile.parse("\(setting.section):\n  \(setting.key): \(written)\n", path: "t.yml")
            var expected = AuditConfig()
            setting.apply(value, to: &expected)
            XCTAssertEqual(parsed, expected, setting.path)
            XCTAssertNotEqual(parsed, AuditConfig(), "\(setting.path) changed nothing")
        }
    }

    /// A rule's help names only keys that exist: every `section.key` it quotes is a declared setting.
    func testEveryKeyARulesHelpNamesIsASetting() {
        let paths = Set(Rules.settings.map(\.path))
        for rule in Rules.described {
            let quoted = (rule.parameters + " " + rule.summary).split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            for (_, token) in quoted where ["thresholds.", "budgets.", "baseline."].contains(where: { token.hasPrefix($0) }) {
                XCTAssertTrue(paths.contains(String(token)), "\(rule.id) names `\(token)`, which is no setting")
            }
        }
    }

    func testAuditConfigStartsFromTheDeclaredDefaults() {
        for setting in Rules.settings {
            guard let value = setting.defaultValue else { continue }
            var config = AuditConfig()
            setting.apply(value, to: &config)
            XCTAssertEqual(config, AuditConfig(), "\(setting.path): AuditConfig's default is not the declared \(setting.defaultText)")
        }
        XCTAssertEqual(AuditConfig().thresholds.repeatedLoadWarning, 10)
        XCTAssertEqual(AuditConfig().baselineTolerance.launchDecodedBytes, 0.05)
    }

    func testSettingsAreUniqueAndWrongValuesAreRefusedWithTheirPlace() throws {
        let paths = Rules.settings.map(\.path)
        XCTAssertEqual(Set(paths).count, paths.count)
        let fraction = try XCTUnwrap(Rules.settings.first { $0.kind == .fraction })
        XCTAssertThrowsError(try ConfigFile.parse("\(fraction.section):\n  \(fraction.key): -1\n", path: "t.yml")) { error in
            XCTAssertTrue("\(error)".contains("t.yml") && "\(error)".contains("line 2"), "\(error)")
        }
        XCTAssertThrowsError(try ConfigFile.parse("thresholds:\n  noSuchThing: 1\n", path: "t.yml")) { error in
            XCTAssertTrue("\(error)".contains("repeatedLoadWarning"), "the known keys are listed: \(error)")
        }
    }
}
