import AuditModel
import AuditPolicy
import AuditRules
import AuditTestSupport
import LaunchAudit
import UnusedAudit
import XCTest

/// One finding per image: the image-cost rules fold into one finding whose fix is the best
/// action, whose cost counts the bytes once, whose fingerprint does not depend on which rules
/// fired, and which schema-1 baselines still recognise.
final class ImageFindingsTests: XCTestCase {
    /// A loose 12-megapixel photo at @1x, 2 MiB on disk: larger than the screen, over the memory
    /// limit, over the file limit and loose: four rules, one image.
    private let photo = RuleExample(
        "a loose 12-megapixel photo", images: [.init("hero.jpg", 4032, 3024, bytes: 2 << 20)], loads: [.named("hero.jpg")], fires: true)

    func testOnePhotoIsOneFindingWithTheOthersAsEvidence() throws {
        let findings = Array(photo.audit().findings)
        let about = findings.filter { $0.assets == ["hero.jpg"] }
        XCTAssertEqual(about.count, 1, "\(about.map(\.message))")
        let finding = try XCTUnwrap(about.first)
        XCTAssertEqual(finding.rule, "oversized-pixels", "the rule whose fix also shrinks memory and file speaks")
        XCTAssertEqual(finding.evidence.map(\.rule), ["oversized-memory", "large-file", "loose-image"])
        XCTAssertTrue(finding.fix.hasPrefix("Ship it at the size it is shown"), finding.fix)
        // The cost is the decoded bytes once, not the sum of every rule's view of them.
        XCTAssertEqual(finding.cost, 4032 * 3024 * 4)
        XCTAssertTrue(finding.message.text.contains("; also decodes to 46.5 MiB"), finding.message.text)
        XCTAssertFalse(finding.message.text.contains("upscaled"), "an image larger than the screen is never called upscaled")
        XCTAssertEqual(finding.values["bytesOnDisk"], .int(2 << 20), "the evidence's figures are kept")
    }

    func testTheFingerprintIsTheImagesWhicheverRulesFire() throws {
        // The same file, small: a @1x picture upscaled on a @3x phone, and loose.
        let small = RuleExample("", images: [.init("hero.jpg", 40, 30)], loads: [.named("hero.jpg")], fires: true)
        let big = try XCTUnwrap(photo.audit().findings.first { $0.assets == ["hero.jpg"] })
        let little = try XCTUnwrap(small.audit().findings.first { $0.assets == ["hero.jpg"] })
        XCTAssertEqual(little.rule, "scale-mismatch")
        XCTAssertEqual(little.evidence.map(\.rule), ["loose-image"])
        XCTAssertEqual(big.fingerprint, little.fingerprint)
        XCTAssertEqual(big.foldedRules, ["large-file", "loose-image", "oversized-memory", "oversized-pixels"])
        XCTAssertEqual(little.foldedRules, ["loose-image", "scale-mismatch"])
        XCTAssertEqual(little.formerFingerprints.count, 2, "what schema 1 called the rules that fired, and no others")
    }

    /// A baseline accepts an image for the rules that fired when it was written: a rule that
    /// fires now and did not then is new, though the image's fingerprint is the same (issue 40).
    func testABaselineAcceptsAnImageOnlyForTheRulesThatFiredThen() throws {
        let small = RuleExample("", images: [.init("hero.jpg", 40, 30)], loads: [.named("hero.jpg")], fires: true)
        let tolerance = AuditConfig().baselineTolerance
        let accepted = try Baseline.parse(Baseline(small.audit()).render(), path: "small.json")
        XCTAssertEqual(accepted.findings.first { $0.rules.contains("loose-image") }?.rules, ["loose-image", "scale-mismatch"])
        let same = BaselineComparison(baseline: accepted, result: small.audit(), tolerance: tolerance)
        XCTAssertTrue(same.newFindings.isEmpty && same.fixed.isEmpty, "\(same.newFindings.map(\.message))")
        // The file grows into a 12-megapixel photo: three rules that did not fire then.
        let grown = BaselineComparison(baseline: accepted, result: photo.audit(), tolerance: tolerance)
        XCTAssertEqual(grown.newFindings.map(\.rule), ["oversized-pixels"])
        XCTAssertTrue(grown.fixed.isEmpty, "the image still has findings")
        // A schema-2 file did not say which rules fired: it accepts the image as before.
        var legacy = accepted
        for index in legacy.findings.indices { legacy.findings[index].rules = [] }
        XCTAssertTrue(BaselineComparison(baseline: legacy, result: photo.audit(), tolerance: tolerance).newFindings.isEmpty)
    }

