import Foundation
import ImgtraceSupport
import ProjectModel
import TestSupport
import XCTest

/// Target membership of small projects written in code: each way a file gets into a product.
final class ProjectMembershipTests: XCTestCase {
    private var work: URL!

    override func setUpWithError() throws { work = try BinaryRunner.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: work) }

    /// Writes `text` at `path` under the work folder, making its folders.
    private func write(_ text: String, _ path: String) throws {
        let url = work.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }
    func testClassicGroupsVariantGroupsAndFolderReferences() throws {
        var writer = ProjectWriter()
        let logo = writer.file("logo.png")
        let catalog = writer.file("Assets.xcassets", type: "folder.assetcatalog")
        let folder = writer.file("Themes", type: "folder")
        let rooted = writer.file("Shared/badge.png", sourceTree: "SOURCE_ROOT")
        let sdk = writer.file("System/Library/x.png", sourceTree: "SDKROOT")
        let base = writer.file("Base.lproj/Main.storyboard", type: "file.storyboard")
        let variant = writer.add("PBXVariantGroup", [("children", .list([base])), ("name", "Main.storyboard"), ("sourceTree", "<group>")])
        // An organising group without a path: its files resolve against the parent's folder.
        let loose = writer.group(nil, name: "Loose", children: [logo])
        _ = writer.group("App", children: [loose, catalog, folder, variant, writer.group("Resources/..", children: [])], topLevel: true)
        _ = writer.group(nil, name: "Elsewhere", children: [rooted, sdk], topLevel: true)
        writer.target("App", resources: [logo, catalog, folder, rooted, sdk, variant])
        writer.target("AppTests", productType: "com.apple.product-type.bundle.unit-test", resources: [logo])
        let project = try XcodeProject.read(pbxproj: Array(writer.render().utf8), projectFolder: "ios")

        XCTAssertEqual(project.targets(shipping: "ios/App/logo.png"), ["App"], "a test bundle does not ship")
        XCTAssertEqual(project.targets(shipping: "ios/App/Assets.xcassets/a.imageset/a.png"), ["App"])
        XCTAssertEqual(project.targets(shipping: "ios/App/Themes/dark/bg.png"), ["App"])
        XCTAssertEqual(project.targets(shipping: "ios/Shared/badge.png"), ["App"])
        XCTAssertEqual(project.targets(shipping: "ios/App/Base.lproj/Main.storyboard"), ["App"])
        XCTAssertEqual(project.targets(shipping: "ios/App/other.png"), [])
        XCTAssertEqual(project.targets(shipping: "ios/App/Themes.png"), [], "a folder is not a prefix of a sibling's name")
        XCTAssertEqual(project.targets(shipping: "System/Library/x.png"), [], "SDKROOT files are not in the tree")
        XCTAssertEqual(project.targets.map(\.name), ["App", "AppTests"])
    }

    func testSynchronizedFoldersWithExceptionsBothWays() throws {
        var writer = ProjectWriter()
        let app = writer.newID(), widget = writer.newID()
        // In the app, less Info.plist and a folder of previews; the widget opts one catalog in.
        let appOut = writer.exceptionSet(target: app, files: ["Info.plist", "Previews", "/Localized/Legal.strings"])
        let widgetIn = writer.exceptionSet(target: widget, files: ["Shared.xcassets"])
        let folder = writer.synchronizedFolder("App", exceptions: [appOut, widgetIn])
        let widgetFolder = writer.synchronizedFolder("Widget")
        writer.target("App", id: app, synchronized: [folder])
        writer.target("Widget", id: widget, productType: "com.apple.product-type.app-extension", synchronized: [widgetFolder])
        let project = try XcodeProject.read(pbxproj: Array(writer.render().utf8), projectFolder: "")

        XCTAssertEqual(project.targets(shipping: "App/Images/a.png"), ["App"])
        XCTAssertEqual(project.targets(shipping: "App/Info.plist"), [])
        XCTAssertEqual(project.targets(shipping: "App/Previews/p.png"), [])
        XCTAssertEqual(project.targets(shipping: "App/en.lproj/Legal.strings"), [], "a localized exception covers every language")
        XCTAssertEqual(project.targets(shipping: "App/Shared.xcassets/x.imageset/x.png"), ["App", "Widget"])
        XCTAssertEqual(project.targets(shipping: "Widget/w.png"), ["Widget"])
    }

    func testLocalPackageResourcesShipWithTheTargetsThatLinkThem() throws {
        try write(
            """
            // swift-tools-version:5.9
            import PackageDescription
            let package = Package(
                name: "Kit",
                products: [.library(name: "Kit", targets: ["Kit"])],
                targets: [
                    .target(name: "Kit", resources: [.process("Media"), .copy("Fonts/a.ttf")]),
                    .target(name: "Art", path: "Custom/Art"),
                    .testTarget(name: "KitTests", resources: [.copy("Fixtures")]),
                ]
            )
            """, "Packages/Kit/Package.swift")
        var writer = ProjectWriter()
        let product = writer.localPackageProduct("Packages/Kit", product: "Kit")
        writer.target("App", packages: [product])
        writer.target("Other")
        try write(writer.render(), "App.xcodeproj/project.pbxproj")

        let set = try ProjectSet.read(root: work.path)
        XCTAssertEqual(set.projects.map(\.path), ["App.xcodeproj"])
        XCTAssertEqual(set.targets(shipping: "Packages/Kit/Sources/Kit/Media/icon.png"), ["App"])
        XCTAssertEqual(set.targets(shipping: "Packages/Kit/Sources/Kit/Fonts/a.ttf"), ["App"])
        XCTAssertEqual(set.targets(shipping: "Packages/Kit/Sources/Kit/Loose/icon.png"), [], "undeclared loose files are not resources")
        XCTAssertEqual(set.targets(shipping: "Packages/Kit/Custom/Art/Art.xcassets/a.imageset/a.png"), ["App"], "SwiftPM compiles catalogs unasked")
        XCTAssertEqual(set.targets(shipping: "Packages/Kit/Tests/KitTests/Fixtures/f.png"), [], "test targets ship nothing")
    }

    func testAWorkspaceNamesItsProjects() throws {
        for name in ["A", "B"] {
            var writer = ProjectWriter()
            let file = writer.file("\(name).png")
            _ = writer.group(name, children: [file], topLevel: true)
            writer.target(name, resources: [file])
            try write(writer.render(), "\(name)/\(name).xcodeproj/project.pbxproj")
        }
        let workspace = work.appendingPathComponent("All.xcworkspace")
        try write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:B/B.xcodeproj"></FileRef>
            </Workspace>
            """, "All.xcworkspace/contents.xcworkspacedata")
        XCTAssertEqual(try ProjectSet.read(root: work.path).shippingTargets, ["A", "B"])
        let named = try ProjectSet.read(root: work.path, given: [workspace.path])
        XCTAssertEqual(named.projects.map(\.path), ["B/B.xcodeproj"])
        XCTAssertEqual(named.targets(shipping: "B/B/B.png"), ["B"])
    }

    /// A project given is read or the run stops naming it; one found in the tree that does not
    /// read (a fixture, a template) is a warning naming it, and the projects beside it are judged.
    func testAMalformedProjectIsOneErrorWhenGivenAndAWarningWhenFound() throws {
        try write("// !$*UTF8*$!\n{ objects = { A = { isa = PBXGroup; }; }\n", "Fixtures/Broken.xcodeproj/project.pbxproj")
        XCTAssertThrowsError(try ProjectSet.read(root: work.path, given: [work.path + "/Fixtures/Broken.xcodeproj"])) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.hasSuffix("Broken.xcodeproj/project.pbxproj: offset 55: expected `;` after a dictionary entry, found the end"), text)
        }
        var writer = ProjectWriter()
        let file = writer.file("a.png")
        _ = writer.group("App", children: [file], topLevel: true)
        writer.target("App", resources: [file])
        try write(writer.render(), "App.xcodeproj/project.pbxproj")
        let set = try ProjectSet.read(root: work.path)
        XCTAssertEqual(set.projects.map(\.path), ["App.xcodeproj"])
        XCTAssertEqual(set.targets(shipping: "App/a.png"), ["App"])
        XCTAssertEqual(set.warnings.count, 1)
        XCTAssertTrue(
            set.warnings[0].contains("Fixtures/Broken.xcodeproj/project.pbxproj: offset 55: expected `;`")
                && set.warnings[0].hasSuffix("not a project Xcode can open; the images it may ship are judged without it"), set.warnings[0])
    }
}
