import ProjectModel
import TestSupport
import XCTest

/// The real Home Assistant project: its targets and what each ships, against the MANIFEST.
final class CorpusProjectTests: XCTestCase {
    func testHomeAssistantShipsItsCatalogsAndNotItsTestsOrMetadata() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let root = corpus.appendingPathComponent("sources/home-assistant-ios-repo")
        let set = try ProjectSet.read(root: root.path)
        XCTAssertEqual(set.projects.map(\.path), ["HomeAssistant.xcodeproj"])
        let project = set.projects[0].project
        XCTAssertEqual(project.targets.count, 19)
        XCTAssertEqual(project.targets.filter { !$0.ships }.map(\.name).sorted(), ["HomeAssistant-WatchAppTests", "Tests-App", "Tests-Shared", "Tests-UI"])
        XCTAssertEqual(project.localPackages.count, 9)
        // The app's catalog is in its synchronized `Resources` folder; the widgets extension
        // opts it in through an exception set of its own on that folder.
        XCTAssertEqual(
            set.targets(shipping: "Sources/App/Resources/Assets.xcassets/watch-frame.imageset/watch-frame.png"), ["App", "Extensions-Widgets"])
        // `Info.plist` is an exception of the app's folder: it is not copied as a resource.
        XCTAssertEqual(set.targets(shipping: "Sources/App/Resources/Info.plist"), [])
        // Snapshot references belong to test bundles; the icon sources and App Store images to none.
        XCTAssertEqual(set.targets(shipping: "Tests/Shared/DesignSystem/Components/__Snapshots__/HATextField.test/testSnapshot.dark.png"), [])
        XCTAssertEqual(set.targets(shipping: "fastlane/metadata/app_icon.jpg"), [])
        XCTAssertEqual(set.targets(shipping: "icons/OldIcons/dev_1024.png"), [])
    }
}
