import AppBundle
import AssetCatalog
import Foundation
import TestSupport
import XCTest
import ZIPFoundation

/// Every real bundle of the corpus against its independent `inventory.json`.
final class CorpusBundleTests: XCTestCase {
    private func corpus(_ path: String) throws -> URL {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        return root.appendingPathComponent(path)
    }

    /// The reference listing of one bundle: its app folder key and the parsed entry.
    private func reference(_ folder: String) throws -> [String: Any] {
        let url = try corpus("bundles/\(folder)/inventory.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        XCTAssertEqual(json.count, 1)
        return json.values.first as! [String: Any]
    }

    /// Loose images must match the reference path for path: format, CgBI, pixel size, scale and device.
    private func checkLooseImages(_ inventory: BundleInventory, against reference: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        let expected = reference["loose_images"] as! [[String: Any]]
        let loose = inventory.images.filter { $0.source == .file }
        XCTAssertEqual(loose.map(\.path).sorted(), expected.map { $0["path"] as! String }.sorted(), file: file, line: line)
        let byPath = Dictionary(uniqueKeysWithValues: loose.map { ($0.path, $0) })
        for item in expected {
            let path = item["path"] as! String
            guard let image = byPath[path] else { continue }
            let magic = item["magic"] as! String
            XCTAssertEqual(image.format, magic.hasPrefix("png") ? "png" : magic, path, file: file, line: line)
            XCTAssertEqual(image.cgbi, magic == "png-CgBI", path, file: file, line: line)
            XCTAssertEqual(image.pixelWidth, item["width"] as? Int, path, file: file, line: line)
            XCTAssertEqual(image.pixelHeight, item["height"] as? Int, path, file: file, line: line)
            XCTAssertEqual("\(image.scale)x", item["scale"] as? String, path, file: file, line: line)
            let device = item["device"] as? String
            XCTAssertEqual(image.idiom, device == "ipad" ? "pad" : device == "iphone" ? "phone" : "universal", path, file: file, line: line)
            XCTAssertEqual(image.bytesOnDisk, item["bytes"] as? Int, path, file: file, line: line)
            XCTAssertEqual(
                image.decodedBytes, (item["width"] as! Int) * (item["height"] as! Int) * (item["colortype"] as? Int == 4 ? 2 : 4),
                path, file: file, line: line)
        }
    }

    /// Catalog images must match the reference's facet variants (`scale|idiom|appearance|layout|format|WxH`).
    private func checkCatalog(_ inventory: BundleInventory, against reference: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        let catalogs = reference["asset_catalogs"] as! [String: Any]
        for (carPath, value) in catalogs {
            let facets = (value as! [String: Any])["facets"] as! [[String: Any]]
            var expected: [String] = []
            for facet in facets {
                let name = facet["name"] as! String
                guard !name.hasPrefix("(no facet") else { continue }
                for variant in facet["variants"] as! [String] {
                    let parts = variant.split(separator: "|").map(String.init)
                    guard !["color", "multisizeimage", "packedimage"].contains(parts[3]) else { continue }
                    let scale = Int(Double(parts[0].dropLast())!)
                    expected.append("\(name)|\(scale)|\(parts[1])|\(parts[5])")
                }
            }
            let actual = inventory.images.filter { $0.source == .assetCatalog && $0.path == carPath }.map {
                "\($0.name)|\($0.scale)|\($0.idiom)|\($0.pixelWidth ?? 0)x\($0.pixelHeight ?? 0)"
            }
            XCTAssertEqual(actual.sorted(), expected.sorted(), carPath, file: file, line: line)
        }
    }

    private func checkNibReferences(_ inventory: BundleInventory, against reference: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        let expected = (reference["nib_image_refs"] as! [String: [String]]).flatMap { nib, names in names.map { "\(nib) \($0)" } }
        let actual = inventory.references.filter { $0.kind == .nib }.map { "\($0.file) \($0.name)" }
        XCTAssertEqual(actual.sorted(), expected.sorted(), file: file, line: line)
    }

    func testUICatalog2013() throws {
        let app = try corpus("bundles/uicatalog-2013-ios6-sim/UICatalog.app")
        let inventory = try BundleReader.inventory(of: app.path)
        let reference = try reference("uicatalog-2013-ios6-sim")
        checkLooseImages(inventory, against: reference)
        checkNibReferences(inventory, against: reference)
        XCTAssertEqual(inventory.warnings, [])
        // The extension-less iTunesArtwork is found by its magic bytes and keeps its name.
        let artwork = try XCTUnwrap(inventory.images.first { $0.path == "iTunesArtwork" })
        XCTAssertEqual(artwork.name, "iTunesArtwork")
        XCTAssertEqual(artwork.fileExtension, "")
        // JPEGs need their extension in the lookup name; PNGs do not.
        XCTAssertEqual(inventory.images.first { $0.path == "scene1.jpg" }?.name, "scene1.jpg")
        XCTAssertEqual(inventory.images.first { $0.path == "Icon@2x.png" }?.name, "Icon")
        let info = try XCTUnwrap(inventory.bundles.first?.info)
        XCTAssertEqual(info.iconFiles, ["Icon.png", "Icon@2x.png", "Icon-72.png", "Icon-Small.png", "Icon-Small-50.png", "Icon-Small@2x.png"])
        XCTAssertEqual(info.mainInterface, "MainWindow")
        XCTAssertEqual(inventory.bundles.first?.localizations, ["en"])
        // No launch key: the implicit Default.png is the launch image.
        XCTAssertTrue(inventory.references.contains(ImageReference(bundle: ".", file: "Info.plist", name: "Default", kind: .launchImage)))
    }

    func testBitbar2014IpaIsAllCgBI() throws {
        let ipa = try corpus("bundles/bitbar-objc-2014-armv7-ipa/BitbarIOSSample.ipa")
        let inventory = try BundleReader.inventory(of: ipa.path)
        checkLooseImages(inventory, against: try reference("bitbar-objc-2014-armv7-ipa"))
        XCTAssertEqual(inventory.images.count, 8)
        XCTAssertTrue(inventory.images.allSatisfy(\.cgbi))
        XCTAssertEqual(inventory.bundles.first?.name, "BitbarIOSSample.app")
        let info = try XCTUnwrap(inventory.bundles.first?.info)
        XCTAssertEqual(info.iconFiles, ["icon.png"])
        XCTAssertEqual(info.platform, "iphoneos")
    }

    func testReactNative2023Ipa() throws {
        let ipa = try corpus("bundles/bitbar-reactnative-2023-device-ipa/BitBarSampleApp.ipa")
        let inventory = try BundleReader.inventory(of: ipa.path)
        let reference = try reference("bitbar-reactnative-2023-device-ipa")
        checkLooseImages(inventory, against: reference)
        checkCatalog(inventory, against: reference)
        // `@react-navigation` is a folder, not a scale: the three back-icons are one name at 1x/2x/3x.
        let backIcons = inventory.images.filter { $0.name == "assets/node_modules/@react-navigation/elements/src/assets/back-icon" }
        XCTAssertEqual(backIcons.map(\.scale).sorted(), [1, 2, 3])
        // Packed atlases have no facet and are not app images.
        XCTAssertFalse(inventory.images.contains { $0.name.hasPrefix("ZZZZPackedAsset") })
        XCTAssertEqual(Set(inventory.images.filter { $0.source == .assetCatalog }.map(\.name)), ["AppIcon"])
        XCTAssertEqual(inventory.bundles.map(\.id), [".", "AccessibilityResources.bundle"])
        XCTAssertEqual(inventory.bundles.first?.info?.iconNames, ["AppIcon"])
        XCTAssertEqual(inventory.bundles.first?.info?.launchStoryboard, "LaunchScreen")
    }

    func testUIKitCatalog2025() throws {
        let app = try corpus("bundles/uikitcatalog-2025-xcode26-sim/UIKitCatalog-iphonesimulator.app")
        let inventory = try BundleReader.inventory(of: app.path)
        let reference = try reference("uikitcatalog-2025-xcode26-sim")
        checkLooseImages(inventory, against: reference)
        checkCatalog(inventory, against: reference)
        checkNibReferences(inventory, against: reference)
        XCTAssertEqual(inventory.warnings, [])
        XCTAssertEqual(inventory.bundles.first?.info?.iconFiles, [])
        XCTAssertEqual(inventory.bundles.first?.info?.iconNames, [])
        // The rendition whose file was Sunset_5.png answers to its facet name.
        let attachment = try XCTUnwrap(inventory.images.first { $0.name == "text_view_attachment" })
        XCTAssertEqual(attachment.details["renditionName"], "Sunset_5.png")
    }

    /// The car inside a bundle gives the same renditions as reading the car alone (`imgtrace car`).
    func testBundledCatalogAgreesWithTheCarReader() throws {
        let app = try corpus("bundles/uikitcatalog-2025-xcode26-sim/UIKitCatalog-iphonesimulator.app")
        let inventory = try BundleReader.inventory(of: app.path)
        let car = try CarCatalog.read(contentsOf: app.appendingPathComponent("Assets.car").path)
        let expected = car.renditions.filter { $0.facet != nil && $0.isImage }
        let actual = inventory.images.filter { $0.source == .assetCatalog }
        XCTAssertEqual(actual.count, expected.count)
        XCTAssertEqual(Set(actual.map(\.name)), Set(expected.compactMap(\.facet)))
        XCTAssertEqual(actual.map(\.bytesOnDisk).reduce(0, +), expected.map(\.sizeOnDisk).reduce(0, +))
        XCTAssertEqual(Set(actual.map(\.id)).count, actual.count, "rendition ids are unique")
    }

    /// An .ipa read in place gives exactly what the same app gives once unzipped.
    func testIpaEqualsItsUnzippedApp() throws {
        for (folder, file, app) in [
            ("bitbar-reactnative-2023-device-ipa", "BitBarSampleApp.ipa", "BitBarSampleApp.app"),
            ("bitbar-objc-2014-armv7-ipa", "BitbarIOSSample.ipa", "BitbarIOSSample.app"),
        ] {
            let ipa = try corpus("bundles/\(folder)/\(file)")
            let temp = try BinaryRunner.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: temp) }
            try FileManager.default.unzipItem(at: ipa, to: temp)
            let zipped = try BundleReader.inventory(of: ipa.path)
            let unzipped = try BundleReader.inventory(of: temp.appendingPathComponent("Payload/\(app)").path)
            XCTAssertEqual(zipped.images, unzipped.images, folder)
            XCTAssertEqual(zipped.bundles, unzipped.bundles, folder)
            XCTAssertEqual(zipped.references, unzipped.references, folder)
            XCTAssertEqual(zipped.warnings, unzipped.warnings, folder)
        }
    }

    func testGridlockWithSystemImages() throws {
        let root = try corpus("e2e/gridlock")
        let system = root.appendingPathComponent("system-images")
        let inventory = try BundleReader.inventory(of: root.appendingPathComponent("Gridlock.app").path, systemImages: [system.path])
        XCTAssertEqual(inventory.bundles.map(\.kind), [.app, .systemImages])
        XCTAssertEqual(inventory.bundles.first?.resourceRoot, "Resources")
        XCTAssertEqual(inventory.bundles.first?.info?.iconFiles, ["Gridlock.tiff"])
        let app = inventory.images.filter { $0.bundle == "." }
        let tiffs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Gridlock.app/Resources").path)
            .filter { $0.hasSuffix(".tiff") }
        XCTAssertEqual(Set(app.map(\.path)), Set(tiffs.map { "Resources/" + $0 }))
        // AppKit finds `red` for red.tiff: the lookup name drops any image extension.
        XCTAssertTrue(app.contains { $0.name == "red" && $0.format == "tiff" && $0.pixelWidth == 100 })
        let systemFiles = try FileManager.default.contentsOfDirectory(atPath: system.path).filter { $0.hasSuffix(".tiff") }
        let systemImages = inventory.images.filter { $0.source == .systemImages }
        XCTAssertEqual(systemImages.count, systemFiles.count)
        XCTAssertTrue(systemImages.allSatisfy { ($0.pixelWidth ?? 0) > 0 && $0.id.hasPrefix("system-images/") })
        XCTAssertTrue(systemImages.contains { $0.name == "common_3DArrowRight" })
        // GNUstep's nsmapping.strings: NSMenuArrow and common_3DArrowRight both map to GSMenuArrow.
        let arrow = try XCTUnwrap(inventory.aliases.first { $0.name == "NSMenuArrow" })
        XCTAssertEqual([arrow.bundle, arrow.target, arrow.via, arrow.file], ["system-images", "common_3DArrowRight", "GSMenuArrow", "nsmapping.strings"])
        XCTAssertEqual(inventory.aliases.first { $0.name == "common_3DArrowRight" }?.target, "common_3DArrowRight", "a mapped file is its own alias")
        XCTAssertNil(inventory.aliases.first { $0.name == "GNUstep" }, "commented-out lines map nothing")
        XCTAssertTrue(inventory.warnings.isEmpty, "\(inventory.warnings)")
    }

    func testMappingFilesInSystemImageFolders() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = dir.appendingPathComponent("good"), bad = dir.appendingPathComponent("bad")
        for folder in [good, bad] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(ImageWriter.tiff(width: 4, height: 4, bigEndian: false)).write(to: folder.appendingPathComponent("file_a.tiff"))
        }
        try Data(
            """
            /* comment */ "Old Name" = ThemeA; // trailing comment
            file_a = ThemeA;
            Gone = ThemeB;
            Twice = ThemeB;
            Twice = ThemeA;
            """.utf8
        ).write(to: good.appendingPathComponent("nsmapping.strings"))
        try Data("a = ;".utf8).write(to: bad.appendingPathComponent("nsmapping.strings"))
        let inventory = try BundleReader.inventory(of: good.path, systemImages: [good.path, bad.path])
        let aliases = inventory.aliases.filter { $0.bundle == "good" }
        XCTAssertEqual(aliases.map(\.name), ["Old Name", "ThemeA", "Twice", "file_a"])
        XCTAssertTrue(aliases.allSatisfy { $0.target == "file_a" && $0.via == "ThemeA" }, "later lines win; ThemeB has no file")
        XCTAssertEqual(inventory.warnings.filter { $0.contains("nsmapping.strings") }, ["bad/nsmapping.strings: not a strings file (`key = value;`)"])
    }

    func testDuckDuckGoSourceCatalog() throws {
        let catalog = try corpus("xcassets/duckduckgo-ios/Assets.xcassets")
        let inventory = try BundleReader.inventory(of: catalog.path)
        let images = inventory.images
        XCTAssertTrue(images.allSatisfy { $0.source == .sourceCatalog })
        XCTAssertEqual(images.count, 462)
        XCTAssertEqual(Set(images.filter { $0.details["set"] == "imageset" }.map(\.name)).count, 448)
        XCTAssertEqual(images.filter { $0.format == "pdf" }.count, 424)
        XCTAssertEqual(images.filter { $0.format == "svg" }.count, 29)
        XCTAssertEqual(images.filter { $0.format == "png" }.count, 9)
        XCTAssertEqual(images.filter { $0.appearance == "dark" }.count, 8)  // 10 dark entries, 2 of them empty slots
        XCTAssertEqual(images.filter { $0.appearance == "tinted" }.map(\.name), ["AppIcon"])
        XCTAssertEqual(Set(images.filter { $0.details["preservesVector"] == "true" }.map(\.name)).count, 356)
        XCTAssertEqual(Set(images.filter { $0.details["template"] == "template" }.map(\.name)).count, 355)
        // Names with spaces, and groups that do not provide a namespace.
        XCTAssertTrue(images.contains { $0.name == "Stop - Color-20" })
        XCTAssertTrue(images.contains { $0.path == "Waitlist/Mac Waitlist/MacWaitlistJoinWaitlist.imageset/MacWaitlistJoinWaitlist.pdf" && $0.name == "MacWaitlistJoinWaitlist" })
        // The four vectors in a 1x slot with empty 2x/3x slots are reported; nothing else is.
        XCTAssertEqual(inventory.warnings.count, 4)
        XCTAssertTrue(inventory.warnings.allSatisfy { $0.contains("1x slot") })
        XCTAssertTrue(inventory.warnings.contains { $0.hasPrefix("BookmarksEmpty.imageset/") })
        // Scales: 1x/2x/3x slots keep their scale, single-scale and vector slots have none.
        let scaled = images.filter { $0.scale > 0 }
        XCTAssertEqual(Set(scaled.map(\.scale)), [1, 2, 3])
        XCTAssertTrue(images.filter { $0.isVector }.allSatisfy { $0.pointWidth != nil })
    }
}
