import Foundation
import TestSupport
import XCTest

/// Every file `unused` and `analyze` read is guarded like the bundle: a report or a patch aimed
/// at a source file, a project, or a file inside a folder bundle is refused with exit 64 before
/// anything is read, and the file is untouched. A file the run does not read may be written.
final class UnusedInputGuardTests: XCTestCase {
    private var tree: TreeWriter!
    private var root: URL { tree.root }

    override func setUpWithError() throws {
        tree = try TreeWriter()
        var writer = ProjectWriter()
        let catalog = writer.file("Assets.xcassets", type: "folder.assetcatalog")
        _ = writer.group("App", children: [catalog], topLevel: true)
        writer.target("App", resources: [catalog])
        try tree.write("App.xcodeproj/project.pbxproj", writer.render())
        try tree.imageSet("App/Assets.xcassets", "orphan")
        try tree.write("App/AppDelegate.swift", "import UIKit\n")
    }

    override func tearDownWithError() throws { tree.remove() }

    private func assertRefused(_ arguments: [String], guarding file: String, line: String, file callerFile: StaticString = #filePath, line callerLine: UInt = #line)
        throws
    {
        let before = try Data(contentsOf: root.appendingPathComponent(file))
        let result = try BinaryRunner.run(arguments, in: root)
        XCTAssertEqual(result.status, 64, result.stderr, file: callerFile, line: callerLine)
        XCTAssertTrue(result.stdout.isEmpty, "nothing written", file: callerFile, line: callerLine)
        XCTAssertEqual(result.stderr, "imgtrace: error: \(line)\n", file: callerFile, line: callerLine)
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent(file)), before, "\(file) untouched", file: callerFile, line: callerLine)
    }

    func testOutputsAimedAtWhatTheRunReadsAreRefused() throws {
        let unused = ["unused", "--bundle", ".", "--source-root", "."]
        try assertRefused(
            unused + ["--report", "json:App/AppDelegate.swift"], guarding: "App/AppDelegate.swift",
            line: "--report App/AppDelegate.swift is App/AppDelegate.swift in the bundle ., which this run reads: refusing to overwrite an input")
        try assertRefused(
            unused + ["--fix", "App.xcodeproj/project.pbxproj"], guarding: "App.xcodeproj/project.pbxproj",
            line: "--fix App.xcodeproj/project.pbxproj is App.xcodeproj/project.pbxproj in the bundle ., which this run reads: refusing to overwrite an input")
        // Through a link to the file, and with the project given apart from the tree.
        try FileManager.default.createSymbolicLink(atPath: root.path + "/out.json", withDestinationPath: "App/Assets.xcassets/orphan.imageset/Contents.json")
        try assertRefused(
            ["unused", "--bundle", "App/Assets.xcassets", "--output", "out.json"], guarding: "App/Assets.xcassets/orphan.imageset/Contents.json",
            line: "--output out.json is orphan.imageset/Contents.json in the bundle App/Assets.xcassets, which this run reads: refusing to overwrite an input")
        try assertRefused(
            ["analyze", "--bundle", "App", "--source-root", ".", "--report", "sarif:App.xcodeproj/project.pbxproj", "-"], guarding: "App.xcodeproj/project.pbxproj",
            line: "--report App.xcodeproj/project.pbxproj is App.xcodeproj/project.pbxproj in the source root ., which this run reads: refusing to overwrite an input")

        // A report the run does not read (Markdown beside the tree) is written, and written again.
        for _ in 0..<2 {
            let written = try BinaryRunner.run(unused + ["--report", "markdown:imgtrace.md"], in: root)
            XCTAssertNotEqual(written.status, 64, written.stderr)
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.path + "/imgtrace.md"))
        }
    }
}

