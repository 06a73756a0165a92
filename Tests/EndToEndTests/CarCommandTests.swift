import Foundation
import TestSupport
import XCTest

/// `imgtrace car` as a user runs it.
final class CarCommandTests: XCTestCase {
    func testTimacCatalogAsAssetutilPrintsIt() throws {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let car = root.appendingPathComponent("car/timac_ios12_demo.car").path
        let result = try BinaryRunner.run(["car", car])
        XCTAssertEqual(result.status, 0)
        let array = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
        XCTAssertEqual(array.count, 8, "header + 7 renditions")
        XCTAssertEqual(array[0]["CoreUIVersion"] as? Int, 498)
        XCTAssertEqual(array[0]["AssetStorageVersion"] as? String, "IBCocoaTouchImageCatalogTool-10.0")
        func rendition(_ name: String) throws -> [String: Any] {
            try XCTUnwrap(array.first { $0["RenditionName"] as? String == name }, name)
        }
        // Values of the published assetutil output (corpus MANIFEST).
        let png2x = try rendition("Timac@2x.png")
        XCTAssertEqual(png2x["Name"] as? String, "MyPNG")
        XCTAssertEqual(png2x["PixelWidth"] as? Int, 56)
        XCTAssertEqual(png2x["Scale"] as? Int, 2)
        XCTAssertEqual(png2x["Compression"] as? String, "palette-img")
        XCTAssertEqual(png2x["SizeOnDisk"] as? Int, 1102)
        let jpeg = try rendition("TimacJPG.jpg")
        XCTAssertEqual(jpeg["PixelWidth"] as? Int, 200)
        XCTAssertEqual(jpeg["PixelHeight"] as? Int, 200)
        XCTAssertEqual(jpeg["SizeOnDisk"] as? Int, 8042)
        XCTAssertEqual(jpeg["Opaque"] as? Bool, true)
        XCTAssertNil(jpeg["Compression"])
        let pdf = try rendition("CoreStructuredImage")
        XCTAssertEqual(pdf["AssetType"] as? String, "Data")
        XCTAssertEqual(pdf["Data Length"] as? Int, 7284)
        XCTAssertEqual(pdf["UTI"] as? String, "com.adobe.pdf")
        XCTAssertEqual(try rendition("MyColor")["AssetType"] as? String, "Color")
        let again = try BinaryRunner.run(["car", car])
        XCTAssertEqual(result.stdout, again.stdout, "same input, same bytes")
    }

    func testTextListsRenditionsSortedByName() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("Assets.car")
        let images = [CatalogWriter.Image(facet: "zebra", name: "zebra@2x.png"), CatalogWriter.Image(facet: "apple", name: "apple@2x.png")]
        try Data(CatalogWriter.catalog(images)).write(to: path)
        let result = try BinaryRunner.run(["car", path.path, "--format", "text"])
        XCTAssertEqual(result.status, 0)
        let lines = result.stdoutText.split(separator: "\n")
        XCTAssertTrue(lines[1].hasPrefix("apple  apple@2x.png  onepart-scale  phone  @2x"))
        XCTAssertTrue(lines[2].hasPrefix("zebra  zebra@2x.png"))
    }

    func testCorruptCatalogExitsTwoNamingTheOffset() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("Broken.car")
        let whole = CatalogWriter.catalog([CatalogWriter.Image(facet: "a", name: "a.png")])
        try Data(whole[0..<(whole.count - 40)]).write(to: path)
        let result = try BinaryRunner.run(["car", path.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stdout.isEmpty, "no partial output")
        XCTAssertTrue(result.stderr.hasPrefix("imgtrace: error: \(path.path): offset "), result.stderr)
        XCTAssertEqual(result.stderr.filter { $0 == "\n" }.count, 1)
    }

    /// An app folder or an .ipa given to `car` says what to run instead, and names the catalogs inside.
    func testABundleOrArchiveIsPointedAtCatalog() throws {
        let app = try BinaryRunner.run(["car", "Examples/SampleApp.app"], in: Corpus.packageRoot)
        XCTAssertEqual(app.status, 2)
        XCTAssertTrue(app.stdout.isEmpty)
        XCTAssertEqual(
            app.stderr,
            "imgtrace: error: Examples/SampleApp.app: a folder (an app or bundle?), not a compiled catalog: `imgtrace catalog Examples/SampleApp.app` lists its images; the compiled catalogs inside: `Assets.car`\n"
        )
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ipa = dir.appendingPathComponent("App.ipa")
        try Data(ZipWriter.zip([("Payload/App.app/Assets.car", CatalogWriter.catalog([CatalogWriter.Image(facet: "a", name: "a.png")]))])).write(to: ipa)
        let archive = try BinaryRunner.run(["car", ipa.path])
        XCTAssertEqual(archive.status, 2)
        XCTAssertTrue(archive.stderr.contains("a zip archive (an .ipa?), not a compiled catalog: `imgtrace catalog \(ipa.path)`"), archive.stderr)
    }
}
