import Foundation
import ImgtraceSupport
import ProjectModel
import TestSupport
import XCTest

/// What a project costs follows what it declares, and what a workspace or manifest says is read
/// as Xcode and SwiftPM read it, with hostile ones bounded.
final class ProjectScaleTests: XCTestCase {
    private var tree: TreeWriter!
    private var work: URL { tree.root }

    override func setUpWithError() throws { tree = try TreeWriter() }
    override func tearDownWithError() throws { tree.remove() }

    private func write(_ text: String, _ path: String) throws { try tree.write(path, text) }

    /// 6,000 targets sharing one resources phase of 6,000 files (a 1.4 MB project that once cost
    /// targets × files in time and memory): the phase is one set, and asking which targets ship a
    /// file gives all 6,000 names as one shared list. (Its time and memory: scripts/bench-hostile.sh.)
    func testTargetsSharingAPhaseShareOneSet() throws {
        var writer = ProjectWriter()
        let files = (0..<6_000).map { writer.file("f\($0).png") }
        _ = writer.group("App", children: files, topLevel: true)
        let phase = writer.add("PBXResourcesBuildPhase", [("files", .list(files.map { writer.add("PBXBuildFile", [("fileRef", .text($0))]) }))])
        let targets = (0..<6_000).map { index in
            writer.add(
                "PBXNativeTarget",
                [("buildPhases", .list([phase])), ("name", .text("T\(index)")), ("productType", "com.apple.product-type.application")])
        }
        writer.targets = targets
        let project = try XcodeProject.read(pbxproj: Array(writer.render().utf8), projectFolder: "")
        XCTAssertEqual(project.targets.count, 6_000)
        XCTAssertEqual(project.pathSets.count, 1, "one phase, one set, whatever the number of targets")
        XCTAssertEqual(project.pathSets[0].paths.count, 6_000)
        XCTAssertEqual(Set(project.targets.map(\.pathSets)), [[0]])
        let shipping = project.targets(shipping: "App/f5999.png")
        XCTAssertEqual(shipping.count, 6_000)
        XCTAssertEqual(shipping.first, "T0")
        XCTAssertEqual(project.targets(shipping: "App/other.png"), [])
        XCTAssertTrue(project.copies("App/f0.png", target: project.targets[17]))
    }

    /// A manifest nested 30 brackets deep (minutes of parsing once) and one of 4 MiB (1.2 GB
    /// once) are not parsed: a warning names each, and its package's files are taken as shipped.
    func testHostileManifestsAreBoundedAndSaidSo() throws {
        let nested =
            "import PackageDescription\nlet package = Package(name: \"Kit\", targets: [.target(name: \"Kit\", resources: "
            + String(repeating: "[", count: 30) + String(repeating: "]", count: 30) + ")])\n"
        XCTAssertNil(PackageManifest.resources(source: Array(nested.utf8), packageFolder: "Kit"))
        let padding = String(repeating: "// \(String(repeating: "x", count: 60))\n", count: (4 << 20) / 64 - 16)
        let large = "import PackageDescription\n" + padding + "let package = Package(name: \"Big\", targets: [.target(name: \"Big\")])\n"
        XCTAssertGreaterThan(large.utf8.count, PackageManifest.maxParsedBytes)
        XCTAssertNil(PackageManifest.resources(source: Array(large.utf8), packageFolder: "Big"))

        try write(nested, "Packages/Kit/Package.swift")
        try write(large, "Packages/Big/Package.swift")
        var writer = ProjectWriter()
        let kit = writer.localPackageProduct("Packages/Kit", product: "Kit")
        let big = writer.localPackageProduct("Packages/Big", product: "Big")
        writer.target("App", packages: [kit, big])
        try write(writer.render(), "App.xcodeproj/project.pbxproj")
        let set = try ProjectSet.read(root: work.path)
        XCTAssertEqual(set.targets(shipping: "Packages/Kit/Sources/Kit/icon.png"), ["App"])
        XCTAssertEqual(set.targets(shipping: "Packages/Big/Sources/Big/icon.png"), ["App"])
        XCTAssertEqual(
            set.warnings.sorted(),
            [
                "`Packages/Big/Package.swift`: too large or too deeply nested to parse: every file of its package is taken as shipped",
                "`Packages/Kit/Package.swift`: too large or too deeply nested to parse: every file of its package is taken as shipped",
            ])
        // A plain manifest still parses.
        let plain = "import PackageDescription\nlet package = Package(name: \"P\", targets: [.target(name: \"P\", resources: [.process(\"Media\")])])\n"
        XCTAssertEqual(PackageManifest.resources(source: Array(plain.utf8), packageFolder: "P")?.resources, ["P/Sources/P/Media"])
    }

    /// A workspace's groups place what they hold: `group:` under the enclosing group, `container:`
    /// under the workspace's folder, nested groups, `absolute:`; a project named twice (or named
    /// by a workspace and given itself) is read once.
    func testWorkspaceGroupsPlaceTheirProjectsAndAProjectIsReadOnce() throws {
        for (folder, name) in [("Modules/Core", "Core"), ("Modules/Features/Chat", "Chat"), ("Apps", "Main")] {
            var writer = ProjectWriter()
            let file = writer.file("\(name).png")
            _ = writer.group(name, children: [file], topLevel: true)
            writer.target(name, resources: [file])
            try write(writer.render(), "\(folder)/\(name).xcodeproj/project.pbxproj")
        }
        // A decoy where a location ignoring its group would land.
        var decoy = ProjectWriter()
        decoy.target("Decoy")
        try write(decoy.render(), "Core/Core.xcodeproj/project.pbxproj")
        let absolute = work.path + "/Apps/Main.xcodeproj"
        try write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace
               version = "1.0">
               <Group
                  location = "container:Modules"
                  name = "Modules">
                  <FileRef
                     location = "group:Core/Core.xcodeproj">
                  </FileRef>
                  <Group location = "group:Features" name = "Features">
                     <FileRef location = "group:Chat/Chat.xcodeproj"/>
                  </Group>
               </Group>
               <FileRef location = "absolute:\(absolute)"></FileRef>
               <FileRef location = "container:Apps/Main.xcodeproj"></FileRef>
            </Workspace>
            """, "All.xcworkspace/contents.xcworkspacedata")
        let set = try ProjectSet.read(root: work.path, given: [work.path + "/All.xcworkspace", absolute])
        XCTAssertEqual(set.projects.map(\.path), ["Apps/Main.xcodeproj", "Modules/Core/Core.xcodeproj", "Modules/Features/Chat/Chat.xcodeproj"])
        XCTAssertEqual(set.shippingTargets, ["Chat", "Core", "Main"])
        XCTAssertEqual(set.targets(shipping: "Modules/Features/Chat/Chat/Chat.png"), ["Chat"])
    }
}
