import Foundation
import ImgtraceSupport
import LaunchAudit
import ProjectModel
import TestSupport
import UnusedAudit
import XCTest

/// `unused --fix` on trees that once gave patches `git apply` rejected whole, or deleted
/// through a link: each patch applies, or the run refuses in one line naming why.
final class UnusedFixSafetyTests: XCTestCase {
    private var tree: TreeWriter!
    private var root: URL { tree.root }

    override func setUpWithError() throws { tree = try TreeWriter() }
    override func tearDownWithError() throws { tree.remove() }

    /// An app target whose resources phase copies `Images/old.png` and the catalog; `kept`
    /// named in code, `orphan` (a set) and `old.png` (a loose file) unused.
    private func makeApp(catalogComment: [UInt8] = Array("Assets.xcassets".utf8)) throws {
        var writer = ProjectWriter()
        let loose = writer.file("Images/old.png")
        let catalog = writer.file("Assets.xcassets", type: "folder.assetcatalog")
        _ = writer.group("App", children: [loose, catalog], topLevel: true)
        writer.target("App", resources: [loose, catalog])
        var project = Array(writer.render().utf8)
        // Xcode keeps a project's comments as they were typed; an old one may be Latin-1.
        if let range = project.firstRange(of: Array("/* Assets.xcassets */".utf8)) {
            project.replaceSubrange(range, with: Array("/* ".utf8) + catalogComment + Array(" */".utf8))
        }
        try tree.write("App.xcodeproj/project.pbxproj", project)
        try tree.imageSet("App/Assets.xcassets", "kept")
        try tree.imageSet("App/Assets.xcassets", "orphan")
        try tree.write("App/Images/old.png", ImageWriter.png(width: 20, height: 20))
        try tree.write("App/Home.swift", "import UIKit\nlet kept = UIImage(named: \"kept\")\n")
    }

    private func patch(projects: [String] = []) throws -> UnusedFix.Patch {
        var request = AuditRequest(logs: [], bundles: [root.path])
        request.sourceRoot = root.path
        request.projects = projects
        return try UnusedFix.patch(for: try AuditSession.unused(request).result.summary, treeRoot: root.path)
    }

    /// `git apply --check` of `patch` in the tree: its status and what it said.
    private func gitCheck(_ patch: UnusedFix.Patch) throws -> (status: Int32, said: String) {
        guard let git = ["/usr/bin/git", "/bin/git"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("git is needed to check the patch")
        }
        let file = root.appendingPathComponent("../\(root.lastPathComponent).patch").standardizedFileURL
        try Data(patch.bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try BinaryRunner.run(["apply", "--check", file.path], in: root, program: URL(fileURLWithPath: git))
        return (result.status, result.stderr)
    }

    /// The same project given as itself and through a workspace that names it twice: one diff.
    func testAProjectReachedTwiceIsDiffedOnce() throws {
        try makeApp()
        try tree.write(
            "App.xcworkspace/contents.xcworkspacedata",
            #"<Workspace version = "1.0"><FileRef location = "group:App.xcodeproj"></FileRef><FileRef location = "container:App.xcodeproj"/></Workspace>"#)
        let patch = try patch(projects: [root.path + "/App.xcworkspace", root.path + "/App.xcodeproj"])
        XCTAssertEqual(patch.editedProjects, ["App.xcodeproj"])
        XCTAssertEqual(patch.images, ["old", "orphan"])
        let text = String(decoding: patch.bytes, as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "diff --git a/App.xcodeproj/project.pbxproj").count, 2, text)
        let check = try gitCheck(patch)
        XCTAssertEqual(check.status, 0, check.said)
    }

    /// A Latin-1 byte in the project's comments stays that byte in the diff's context.
    func testALatin1CommentKeepsItsByteInTheContext() throws {
        try makeApp(catalogComment: Array("Catalogue cr".utf8) + [0xE9] + Array("e".utf8))
        let patch = try patch()
        XCTAssertEqual(patch.editedProjects, ["App.xcodeproj"])
        XCTAssertNotNil(patch.bytes.firstRange(of: Array(" Catalogue cr".utf8) + [0xE9]), "the byte itself, not U+FFFD, in the context")
        let check = try gitCheck(patch)
        XCTAssertEqual(check.status, 0, check.said)
    }

    /// A catalog reached through a linked folder is not deleted through the link (git refuses
    /// "beyond a symbolic link"): one line names the link. A loose image that is itself a link is
    /// deleted as the link.
    func testNothingIsDeletedThroughALink() throws {
        try makeApp()
        try tree.imageSet("Design/Shared.xcassets", "faded")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/App/Shared.xcassets", withDestinationPath: "../Design/Shared.xcassets")
        var writer = ProjectWriter()
        let catalog = writer.file("Shared.xcassets", type: "folder.assetcatalog")
        let loose = writer.file("Images/old.png")
        let linked = writer.file("Images/alias.png")
        _ = writer.group("App", children: [catalog, loose, linked], topLevel: true)
        writer.target("App", resources: [catalog, loose, linked])
        try tree.write("App.xcodeproj/project.pbxproj", writer.render())
        XCTAssertThrowsError(try patch()) { error in
            XCTAssertEqual(
                "\(error)",
                "\(root.path): --fix would delete App/Shared.xcassets/faded.imageset/Contents.json through the symbolic link App/Shared.xcassets: delete it where the link points, or give that tree as --bundle"
            )
        }
        try FileManager.default.removeItem(atPath: root.path + "/App/Shared.xcassets")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/App/Images/alias.png", withDestinationPath: "old.png")
        let patch = try patch()
        XCTAssertTrue(patch.deletedFiles.contains("App/Images/alias.png"), "\(patch.deletedFiles)")
        XCTAssertNotNil(String(decoding: patch.bytes, as: UTF8.self).range(of: "diff --git a/App/Images/alias.png b/App/Images/alias.png\ndeleted file mode 120000\n"))
        let check = try gitCheck(patch)
        XCTAssertEqual(check.status, 0, check.said)
    }

    /// A set of 2,000 files is one deletion of 2,000 files (its folder walked once, not once a
    /// file; the time is in scripts/bench-hostile.sh).
    func testALargeSetIsDeletedWhole() throws {
        try makeApp()
        let images = (0..<2_000).map { #"{"idiom":"universal","filename":"p\#($0).png"}"# }.joined(separator: ",")
        try tree.write("App/Assets.xcassets/many.imageset/Contents.json", #"{"images":[\#(images)],"info":{"version":1}}"#)
        let png = ImageWriter.png(width: 2, height: 2)
        for index in 0..<2_000 { try tree.write("App/Assets.xcassets/many.imageset/p\(index).png", png) }
        let patch = try patch()
        XCTAssertEqual(patch.deletedFiles.filter { $0.hasPrefix("App/Assets.xcassets/many.imageset/") }.count, 2_001)
        XCTAssertTrue(patch.images.contains("many"))
    }
}
