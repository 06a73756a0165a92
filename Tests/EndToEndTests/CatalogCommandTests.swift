import Foundation
import TestSupport
import XCTest

/// `imgtrace catalog` as a user runs it.
final class CatalogCommandTests: XCTestCase {
    func testJSONContractOnARealIpa() throws {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let ipa = root.appendingPathComponent("bundles/bitbar-reactnative-2023-device-ipa/BitBarSampleApp.ipa").path
        let result = try BinaryRunner.run(["catalog", ipa, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "")
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        XCTAssertEqual(json["schemaVersion"] as? Int, 1)
        XCTAssertEqual(Set(json.keys), ["schemaVersion", "bundles", "images", "references", "junk", "warnings", "aliases"])
        let images = try XCTUnwrap(json["images"] as? [[String: Any]])
        let icon = try XCTUnwrap(images.first { $0["path"] as? String == "AppIcon76x76@2x~ipad.png" })
        for key in [
            "id", "bundle", "path", "source", "name", "format", "cgbi", "pixelWidth", "pixelHeight", "scale", "idiom",
            "appearance", "bytesOnDisk", "decodedBytes", "digest",
        ] {
            XCTAssertTrue(icon.keys.contains(key), key)
        }
        XCTAssertEqual(icon["name"] as? String, "AppIcon76x76")
        XCTAssertEqual(icon["idiom"] as? String, "pad")
        XCTAssertEqual(icon["cgbi"] as? Bool, true)
        XCTAssertEqual(icon["decodedBytes"] as? Int, 152 * 152 * 4)
        XCTAssertEqual(icon["source"] as? String, "file")
        // Paths are relative to Payload/NAME.app: nothing absolute leaks into the output.
        XCTAssertFalse(result.stdoutText.contains(root.path))
        let again = try BinaryRunner.run(["catalog", ipa, "--format", "json"])
        XCTAssertEqual(result.stdout, again.stdout, "same input, same bytes")
    }

    func testTextSummaryPerBundleSortedByDecodedSize() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let app = dir.appendingPathComponent("Tiny.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data(ImageWriter.png(width: 10, height: 10)).write(to: app.appendingPathComponent("small.png"))
        try Data(ImageWriter.jpeg(width: 1000, height: 500)).write(to: app.appendingPathComponent("big@3x.jpg"))
        try Data([0, 0, 0, 1]).write(to: app.appendingPathComponent(".DS_Store"))
        let result = try BinaryRunner.run(["catalog", app.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines[0], "== Tiny.app (app)")
        XCTAssertTrue(lines[1].hasPrefix("2 images (2 loose; 1 JPEG, 1 PNG)"), lines[1])
        XCTAssertTrue(lines[3].hasPrefix("big.jpg "), lines[3])
        XCTAssertTrue(lines[4].hasPrefix("small "), lines[4])
        XCTAssertTrue(result.stdoutText.contains("junk that should not ship (1): .DS_Store"))
    }

    func testUnreadableInputsExitTwoWithOneLine() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let corrupt = dir.appendingPathComponent("Broken.ipa")
        try Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 7, count: 100)).write(to: corrupt)
        let text = dir.appendingPathComponent("readme.txt")
        try Data("hello".utf8).write(to: text)
        for path in [corrupt.path, text.path, dir.appendingPathComponent("Missing.app").path] {
            let result = try BinaryRunner.run(["catalog", path, "--format", "json"])
            XCTAssertEqual(result.status, 2, path)
            XCTAssertEqual(result.stdout.count, 0, "no partial output")
            XCTAssertTrue(result.stderr.hasPrefix("imgtrace: error: \(path): "), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1)
        }
    }
}
