import Foundation
import TestSupport
import XCTest

/// `imgtrace unused` on a real app's source tree: every verdict there checked by hand.
final class UnusedCommandTests: XCTestCase {
    func testHomeAssistantHasExactlyItsTwoUnreferencedSets() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let tree = corpus.appendingPathComponent("sources/home-assistant-ios").path
        // One run (a debug build parses the 1,622 Swift files in about 30 s): --fail-on warning fails on the two.
        let result = try BinaryRunner.run(["unused", "--bundle", tree, "--source-root", tree, "--format", "json", "--all", "--fail-on", "warning"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let images = try XCTUnwrap(doc["images"] as? [[String: Any]])
        let unused = images.filter { $0["verdict"] as? String == "unused-image" }.compactMap { $0["name"] as? String }
        // The corpus's MANIFEST: no reference of any kind in the whole repository, the Xcode project included.
        XCTAssertEqual(unused.sorted(), ["ohf-launch", "watch-frame"])
        func keptBy(_ name: String) -> [String] { images.first { $0["name"] as? String == name }?["keptBy"] as? [String] ?? [] }
        // What a plain string search misses, and what keeps each here.
        XCTAssertTrue(keptBy("icon-red").contains { $0.hasPrefix("pattern `icon-*` built at run time") }, "\(keptBy("icon-red"))")
        XCTAssertTrue(keptBy("Onboarding/World").contains { $0.hasPrefix("symbol `.world`") }, "\(keptBy("Onboarding/World"))")
        XCTAssertTrue(keptBy("AppIcon").first?.hasPrefix("the app's icon") == true)
        XCTAssertEqual(doc["bytesToSave"] as? Int, images.filter { $0["verdict"] as? String == "unused-image" }.reduce(0) { $0 + ($1["bytesOnDisk"] as? Int ?? 0) })
        XCTAssertEqual(doc["bytesToSave"] as? Int, 341_797)
    }

    func testALaunchTellsDynamicOnlyAndNeverLoaded() throws {
        let root = Corpus.packageRoot
        let result = try BinaryRunner.run(
            ["unused", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/SampleSource", "Examples/launch.log", "--format", "json"], in: root)
        XCTAssertEqual(result.status, 0, result.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let images = try XCTUnwrap(doc["images"] as? [[String: Any]])
        func verdict(_ name: String) -> String? { images.first { $0["name"] as? String == name }?["verdict"] as? String }
        // onboarding_step1 is loaded by its path, a name the Objective-C builds with a format: only
        // the launch shows it is used. hero_banner.jpg is named by the Swift and loaded.
        XCTAssertEqual(verdict("onboarding_step1"), "dynamic-only")
        XCTAssertEqual(verdict("hero_banner.jpg"), "used")
        let hero = images.first { $0["name"] as? String == "hero_banner.jpg" }?["keptBy"] as? [String] ?? []
        XCTAssertEqual(hero.first, "UIImage(named:) at SampleApp/FeedViewController.swift:9:37")
        let text = try BinaryRunner.run(["unused", "--bundle", "Examples/SampleApp.app", "Examples/launch.log"], in: root)
        XCTAssertTrue(text.stdoutText.contains("code     none searched (--source-root)"), text.stdoutText)
        XCTAssertEqual(doc["launches"] as? Int, 1)
        let bad = try BinaryRunner.run(["unused", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/launch.log"], in: root)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "imgtrace: error: Examples/launch.log: --source-root is not a folder\n")
    }
}
