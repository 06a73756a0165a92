import LaunchAudit
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
        XCTAssertTrue(finding.message.contains("; also decodes to 46.5 MiB"), finding.message)
        XCTAssertFalse(finding.message.contains("upscaled"), "an image larger than the screen is never called upscaled")
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
        XCTAssertEqual(big.formerFingerprints, little.formerFingerprints)
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
        let old = Finding.fingerprint(rule: "large-file", identity: "hero.jpg", device: result.device.fingerprintKey)
        XCTAssertTrue(finding.formerFingerprints.contains(old))
        let text = """
            {"schemaVersion": 1, "kind": "imgtrace-baseline", "device": "\(result.device.fingerprintKey)",
             "launch": {"loads": 1, "names": 1, "images": 1, "decodedBytes": 0, "bytesOnDisk": 0, "missing": 0, "repeated": 0,
                        "unreadable": 0, "largestImageDecodedBytes": 0},
             "findings": [{"fingerprint": "\(old)", "rule": "large-file", "severity": "note", "message": "old"}]}
            """
        let baseline = try Baseline.parse(Array(text.utf8), path: "old.json")
        let comparison = BaselineComparison(baseline: baseline, result: result, tolerance: AuditConfig().baselineTolerance)
        XCTAssertFalse(comparison.newFindings.contains { $0.fingerprint == finding.fingerprint }, "the photo was known")
        XCTAssertTrue(comparison.fixed.isEmpty, "and is not reported fixed")
        XCTAssertFalse(comparison.deviceChanged, "the device's former id is the same device")
        // Written again, the baseline is schema 2 and says what the finding was called before.
        let written = String(decoding: Baseline(result).render(), as: UTF8.self)
        XCTAssertTrue(written.contains("\"schemaVersion\": 2"))
        XCTAssertTrue(written.contains("\"formerly\": ["), written)
        let reread = try Baseline.parse(Array(written.utf8), path: "new.json")
        let between = BaselineComparison(old: baseline, new: reread, failOn: .error, tolerance: AuditConfig().baselineTolerance)
        XCTAssertTrue(between.fixed.isEmpty, "`baseline compare` of an old and a new file agrees")
    }
}