/// A local package beside the tree (`relativePath = "../Kit"`): its manifest is read, so it is
/// guarded too, though it lies in no folder the run was given.
final class OutsideManifestGuardTests: XCTestCase {
    func testAManifestOutsideTheTreeIsGuarded() throws {
        let work = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let tree = work.appendingPathComponent("App"), kit = work.appendingPathComponent("Kit")
        try FileManager.default.createDirectory(at: kit, withIntermediateDirectories: true)
        let manifest = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Kit\", targets: [.target(name: \"Kit\")])\n"
        try manifest.write(to: kit.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        var writer = ProjectWriter()
        let product = writer.localPackageProduct("../Kit", product: "Kit")
        let catalog = writer.file("Assets.xcassets", type: "folder.assetcatalog")
        _ = writer.group("App", children: [catalog], topLevel: true)
        writer.target("App", resources: [catalog], packages: [product])
        let files = TreeWriter(root: tree)
        try files.write("App.xcodeproj/project.pbxproj", writer.render())
        try files.write("App/Assets.xcassets/Contents.json", #"{"info":{"version":1}}"#)
        try files.write("App/Assets.xcassets/a.imageset/Contents.json", #"{"images":[{"idiom":"universal","filename":"a.png"}],"info":{"version":1}}"#)
        try Data(ImageWriter.png(width: 2, height: 2)).write(to: tree.appendingPathComponent("App/Assets.xcassets/a.imageset/a.png"))
        try files.write("App/Main.swift", "let a = 1\n")
        let run = try BinaryRunner.run(["unused", "--bundle", tree.path, "--source-root", tree.path, "--fix", kit.path + "/Package.swift"])
        XCTAssertEqual(run.status, 64, run.stderr)
        XCTAssertTrue(run.stderr.contains("Package.swift is the project file "), run.stderr)
        XCTAssertEqual(try String(contentsOf: kit.appendingPathComponent("Package.swift"), encoding: .utf8), manifest, "untouched")
    }
}

/// Swift files of nested calls: calls left open, each line one level deeper (once 190 times its
/// size in memory), and lines 60 calls deep (once 15 times): each read within ten times the file
/// over what the run takes without it. 2 MiB each, for the debug build's time: neither's cost per
/// byte grows with the file, and a piece's tree is a fixed cost a smaller file would weigh more
/// (scripts/bench-hostile.sh measures 4 MiB with the release build).
final class NestedSwiftMemoryTests: XCTestCase {
    func testANestedCallsFileParsesWithinTenTimesItsSize() throws {
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: time.path) else { throw XCTSkip("GNU time is needed to measure peak memory (apt-get install time)") }
        let tree = try TreeWriter()
        defer { tree.remove() }
        let empty = try TreeWriter()
        defer { empty.remove() }
        let open = "_ = f(g(h(UIImage(named: \"icon\"), k(1, 2)), m(n(o(p(q(r(s(t(0)))))))))\n"
        let balanced = "_ = " + String(repeating: "f(", count: 60) + "UIImage(named: \"icon\")" + String(repeating: ")", count: 60) + "\n"
        try tree.write("Open/Calls.swift", String(repeating: open, count: (2 << 20) / open.utf8.count))
        try tree.write("Deep/Calls.swift", String(repeating: balanced, count: (2 << 20) / balanced.utf8.count))
        func peakKiB(_ sourceRoot: String) throws -> Int {
            let result = try BinaryRunner.run(
                ["-f", "%M", BinaryRunner.executable.path, "unused", "--bundle", "Examples/SampleApp.app", "--source-root", sourceRoot, "--format", "json"],
                in: Corpus.packageRoot, program: time)
            XCTAssertNotEqual(result.status, 2, result.stderr)
            return try XCTUnwrap(Int(result.stderr.split(separator: "\n").last ?? ""), result.stderr)
        }
        let base = try peakKiB(empty.root.path)
        for shape in ["Open", "Deep"] {
            let fileKiB = 2 << 10
            let grown = try peakKiB(tree.root.path + "/" + shape) - base
            XCTAssertLessThanOrEqual(grown, 10 * fileKiB, "\(shape): \(grown) KiB over an empty tree's \(base) KiB for a \(fileKiB) KiB file")
        }
    }
}
