import AuditModel
import AuditPolicy
import AuditRules
import Foundation
import ImgtraceSupport
import LaunchAudit
import ProjectModel
import TestSupport
import UnusedAudit
import XCTest

/// `unused` on a source tree with its Xcode project: what no target ships is apart, each verdict
/// names its targets, and every reference a source tree holds keeps what it names.
final class UnusedProjectTests: XCTestCase {
    private var tree: TreeWriter!
    private var root: URL { tree.root }

    override func setUpWithError() throws {
        tree = try TreeWriter()
    }

    override func tearDownWithError() throws {
        tree.remove()
    }

    private func write(_ path: String, _ bytes: [UInt8]) throws { try tree.write(path, bytes) }
    private func write(_ path: String, _ text: String) throws { try tree.write(path, text) }
    private func imageSet(_ folder: String, _ name: String, width: UInt32 = 20) throws { try tree.imageSet(folder, name, width: width) }

    /// An app (a synchronized folder, less its previews), a widget (classic group), a test bundle
    /// and images that ship in nothing, with every kind of reference a source tree holds.
    private func makeTree() throws {
        var writer = ProjectWriter()
        let app = writer.newID()
        let appFolder = writer.synchronizedFolder("App", exceptions: [writer.exceptionSet(target: app, files: ["Previews"])])
        let widgetImage = writer.file("w.png")
        _ = writer.group("Widget", children: [widgetImage], topLevel: true)
        let reference = writer.file("ref.png")
        _ = writer.group("Tests", children: [reference], topLevel: true)
        writer.target("App", id: app, synchronized: [appFolder])
        writer.target("Widget", productType: "com.apple.product-type.app-extension", resources: [widgetImage])
        writer.target("AppTests", productType: "com.apple.product-type.bundle.unit-test", resources: [reference])
        try write("App.xcodeproj/project.pbxproj", writer.render())

        try imageSet("App/Assets.xcassets", "hero")
        try imageSet("App/Assets.xcassets", "orphan", width: 40)
        try write("App/Assets.xcassets/Onboarding/Contents.json", #"{"info":{"version":1,"author":"xcode"},"properties":{"provides-namespace":true}}"#)
        try imageSet("App/Assets.xcassets/Onboarding", "World")
        try imageSet("App/Assets.xcassets/Onboarding", "Gear")
        try write("App/Images/tab_home.png", ImageWriter.png(width: 20, height: 20))
        try write("App/Images/onboarding_step1@2x.png", ImageWriter.png(width: 20, height: 20))
        try write("App/Images/badge_7.png", ImageWriter.png(width: 20, height: 20))
        try write("App/Previews/preview.png", ImageWriter.png(width: 20, height: 20))
        try write("App/AppIcon.icon/icon.json", #"{"groups":[]}"#)
        try write("App/AppIcon.icon/Assets/glyph.png", ImageWriter.png(width: 64, height: 64))
        try write("Widget/w.png", ImageWriter.png(width: 20, height: 20))
        try write("Tests/ref.png", ImageWriter.png(width: 20, height: 20))
        try write("icons/source.png", ImageWriter.png(width: 64, height: 64))
        try write(
            "App/Home.swift",
            """
            import SwiftUI
            let hero = Image("hero")
            let world = Image(.Onboarding.world)
            func symbol() -> SFSymbol { .gear }
            func badge(_ n: Int) -> UIImage? { UIImage(named: "badge_\\(n)@2x.png") }
            """)
        try write("App/Onboarding.m", #"UIImage *step(long n) { return [UIImage imageNamed:[NSString stringWithFormat:@"onboarding_step%ld@3x.png", n]]; }"#)
        try write(
            "App/Home.xib",
            #"<document><objects><imageView id="a1" image="tab_home"/></objects><resources><image name="tab_home" width="20" height="20"/></resources></document>"#)
    }

    private func run(config: String? = nil) throws -> AuditOutcome<UnusedResult> {
        var request = AuditRequest(logs: [], bundles: [root.path])
        request.sourceRoot = root.path
        if let config {
            let path = root.appendingPathComponent("imgtrace.yml")
            try config.write(to: path, atomically: true, encoding: .utf8)
            request.configPath = path.path
        }
        return try AuditSession.unused(request)
    }

    func testWhatNoTargetShipsIsApartAndEachVerdictNamesItsTargets() throws {
        try makeTree()
        let unused = try run().result.summary
        let verdicts = Dictionary(uniqueKeysWithValues: unused.assets.map { ($0.name, $0.verdict) })
        XCTAssertEqual(unused.assets.filter { $0.verdict == .unused }.map(\.name).sorted(), ["Onboarding/Gear", "orphan", "w"], "\(verdicts)")
        // The xib keeps its image, the printf pattern with a length modifier and a scale keeps
        // the step, the Swift pattern with a scale and extension keeps the badge, the namespaced
        // symbol keeps World; `.gear`, an SF Symbol, keeps nothing.
        for name in ["tab_home", "onboarding_step1", "badge_7", "Onboarding/World", "hero"] { XCTAssertEqual(verdicts[name], .used, name) }
        XCTAssertEqual(
            unused.assets.first { $0.name == "glyph" }?.keptBy.first?.text,
            "a layer of `AppIcon.icon`, the Icon Composer document the build makes the app icon from")
        XCTAssertEqual(unused.assets.first { $0.name == "orphan" }?.targets, ["App"])
        XCTAssertEqual(unused.assets.first { $0.name == "w" }?.targets, ["Widget"])
        XCTAssertEqual(
            unused.notShipped?.flatMap(\.paths).sorted(), ["App/Previews/preview.png", "Tests/ref.png", "icons/source.png"])
        XCTAssertEqual(unused.projects, ["App.xcodeproj"])
        // Bytes to save count what ships only.
        XCTAssertEqual(unused.bytesToSave, unused.assets.filter { $0.verdict == .unused }.map(\.bytesOnDisk).reduce(0, +))
        XCTAssertFalse(unused.assets.contains { $0.paths.contains("icons/source.png") })
    }

    func testTheFixPatchDeletesWhatIsUnusedAndGitAppliesIt() throws {
        try makeTree()
        let before = try ProjectSet.read(root: root.path)
        let patch = try UnusedFix.patch(for: try run().result.summary, treeRoot: root.path)
        XCTAssertEqual(patch.images, ["Onboarding/Gear", "orphan", "w"])
        XCTAssertEqual(
            patch.deletedFiles,
            [
                "App/Assets.xcassets/Onboarding/Gear.imageset/Contents.json", "App/Assets.xcassets/Onboarding/Gear.imageset/Gear.png",
                "App/Assets.xcassets/orphan.imageset/Contents.json", "App/Assets.xcassets/orphan.imageset/orphan.png", "Widget/w.png",
            ])
        XCTAssertEqual(patch.editedProjects, ["App.xcodeproj"], "the widget's file reference and build file go")
        let git = ["/usr/bin/git", "/bin/git"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let git else { throw XCTSkip("git is needed to apply the patch") }
        let patchFile = root.appendingPathComponent("unused.patch")
        try Data(patch.bytes).write(to: patchFile)
        func apply(_ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: git)
            process.arguments = ["apply"] + arguments + [patchFile.path]
            process.currentDirectoryURL = root
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        XCTAssertEqual(try apply(["--check"]), 0, String(decoding: patch.bytes, as: UTF8.self))
        XCTAssertEqual(try apply([]), 0)
        try FileManager.default.removeItem(at: patchFile)
        // The patched project reads back with the same targets, less the deleted file.
        let after = try ProjectSet.read(root: root.path)
        XCTAssertEqual(after.projects[0].project.targets.map(\.name), before.projects[0].project.targets.map(\.name))
        XCTAssertEqual(before.targets(shipping: "Widget/w.png"), ["Widget"])
        XCTAssertEqual(after.targets(shipping: "Widget/w.png"), [])
        XCTAssertEqual(after.targets(shipping: "App/Assets.xcassets/hero.imageset/hero.png"), ["App"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("App/Assets.xcassets/orphan.imageset").path + "/orphan.png"))
        // A second run finds nothing more to delete.
        XCTAssertEqual(try run().result.summary.assets.filter { $0.verdict == .unused }.map(\.name), [])
    }

    /// Designers' originals of an unused set's name elsewhere in the tree, in no target: the
    /// verdict is the shipped set's, and so is the deletion; the namesakes stay.
    func testTheFixDeletesOnlyWhatATargetShips() throws {
        try makeTree()
        try imageSet("Design/Originals.xcassets", "orphan", width: 400)
        try write("Design/Marketing/orphan.png", ImageWriter.png(width: 400, height: 400))
        let summary = try run().result.summary
        let orphan = try XCTUnwrap(summary.assets.first { $0.name == "orphan" })
        XCTAssertEqual(orphan.verdict, .unused)
        XCTAssertFalse(orphan.paths.contains { $0.hasPrefix("Design/") }, "\(orphan.paths)")
        let patch = try UnusedFix.patch(for: summary, treeRoot: root.path)
        XCTAssertTrue(patch.deletedFiles.contains("App/Assets.xcassets/orphan.imageset/orphan.png"))
        XCTAssertFalse(patch.deletedFiles.contains { $0.hasPrefix("Design/") }, "\(patch.deletedFiles)")
        XCTAssertEqual(
            UnusedFix.summary(patch, path: "fix.patch"),
            "fix.patch: 3 images, 5 files, \(kibibytes(patch.deletedBytes)) and 1 project edited; review it, then `git apply fix.patch`")
    }

    /// Swift's `String(format:)` builds a name as `stringWithFormat:` does: a pattern that keeps
    /// what it matches (`step_%02ld` keeps `step_01`), with any conversion and length modifier;
    /// a String Catalog's values are searched as `.strings` values are.
    func testSwiftFormatStringsArePatterns() throws {
        try makeTree()
        try write("App/Images/step_01.png", ImageWriter.png(width: 20, height: 20))
        try write("App/Images/card_3_back.png", ImageWriter.png(width: 20, height: 20))
        try write("App/Images/intro_9.png", ImageWriter.png(width: 20, height: 20))
        try write(
            "App/Steps.swift",
            """
            import UIKit
            func step(_ n: Int) -> UIImage? { UIImage(named: String(format: "step_%02ld", n)) }
            func card(_ n: Int, _ side: String) -> UIImage? { UIImage(named: NSString(format: "card_%zd_%@", n, side) as String) }
            func intro(_ n: Int) -> String { String.localizedStringWithFormat("intro_%d", n) }
            """)
        // A String Catalog's value names an image too (weakly: a value the code may read).
        try write("App/Images/globe_icon.png", ImageWriter.png(width: 20, height: 20))
        try write(
            "App/Localizable.xcstrings",
            #"{"sourceLanguage": "en", "strings": {"intro.icon": {"localizations": {"fr": {"stringUnit": {"value": "globe_icon"}}}}}}"#)
        let verdicts = Dictionary(uniqueKeysWithValues: try run().result.summary.assets.map { ($0.name, $0.verdict) })
        for name in ["step_01", "card_3_back", "intro_9"] { XCTAssertEqual(verdicts[name], .used, name) }
        XCTAssertNotEqual(verdicts["globe_icon"], .unused, "a String Catalog value keeps it")
        XCTAssertNotNil(verdicts["globe_icon"])
    }

    /// A built app is no tree to patch: its compiled catalog holds every catalog image.
    func testTheFixRefusesABuiltApp() throws {
        let app = root.appendingPathComponent("Built.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let summary = UnusedSummary(assets: [], swiftFiles: 1, objcFiles: 0, dataFiles: 0, references: 0)
        XCTAssertThrowsError(try UnusedFix.patch(for: summary, treeRoot: app.path)) { error in
            XCTAssertTrue("\(error)".contains("--fix patches a source tree, not a built app"), "\(error)")
        }
    }

    func testFixNeedsTheCodeSearched() throws {
        try makeTree()
        var request = AuditRequest(logs: [], bundles: [root.path])
        request.sourceRoot = nil
        let result = try AuditSession.unused(request).result
        XCTAssertThrowsError(try UnusedFix.patch(for: result.summary, treeRoot: root.path)) { error in
            XCTAssertTrue("\(error)".contains("--fix needs --source-root"), "\(error)")
        }
    }

    func testIgnoredImagesLeaveEveryFigure() throws {
        try makeTree()
        let outcome = try run(config: "ignore:\n  globs: [\"Onboarding/*\"]\n  names: [orphan]\n")
        let unused = outcome.result.summary
        XCTAssertEqual(outcome.result.findings.map(\.subject), ["w"])
        XCTAssertEqual(unused.assets.filter { $0.verdict == .unused }.map(\.name), ["w"])
        XCTAssertEqual(unused.ignored, 2)
        XCTAssertEqual(unused.bytesToSave, unused.assets.first { $0.name == "w" }?.bytesOnDisk)
    }

    func testSeveralBundlesAreAllRead() throws {
        try imageSet("One.xcassets", "first")
        try imageSet("Two.xcassets", "second")
        var request = AuditRequest(logs: [], bundles: [root.appendingPathComponent("One.xcassets").path, root.appendingPathComponent("Two.xcassets").path])
        request.sourceRoot = root.path
        try write("App.swift", "let a = UIImage(named: \"second\")\n")
        let assets = try AuditSession.unused(request).result.summary.assets
        XCTAssertEqual(assets.map { "\($0.name) \($0.verdict.rawValue)" }.sorted(), ["first unused-image", "second used"])
    }

    func testARepeatedLoadPointsAtTheLineThatNamesItLiterally() throws {
        // The alternate-icon case: a pattern elsewhere fits, the preview names the image exactly.
        try imageSet("App/Assets.xcassets", "icon-red")
        try write("App/Icons.swift", "func preview(_ raw: String) -> UIImage? { UIImage(named: \"icon-\\(raw)\") }\n")
        try write("App/Preview.swift", "import SwiftUI\nlet preview = Image(uiImage: .init(named: \"icon-red\")!)\n")
        let log = root.appendingPathComponent("launch.log")
        let loads = Array(repeating: "icon-red", count: 12).joined(separator: "\n")
        try "2026-11-21 09:14:02.118204+0100 App[1:2] start\n\(loads)\n".write(to: log, atomically: true, encoding: .utf8)
        var request = AuditRequest(logs: [log.path], bundles: [root.path])
        request.sourceRoot = root.path
        let finding = try XCTUnwrap(AuditSession.run(request).result.findings.first { $0.rule == "repeated-load" })
        XCTAssertEqual(finding.code?.path, "App/Preview.swift")
        XCTAssertEqual(finding.code?.position?.line, 2)
        // The pattern that fits it too is further evidence, named beside the line.
        XCTAssertEqual(finding.values["alsoNamedAt"], .string("App/Icons.swift:1"))
    }

    func testATreeReadAsBundleAndSourceRootWarnsOnce() throws {
        try write("App/Assets.xcassets/v.imageset/v.pdf", "%PDF-1.4\n")
        try write(
            "App/Assets.xcassets/v.imageset/Contents.json",
            #"{"images":[{"idiom":"universal","filename":"v.pdf","scale":"1x"},{"idiom":"universal","scale":"2x"}],"info":{"version":1}}"#)
        try write("App/A.swift", "let a = UIImage(named: \"v\")\n")
        let warnings = try run().result.warnings.map(\.message)
        XCTAssertEqual(warnings.filter { $0.contains("vector file in the 1x slot") }.count, 1, "\(warnings)")
    }

    func testASourceTreeWithoutAProjectSaysSo() throws {
        try imageSet("App/Assets.xcassets", "orphan")
        try write("App/A.swift", "let a = 1\n")
        let result = try run().result
        XCTAssertNil(result.summary.notShipped)
        XCTAssertTrue(result.warnings.contains { $0.message.hasPrefix("no Xcode project found in this source tree") || $0.message.contains("no Xcode project found") })
    }
}
