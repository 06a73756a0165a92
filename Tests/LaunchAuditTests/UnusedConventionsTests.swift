import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
import CodeReferences
import Foundation
import LaunchAudit
import TestSupport
import UnusedAudit
import XCTest

/// What keeps an image of a built app alive when no source tree is searched: the names the
/// system reads by convention, Info.plist's spellings, and the strings of the app's code.
final class UnusedConventionsTests: XCTestCase {
    func testConventionsAndTheExecutablesStringsKeepImagesAndNothingElse() throws {
        let png = ImageWriter.png(width: 20, height: 20)
        let tree = MemoryTree([
            "Info.plist": BinaryPlistWriter.build(.dict([("CFBundleExecutable", .string("App")), ("CFBundleIconFiles", .array([.string("icon.png")]))])),
            "App": [0xCF, 0xFA, 0xED, 0xFE, 0] + Array("logo.png".utf8) + [0] + Array("Flowers_".utf8) + [0x48],
            "icon.png": png, "Default-568h@2x.png": png, "Default-Portrait~ipad.png": png, "DefaultBackground.png": png,
            "iTunesArtwork": png, "logo@2x.png": png, "Flowers_1.png": png, "orphan.png": png,
        ])
        let inventory = try BundleReader.inventory(ofTree: tree, name: "App.app", readingCodeStrings: true)
        let assets = UnusedImages.judge(inventory: inventory, code: nil, loaded: nil)
        func kept(_ name: String) -> String? { assets.first { $0.name == name }?.keptBy.first?.text }
        XCTAssertEqual(assets.filter { $0.verdict == .unused }.map(\.name).sorted(), ["DefaultBackground", "Flowers_1", "orphan"])
        // Info.plist names the icon with its extension; the launch image's family shares `Default`.
        XCTAssertEqual(kept("icon"), "named in Info.plist")
        XCTAssertEqual(kept("Default-568h"), "named in Info.plist")
        XCTAssertEqual(kept("Default-Portrait"), "named in Info.plist", "\(assets.map(\.name))")
        XCTAssertEqual(kept("iTunesArtwork")?.hasPrefix("the artwork iTunes"), true)
        // `[UIImage imageNamed:@"logo.png"]` left its literal in the executable.
        XCTAssertEqual(kept("logo"), "a string in the app's code, App")
    }

    func testImagesUnderFoldersTheCodeSearchSkipsAreKept() throws {
        let tree = try TreeWriter()
        defer { tree.remove() }
        let root = tree.root
        try tree.write("App/Tabs.swift", "let tab = UIImage(named: \"tab\")\n")
        try tree.imageSet("App/Assets.xcassets", "tab")
        try tree.imageSet("App/Assets.xcassets", "orphan")
        // A pod's catalog and a JavaScript package's image: their code is never searched.
        try tree.imageSet("Pods/Kit/Assets.xcassets", "kit_close")
        try tree.write("node_modules/nav/assets/back-icon.png", ImageWriter.png(width: 12, height: 21))
        let assets = UnusedImages.judge(
            inventory: try BundleReader.inventory(of: root.path), code: CodeIndex.scan(root: root.path), loaded: nil)
        XCTAssertEqual(assets.filter { $0.verdict == .unused }.map(\.name), ["orphan"], "\(assets.map { ($0.name, $0.verdict) })")
        let kit = try XCTUnwrap(assets.first { $0.name == "kit_close" })
        XCTAssertEqual(kit.keptBy.first?.text, "in `Pods/`, a dependency or build folder whose code --source-root does not search")
        XCTAssertEqual(assets.first { $0.name.hasSuffix("back-icon") }?.keptBy.first?.text.contains("`node_modules/`"), true)
    }
}
