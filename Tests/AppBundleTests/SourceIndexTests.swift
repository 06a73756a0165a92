import AppBundle
import Foundation
import ImgtraceSupport
import TestSupport
import XCTest

/// `--source-root`: a source tree is indexed (catalog entries with their lines, loose images,
/// interface documents' image attributes), and bundle images map back to what was edited.
final class SourceIndexTests: XCTestCase {
    func testContentsJSONEntriesAreFoundWhateverTheFormatting() {
        let xcode = """
            {
              "images" : [
                {
                  "idiom" : "universal",
                  "scale" : "1x"
                },
                {
                  "filename" : "star@2x.png",
                  "idiom" : "universal",
                  "scale" : "2x"
                }
              ]
            }
            """
        XCTAssertEqual(SourceText.filenamePositions(inContentsJSON: Array(xcode.utf8)), ["star@2x.png": TextPosition(line: 8, column: 7)])
        // Hand-written: no space before the colon, two entries on one line, an escaped slash.
        let hand = #"{"images":[{"filename":"a.pdf","idiom":"universal"},{"idiom":"universal","filename" :"b\/c.png"}]}"#
        let positions = SourceText.filenamePositions(inContentsJSON: Array(hand.utf8))
        XCTAssertEqual(positions["a.pdf"], TextPosition(line: 1, column: 13))
        XCTAssertEqual(positions["b/c.png"]?.line, 1)
        // A `filename` key whose value is not a string names nothing; truncated text is no crash.
        XCTAssertEqual(SourceText.filenamePositions(inContentsJSON: Array(#"{"filename": 3, "filename": "x"#.utf8)), [:])
    }

    func testInterfaceDocumentsNameImagesInImageAttributesOnly() {
        let xib = """
            <document>
                <imageView image="logo" id="a"/>
                <state key="normal" image="tab &amp; bar" backgroundImage="bg"/>
                <tabBarItem title="Home" selectedImage="home.fill"/>
                <image name="logo" width="10" height="10"/>
                <label text="image=&quot;not&quot;" animage="nope"/>
            </document>
            """
        let found = SourceText.imageAttributes(inInterface: Array(xib.utf8))
        XCTAssertEqual(found.map(\.name), ["logo", "tab & bar", "bg", "home.fill"])
        XCTAssertEqual(
            found.map(\.position),
            [
                TextPosition(line: 2, column: 16), TextPosition(line: 3, column: 25), TextPosition(line: 3, column: 47),
                TextPosition(line: 4, column: 30),
            ])
        // An attribute left open at the end of the file is not an image.
        XCTAssertTrue(SourceText.imageAttributes(inInterface: Array("<a image=\"x".utf8)).isEmpty)
    }

    /// A document that names one image on every line is one place to edit, not a hundred
    /// thousand entries: the index keeps the first place each document names an image.
    func testADocumentNamingAnImageManyTimesIsIndexedOnce() {
        var xib = "<document>\n"
        for i in 0..<100_000 { xib += "  <imageView image=\"cell_bg\" id=\"\(i)\"/>\n" }
        xib += "  <imageView image=\"other\"/>\n</document>\n"
        let index = SourceIndex(tree: MemoryTree(["App/Cell.xib": Array(xib.utf8), "App/Other.xib": Array(xib.utf8)]))
        XCTAssertEqual(index.interfaceImages.count, 4, "two names in each of two documents")
        XCTAssertEqual(index.interfaceImages.first { $0.name == "cell_bg" }?.location.position, TextPosition(line: 2, column: 14))
        XCTAssertEqual(index.interfaceLocation(of: "other", compiledIn: [])?.position?.line, 100_002)
    }

    /// A source tree as Xcode lays it out, with the copies a build leaves beside it.
    private func makeTree() throws -> URL {
        let root = try BinaryRunner.temporaryDirectory()
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write("App/Assets.xcassets/Contents.json", #"{"info":{"version":1}}"#)
        try write("App/Assets.xcassets/Icons/Contents.json", #"{"properties":{"provides-namespace":true}}"#)
        try write(
            "App/Assets.xcassets/Icons/star.imageset/Contents.json",
            """
            {
              "images" : [
                { "filename" : "star@2x.png", "idiom" : "universal", "scale" : "2x" },
                { "filename" : "star@3x.png", "idiom" : "universal", "scale" : "3x" },
                { "appearances" : [ { "appearance" : "luminosity", "value" : "dark" } ],
                  "filename" : "star-dark@3x.png", "idiom" : "universal", "scale" : "3x" },
                { "filename" : "star~ipad@2x.png", "idiom" : "ipad", "scale" : "2x" }
              ]
            }
            """)
        for file in ["star@2x.png", "star@3x.png", "star-dark@3x.png", "star~ipad@2x.png"] {
            try write("App/Assets.xcassets/Icons/star.imageset/" + file, "png")
        }
        try write("App/Assets.xcassets/vector.imageset/Contents.json", #"{"images":[{"filename":"v.pdf","idiom":"universal"}]}"#)
        try write("App/Assets.xcassets/vector.imageset/v.pdf", "%PDF")
        try write("App/Resources/en.lproj/hero@2x.png", "png")
        try write("App/Resources/fr.lproj/hero@2x.png", "png")
        try write("App/Legacy/hero@2x.png", "png")
        try write("App/Base.lproj/Main.storyboard", "<document>\n  <imageView image=\"banner\"/>\n</document>\n")
        try write("App/Onboarding.xib", "<document>\n\n    <button><state key=\"normal\" image=\"banner\"/></button>\n</document>\n")
        // Build products and version control hold copies: never a finding's location.
        try write("build/Release-iphoneos/App.app/hero@2x.png", "png")
        try write("DerivedData/App/Build/Products/Debug-iphonesimulator/App.app/hero@2x.png", "png")
        try write(".git/objects/hero@2x.png", "png")
        try write("Pods/Lib/hero@2x.png", "png")
        return root
    }

    func testBundleImagesMapToTheFilesTheDeveloperEdits() throws {
        let root = try makeTree()
        defer { try? FileManager.default.removeItem(at: root) }
        let index = try SourceIndex.read(root: root.path)
        XCTAssertEqual(index.imageFiles, ["App/Legacy/hero@2x.png", "App/Resources/en.lproj/hero@2x.png", "App/Resources/fr.lproj/hero@2x.png"])
        XCTAssertEqual(index.catalogSlots.count, 5)
        XCTAssertEqual(index.warnings, [])

        func rendition(_ name: String, scale: Int, idiom: ImageIdiom = .universal, appearance: String? = nil) -> BundleImage {
            BundleImage(
                id: "Assets.car#\(name)", bundle: ".", path: "Assets.car", source: .assetCatalog, name: name, scale: scale, idiom: idiom,
                appearance: appearance)
        }
        let contents = "App/Assets.xcassets/Icons/star.imageset/Contents.json"
        XCTAssertEqual(index.location(of: rendition("Icons/star", scale: 3)), SourceLocation(path: contents, position: TextPosition(line: 4, column: 7)))
        XCTAssertEqual(index.location(of: rendition("Icons/star", scale: 3, appearance: "dark"))?.position?.line, 6)
        XCTAssertEqual(index.location(of: rendition("Icons/star", scale: 2, idiom: "pad"))?.position?.line, 7)
        XCTAssertEqual(index.location(of: rendition("Icons/star", scale: 2, idiom: "phone"))?.position?.line, 3)
        // A vector in a single-scale set is rasterised into every scale: each maps to its one entry.
        XCTAssertEqual(index.location(of: rendition("vector", scale: 3))?.path, "App/Assets.xcassets/vector.imageset/Contents.json")
        // Without the namespace the name is another image: no guess.
        XCTAssertNil(index.location(of: rendition("star", scale: 3)))

        func file(_ path: String) -> BundleImage {
            BundleImage(id: path, bundle: ".", path: path, source: .file, name: "hero", scale: 2)
        }
        XCTAssertEqual(index.location(of: file("fr.lproj/hero@2x.png")), SourceLocation(path: "App/Resources/fr.lproj/hero@2x.png"))
        XCTAssertEqual(index.location(of: file("Payload/App.app/en.lproj/hero@2x.png"))?.path, "App/Resources/en.lproj/hero@2x.png")
        XCTAssertEqual(index.location(of: file("hero@2x.png"))?.path, "App/Legacy/hero@2x.png", "no folder matches: the shallowest copy")
        XCTAssertNil(index.location(of: file("hero@3x.png")), "another variant is another file")

        // An interface document: the one the bundle's compiled nib came from wins.
        let fromStoryboard = ImageReference(bundle: ".", file: "Base.lproj/Main.storyboardc/UIViewController-x.nib", name: "banner", kind: .nib)
        let fromXib = ImageReference(bundle: ".", file: "Onboarding.nib", name: "banner", kind: .nib)
        XCTAssertEqual(
            index.interfaceLocation(of: "banner", compiledIn: [fromStoryboard]),
            SourceLocation(path: "App/Base.lproj/Main.storyboard", position: TextPosition(line: 2, column: 14)))
        XCTAssertEqual(
            index.interfaceLocation(of: "banner", compiledIn: [fromXib]),
            SourceLocation(path: "App/Onboarding.xib", position: TextPosition(line: 3, column: 33)))
        XCTAssertNotNil(index.interfaceLocation(of: "banner", compiledIn: []), "a document naming it is better than none")
        XCTAssertNil(index.interfaceLocation(of: "other", compiledIn: [fromXib]))
    }

    func testASourceRootThatIsNoFolderIsAnInputError() {
        XCTAssertThrowsError(try SourceIndex.read(root: "/nonexistent/imgtrace-src")) { error in
            XCTAssertTrue("\(error)".contains("/nonexistent/imgtrace-src"), "\(error)")
        }
    }

    /// The real catalog: every filled slot is indexed, and each one's position is the line of
    /// the `"filename"` entry that names its file.
    func testEveryCorpusCatalogSlotPointsAtItsEntry() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let root = corpus.appendingPathComponent("xcassets/duckduckgo-ios")
        let index = try SourceIndex.read(root: root.path)
        // The independent count: every `filename` of every image-like set, through Foundation's JSON reader.
        var expected = 0
        let enumerator = FileManager.default.enumerator(atPath: root.path)!
        while let path = enumerator.nextObject() as? String {
            guard path.hasSuffix("set/Contents.json"), !path.contains(".colorset/") else { continue }
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent(path))) as! [String: Any]
            expected += (json["images"] as? [[String: Any]] ?? []).filter { $0["filename"] != nil }.count
        }
        XCTAssertGreaterThan(expected, 400)
        XCTAssertEqual(index.catalogSlots.count, expected)
        var linesByFile: [String: [Substring]] = [:]
        for slot in index.catalogSlots {
            let position = try XCTUnwrap(slot.entry.position, slot.imagePath)
            if linesByFile[slot.entry.path] == nil {
                let text = try String(contentsOf: root.appendingPathComponent(slot.entry.path), encoding: .utf8)
                linesByFile[slot.entry.path] = text.split(separator: "\n", omittingEmptySubsequences: false)
            }
            let line = linesByFile[slot.entry.path]![position.line - 1]
            XCTAssertTrue(line.contains("\"filename\""), "\(slot.entry.path):\(position.line)")
            XCTAssertTrue(line.contains(PathText.lastComponent(slot.imagePath)), "\(slot.entry.path):\(position.line) for \(slot.imagePath)")
        }
        // The dark entry of a set with light and dark variants.
        let dark = index.catalogSlots.first { $0.name == "LogoText" && $0.appearance == "dark" && $0.imagePath.hasSuffix("dark_portrait_logo.pdf") }
        XCTAssertNotNil(dark)
    }
}
