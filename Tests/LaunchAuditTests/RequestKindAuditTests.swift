import AuditModel
import AuditPolicy
import AuditRules
import AuditTestSupport
@testable import LaunchAudit
import LaunchTrace
import UnusedAudit
import XCTest

/// Each kind of request resolves and is judged as what it is: SF Symbols are system artwork,
/// data assets are not images, CoreUI lookups search asset catalogs only, trait changes and nib
/// repeats get their own wording (issue: every image request counted once, resolution by kind).
final class RequestKindAuditTests: XCTestCase {
    private func audit(_ images: [RuleExample.Image], _ loads: [RuleExample.Load]) -> AuditResult {
        RuleExample("", images: images, loads: loads, fires: false).audit()
    }

    func testSymbolsAreSystemArtworkAndDataIsApartFromImageFigures() {
        let result = audit(
            [.init("logo@3x.png", 300, 90)],
            [.request("star.fill", .symbol), .request("star.fill", .symbol), .request("onboarding", .data), .named("logo")])
        let launch = result.metrics.launch
        XCTAssertEqual(launch.loads, 3, "two symbol loads and the logo; the data asset is in no image figure")
        XCTAssertEqual(launch.names, 2)
        XCTAssertEqual(launch.symbols, 1)
        XCTAssertEqual(launch.dataLoads, 1)
        XCTAssertEqual(launch.missing, 0)
        XCTAssertEqual(launch.images, 1)
        XCTAssertFalse(result.findings.contains { $0.rule == MissingImageRule.id }, "\(result.findings.map(\.message))")
        XCTAssertFalse(result.findings.contains { $0.rule == RepeatedLoadRule.id }, "an SF Symbol's repeat is not the app's image")
    }

    func testCoreUILookupsSearchAssetCatalogsOnly() throws {
        let loose = audit([.init("hero@3x.png", 300, 90)], [.request("hero", .swiftui)])
        let missing = try XCTUnwrap(loose.findings.first { $0.rule == MissingImageRule.id })
        XCTAssertTrue(missing.message.text.contains("asset catalogs only"), missing.message.text)
        XCTAssertTrue(missing.fix.contains("asset catalog"), missing.fix)
        let both = audit([], [.request("hero", .swiftui), .named("hero")]).findings.filter { $0.rule == MissingImageRule.id }
        XCTAssertEqual(Set(both.map(\.fingerprint)).count, 2, "asked by code and by SwiftUI: two findings a baseline tells apart")
        let codeFindsIt = audit([.init("hero@3x.png", 300, 90)], [.named("hero")])
        XCTAssertFalse(codeFindsIt.findings.contains { $0.rule == MissingImageRule.id }, "UIImage(named:) falls back to loose files")
        let catalog = audit([.init("Assets.car#hero@3x", 300, 90)], [.request("hero", .swiftui)])
        XCTAssertEqual(catalog.metrics.launch.images, 1)
    }

    func testTraitChangesAndNibRepeatsHaveTheirOwnWords() throws {
        let trait = audit([.init("Assets.car#header@3x", 300, 90)], [.named("header"), .request("header", .trait), .request("header", .trait)])
        let decode = try XCTUnwrap(trait.findings.first { $0.rule == RepeatedLoadRule.id })
        XCTAssertTrue(decode.message.text.contains("decoded again 2 times on trait changes"), decode.message.text)
        XCTAssertFalse(decode.fix.contains("Look the image up once"), decode.fix)
        XCTAssertEqual(trait.metrics.launch.loads, 3, "a re-decode is a load")

        let nib = audit(
            [.init("Assets.car#Placeholder@3x", 60, 60)],
            [.request("Placeholder", .nib), .request("Placeholder", .nib), .request("Placeholder", .nib), .named("Placeholder")])
        let cells = try XCTUnwrap(nib.findings.first { $0.rule == RepeatedLoadRule.id })
        XCTAssertTrue(cells.message.text.contains("by nibs or storyboards"), cells.message.text)
        XCTAssertTrue(cells.fix.contains("dequeue reusable cells"), cells.fix)

        let code = audit([.init("Assets.car#Placeholder@3x", 60, 60)], [.named("Placeholder"), .named("Placeholder")])
        XCTAssertTrue(try XCTUnwrap(code.findings.first { $0.rule == RepeatedLoadRule.id }).fix.contains("Look the image up once"))
    }
}