    func testRepeatedFingerprintsInABaselineCountOnce() throws {
        let result = photo.audit()
        let finding = try XCTUnwrap(result.findings.first)
        let entry = #"{"fingerprint": "\#(finding.fingerprint)", "rule": "\#(finding.rule)", "severity": "error", "message": "m"}"#
        let gone = #"{"fingerprint": "0123456789abcdef", "rule": "missing-image", "severity": "error", "message": "gone"}"#
        let text = """
            {"schemaVersion": 2, "kind": "imgtrace-baseline", "device": "\(result.device.id)",
             "launch": {"loads": 1, "names": 1, "images": 1, "decodedBytes": 0, "bytesOnDisk": 0, "missing": 0, "repeated": 0,
                        "unreadable": 0, "largestImageDecodedBytes": 0},
             "findings": [\(([entry] + Array(repeating: gone, count: 5)).joined(separator: ", "))]}
            """
        let baseline = try Baseline.parse(Array(text.utf8), path: "copies.json")
        XCTAssertEqual(baseline.findings.count, 2)
        XCTAssertEqual(baseline.duplicateEntries, 4)
        XCTAssertEqual(BaselineComparison(baseline: baseline, result: result, tolerance: AuditConfig().baselineTolerance).fixed.count, 1)
        XCTAssertEqual(
            AuditSession.baselineWarnings(baseline, path: "copies.json").map(\.text),
            [
                "copies.json: 4 findings repeated a fingerprint already in the file: each counted once",
                "copies.json: written in schema 2, before launch figures were per launch: if it was written from several logs its figures are their sum; compared as they are — write it again with `imgtrace baseline write`",
            ])
    }

    func testARaisedSeverityChoosesTheSpeaker() throws {
        var config = AuditConfig()
        config.severities["loose-image"] = .error
        let finding = try XCTUnwrap(photo.audit(config: config).findings.first { $0.assets == ["hero.jpg"] })
        XCTAssertEqual(finding.rule, "loose-image")
        XCTAssertEqual(finding.severity, .error)
        XCTAssertEqual(finding.evidence.first?.rule, "oversized-pixels")
    }

    func testASchemaOneBaselineStillHoldsTheImagesFinding() throws {
        let result = photo.audit()
        let finding = try XCTUnwrap(result.findings.first { $0.assets == ["hero.jpg"] })
        // Schema 1 fingerprinted each rule's finding: rule, image id and device, by the id the
        // device had then (`iphone-17-pro-max`, now `iphone-16-17-pro-max`).
        func schemaOne(_ rules: [String]) throws -> Baseline {
            let entries = rules.map { rule in
                let old = Finding.fingerprint(rule: rule, identity: "hero.jpg", device: result.device.fingerprintKey)
                return #"{"fingerprint": "\#(old)", "rule": "\#(rule)", "severity": "note", "message": "old"}"#
            }
            let text = """
                {"schemaVersion": 1, "kind": "imgtrace-baseline", "device": "\(result.device.fingerprintKey)",
                 "launch": {"loads": 1, "names": 1, "images": 1, "decodedBytes": 0, "bytesOnDisk": 0, "missing": 0, "repeated": 0,
                            "unreadable": 0, "largestImageDecodedBytes": 0},
                 "findings": [\(entries.joined(separator: ", "))]}
                """
            return try Baseline.parse(Array(text.utf8), path: "old.json")
        }
        let baseline = try schemaOne(finding.foldedRules)
        XCTAssertEqual(finding.formerFingerprints.sorted(), baseline.findings.map(\.fingerprint).sorted())
        let comparison = BaselineComparison(baseline: baseline, result: result, tolerance: AuditConfig().baselineTolerance)
        XCTAssertFalse(comparison.newFindings.contains { $0.fingerprint == finding.fingerprint }, "the photo was known")
        XCTAssertTrue(comparison.fixed.isEmpty, "and is not reported fixed")
        XCTAssertFalse(comparison.deviceChanged, "the device's former id is the same device")
        // A schema-1 file that knew one of its rules did not accept the others.
        let partial = BaselineComparison(baseline: try schemaOne(["large-file"]), result: result, tolerance: AuditConfig().baselineTolerance)
        XCTAssertTrue(partial.newFindings.contains { $0.fingerprint == finding.fingerprint })
        // Written again, the baseline is schema 4 and says what the finding was called before.
        let written = String(decoding: Baseline(result).render(), as: UTF8.self)
        XCTAssertTrue(written.contains("\"schemaVersion\": 5"))
        XCTAssertTrue(written.contains("\"formerly\": ["), written)
        let reread = try Baseline.parse(Array(written.utf8), path: "new.json")
        let between = BaselineComparison(old: baseline, new: reread, failOn: .error, tolerance: AuditConfig().baselineTolerance)
        XCTAssertTrue(between.fixed.isEmpty, "`baseline compare` of an old and a new file agrees")
    }
}
