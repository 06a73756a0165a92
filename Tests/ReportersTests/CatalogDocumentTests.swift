@testable import AppBundle
import Foundation
import ImgtraceSupport
@testable import Reporters
import XCTest

/// `catalog --format json` is written a run of images at a time, thousands of them on every core:
/// the document must be the bytes one writer gives, image after image, and what the command
/// writes through its sink must be what `render` returns.
final class CatalogDocumentTests: XCTestCase {
    private func inventory(images count: Int) -> BundleInventory {
        var inventory = BundleInventory()
        inventory.bundles = [BundleInfo(id: BundleID.top, kind: .app, name: "Many.app", resourceRoot: "")]
        inventory.images = (0..<count).map { index in
            let path = "assets/image\(index)\(index % 3 == 0 ? "@2x" : "").png"
            var image = BundleImage(
                id: path, bundle: BundleID.top, path: path, source: .file, name: "assets/image\(index)", format: "png",
                pixelWidth: index % 7 == 0 ? nil : index, pixelHeight: 40, scale: index % 3 == 0 ? 2 : 1, bytesOnDisk: 100 + index)
            if index % 5 == 0 { image.digest = String(repeating: "ab", count: 32) }
            if index % 11 == 0 { image.details["link"] = "Resources → ../Shared \"\(index)\"" }
            return image
        }
        inventory.junk = ["a/.DS_Store"]
        inventory.warnings = ["assets/bad.png: not an image"]
        return inventory
    }

    func testRunsOfImagesAreTheDocumentOfOneWriter() throws {
        for count in [0, 1, 511, 512, 1500, 4095, 4096, 10_007] {
            let inventory = inventory(images: count)
            var serial = JSONText()
            serial.beginArray()
            for image in inventory.images { CatalogJSONReport.writeImage(image, &serial) }
            serial.endArray()
            let document = CatalogJSONReport.render(inventory)
            let images = Array(#""images":"#.utf8) + serial.bytes + Array(#","references":"#.utf8)
            XCTAssertNotNil(
                document.indices.first { document[$0...].starts(with: images) }, "\(count) images: the array one writer gives")
            XCTAssertEqual(document.last, 0x0A, "\(count) images: one line")
            let parsed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(document)) as? [String: Any])
            XCTAssertEqual((parsed["images"] as? [Any])?.count, count)
            let sink = ByteSink(collecting: .json)
            CatalogJSONReport.write(inventory, to: sink)
            XCTAssertEqual(sink.collected, document, "\(count) images: written through the sink as rendered")
        }
    }
}
