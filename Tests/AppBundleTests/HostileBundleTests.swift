import AppBundle
import Foundation
import ImgtraceSupport
import TestSupport
import XCTest
import ZIPFoundation

/// Bundles built in the test: layouts the corpus lacks and inputs meant to hurt.
final class HostileBundleTests: XCTestCase {
    private var temp: URL!

    override func setUpWithError() throws { temp = try BinaryRunner.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    private func write(_ bytes: [UInt8], _ path: String, in root: URL? = nil) throws {
        let url = (root ?? temp).appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// A zip with the given entries (path → bytes), written with ZIPFoundation.
    private func zip(
        _ name: String, _ entries: [(String, [UInt8])], compress: Bool = false,
        symlinks: [(String, String)] = []
    ) throws -> URL {
        let url = temp.appendingPathComponent(name)
        let archive = try Archive(url: url, accessMode: .create)
        for (path, bytes) in entries {
            let data = Data(bytes)
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count),
                compressionMethod: compress ? .deflate : .none
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        for (path, target) in symlinks {
            let data = Data(target.utf8)
            try archive.addEntry(with: path, type: .symlink, uncompressedSize: Int64(data.count)) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }

    private let icon = ImageWriter.png(width: 120, height: 120, cgbi: true)

    func testTraversingAbsoluteAndSymlinkEntriesNeverLeaveTheBundle() throws {
        let url = try zip(
            "evil.ipa",
            [
                ("Payload/App.app/icon@2x.png", icon),
                ("Payload/App.app/../../../escaped.png", icon),
                ("/tmp/absolute.png", icon),
                ("Payload/App.app/..\\..\\windows.png", icon),
            ], symlinks: [("Payload/App.app/link.png", "../../../../etc/passwd"), ("Payload/App.app/inside.png", "icon@2x.png")])
        let inventory = try BundleReader.inventory(of: url.path)
        XCTAssertEqual(inventory.images.map(\.path), ["icon@2x.png"])
        XCTAssertTrue(inventory.warnings.contains { $0.contains("escaped.png") && $0.contains("leaves the archive") })
        XCTAssertTrue(inventory.warnings.contains { $0.contains("absolute.png") && $0.contains("leaves the archive") })
        XCTAssertTrue(inventory.warnings.contains { $0.contains("windows.png") && $0.contains("leaves the archive") })
        XCTAssertTrue(inventory.warnings.contains { $0.hasPrefix("link.png: symbolic link") })
        XCTAssertFalse(inventory.warnings.contains { $0.hasPrefix("inside.png") }, "a link that stays inside is fine")
        XCTAssertFalse(FileManager.default.fileExists(atPath: temp.appendingPathComponent("escaped.png").path))
    }

    /// A folder is read as the loader reads it: through its links (docs/bundles.md §2), each folder once,
    /// with links back up the tree refused.
    func testSymlinksInAFolderBundleAreFollowedAsTheLoaderDoes() throws {
        let app = temp.appendingPathComponent("Linked.app")
        try write(icon, "Linked.app/icon.png")
        try write(ImageWriter.png(width: 90, height: 90), "shared/Resources/linked@2x.png")
        try write(ImageWriter.png(width: 90, height: 90), "outside/secret.png")
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: app.appendingPathComponent("Resources").path, withDestinationPath: "../shared/Resources")
        try fm.createSymbolicLink(
            atPath: app.appendingPathComponent("secret.png").path,
            withDestinationPath: temp.appendingPathComponent("outside/secret.png").path)
        try fm.createSymbolicLink(atPath: app.appendingPathComponent("up").path, withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: app.appendingPathComponent("self").path, withDestinationPath: ".")
        try fm.createSymbolicLink(atPath: app.appendingPathComponent("again").path, withDestinationPath: "Resources")
        try fm.createSymbolicLink(atPath: app.appendingPathComponent("nowhere.png").path, withDestinationPath: "missing.png")
        let inventory = try BundleReader.inventory(of: app.path)
        XCTAssertEqual(inventory.images.map(\.path).sorted(), ["Resources/linked@2x.png", "icon.png", "secret.png"])
        let linked = try XCTUnwrap(inventory.images.first { $0.path == "Resources/linked@2x.png" })
        XCTAssertEqual(linked.details["link"], "Resources → ../shared/Resources", "the inventory says it came through a link")
        XCTAssertTrue(inventory.warnings.contains { $0.hasPrefix("up: symbolic link to a folder that holds the bundle") }, "\(inventory.warnings)")
        XCTAssertTrue(inventory.warnings.contains { $0.hasPrefix("self: symbolic link to a folder that holds the bundle") }, "\(inventory.warnings)")
        XCTAssertFalse(inventory.warnings.contains { $0.hasPrefix("again") }, "a second way into a folder is no problem")
        XCTAssertTrue(inventory.warnings.contains { $0.hasPrefix("nowhere.png: symbolic link to `missing.png` points nowhere") }, "\(inventory.warnings)")
    }

    func testALinkLoopBetweenTwoFoldersEnds() throws {
        let app = temp.appendingPathComponent("Loop.app")
        try write(icon, "Loop.app/a/icon.png")
        try write(icon, "Loop.app/b/other.png")
        try FileManager.default.createSymbolicLink(atPath: app.appendingPathComponent("a/toB").path, withDestinationPath: "../b")
        try FileManager.default.createSymbolicLink(atPath: app.appendingPathComponent("b/toA").path, withDestinationPath: "../a")
        let inventory = try BundleReader.inventory(of: app.path)
        XCTAssertEqual(inventory.images.map(\.path).sorted(), ["a/icon.png", "a/toB/other.png"])
        XCTAssertEqual(inventory.warnings, ["a/toB/toA: symbolic link loops back to `a`; not followed"])
    }

    /// Debian installs GNUstep apps with `Resources` linked into /usr/share: read that way, the
    /// installed app resolves every name exactly as the corpus copy (links resolved) does.
    func testDebiansInstalledGridlockReadsThroughItsLink() throws {
        let installed = "/usr/lib/GNUstep/Applications/Gridlock.app"
        guard FileManager.default.fileExists(atPath: installed + "/Resources") else {
            throw XCTSkip("Debian's gridlock.app is not installed (`.ci/run` installs it)")
        }
        let fromDebian = try BundleReader.inventory(of: installed)
        XCTAssertTrue(fromDebian.warnings.isEmpty, "\(fromDebian.warnings)")
        XCTAssertTrue(fromDebian.images.allSatisfy { $0.details["link"]?.hasPrefix("Resources → ") == true })
        guard let corpus = Corpus.root?.appendingPathComponent("e2e/gridlock/Gridlock.app") else { throw XCTSkip(Corpus.missingMessage) }
        let copy = try BundleReader.inventory(of: corpus.path)
        XCTAssertEqual(fromDebian.images.map(\.id), copy.images.map(\.id))
        XCTAssertEqual(fromDebian.images.map(\.name), copy.images.map(\.name))
        XCTAssertEqual(fromDebian.images.map(\.pixelWidth), copy.images.map(\.pixelWidth))
        XCTAssertEqual(fromDebian.bundles.first?.info?.iconFiles, copy.bundles.first?.info?.iconFiles)
    }

    func testZipBombsAreRefused() throws {
        // Declared: 20 MiB of zeros compress about a thousandfold.
        let zeros = [UInt8](repeating: 0, count: 20 << 20)
        let bomb = try zip("bomb.ipa", [("Payload/App.app/icon.png", icon), ("Payload/App.app/bomb.png", zeros)], compress: true)
        let inventory = try BundleReader.inventory(of: bomb.path)
        XCTAssertEqual(inventory.images.map(\.path), ["icon.png"])
        XCTAssertTrue(inventory.warnings.contains { $0.hasPrefix("Payload/App.app/bomb.png") && $0.contains("zip bomb") })

        // Real: the headers say 200 bytes, the data inflates to 64 KiB; reading stops at the lie.
        let liar = try zip(
            "liar.ipa",
            [
                ("Payload/App.app/a.png", icon + [UInt8](repeating: 0, count: 64 << 10)),
                ("Payload/App.app/b.png", icon + [UInt8](repeating: 1, count: 64 << 10)),
            ], compress: true)
        var bytes = [UInt8](try Data(contentsOf: liar))
        patchUncompressedSizes(&bytes, to: 200)
        try Data(bytes).write(to: liar)
        let lied = try BundleReader.inventory(of: liar.path)
        XCTAssertEqual(lied.warnings.filter { $0.contains("inflates past its declared 200 bytes") }.count, 4, "\(lied.warnings)")
        XCTAssertTrue(lied.images.allSatisfy { $0.digest == nil && $0.pixelWidth == nil })
    }

    /// Rewrites every local and central header's uncompressed size.
    private func patchUncompressedSizes(_ bytes: inout [UInt8], to size: UInt32) {
        var i = 0
        while i + 46 < bytes.count {
            if bytes[i..<i + 4].elementsEqual([0x50, 0x4B, 0x03, 0x04]) {
                bytes.replaceSubrange(i + 22..<i + 26, with: le32(size))
            } else if bytes[i..<i + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) {
                bytes.replaceSubrange(i + 24..<i + 28, with: le32(size))
            }
            i += 1
        }
    }

    func testCorruptZipIsAnInputErrorNamingTheFile() throws {
        let url = temp.appendingPathComponent("broken.ipa")
        try Data([0x50, 0x4B, 0x03, 0x04] + [UInt8](repeating: 0xAB, count: 500)).write(to: url)
        XCTAssertThrowsError(try BundleReader.inventory(of: url.path)) { error in
            let input = error as? InputError
            XCTAssertEqual(input?.path, url.path)
            XCTAssertTrue(input?.reason.contains("zip") ?? false)
        }
        XCTAssertThrowsError(try BundleReader.inventory(of: temp.appendingPathComponent("nothing.app").path)) { error in
            XCTAssertEqual((error as? InputError)?.reason, "no such file or folder")
        }
        try write(Array("just text".utf8), "notes.txt")
        XCTAssertThrowsError(try BundleReader.inventory(of: temp.appendingPathComponent("notes.txt").path))
    }

    func testCorruptPlistNibAndImageAreWarningsWithPaths() throws {
        try write(Array("bplist00".utf8) + [UInt8](repeating: 0xEE, count: 40), "Bad.app/Info.plist")
        try write(Array("NIBArchive".utf8) + le32(1) + le32(10) + le32(0xFFFF_FFFF) + le32(0), "Bad.app/Main.nib")
        try write(Array(ImageWriter.png(width: 10, height: 10).prefix(20)), "Bad.app/cut.png")
        try write(ImageWriter.png(width: 100_000, height: 100_000), "Bad.app/huge.png")
        try write(Array("not a png".utf8), "Bad.app/fake.png")
        let inventory = try BundleReader.inventory(of: temp.appendingPathComponent("Bad.app").path)
        let warnings = inventory.warnings.joined(separator: "\n")
        XCTAssertTrue(warnings.contains("Info.plist: offset"), warnings)
        XCTAssertTrue(warnings.contains("Main.nib: offset"), warnings)
        XCTAssertTrue(warnings.contains("cut.png: offset"), warnings)
        XCTAssertTrue(warnings.contains("huge.png: claims 100000×100000 pixels"), warnings)
        XCTAssertTrue(warnings.contains("fake.png: `.png` file that is no image format"), warnings)
        XCTAssertEqual(inventory.images.first { $0.path == "huge.png" }?.decodedBytes, 40_000_000_000)
    }

    func testJunkIsReported() throws {
        let url = try zip(
            "junk.ipa",
            [
                ("Payload/App.app/icon.png", icon), ("Payload/App.app/.DS_Store", [0, 0, 0, 1]),
                ("__MACOSX/Payload/App.app/._icon.png", [0, 5, 22, 7]),
                ("Payload/App.app/Thumbs.db", [1]),
            ])
        let inventory = try BundleReader.inventory(of: url.path)
        XCTAssertEqual(inventory.junk, [".DS_Store", "Thumbs.db", "__MACOSX"])
        XCTAssertEqual(inventory.images.map(\.path), ["icon.png"])
    }

    func testMacOSAppWithFrameworkLocalisationAndXMLPlist() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>CFBundleIdentifier</key><string>com.example.mac</string>
            <key>CFBundleIconFile</key><string>AppIcon</string>
            <key>DTPlatformName</key><string>macosx</string>
            </dict></plist>
            """
        try write(Array(plist.utf8), "Mac.app/Contents/Info.plist")
        try write(ImageWriter.tiff(width: 64, height: 64, bigEndian: true), "Mac.app/Contents/Resources/toolbar.tiff")
        try write(ImageWriter.png(width: 20, height: 20), "Mac.app/Contents/Resources/en.lproj/hello@2x.png")
        try write(ImageWriter.png(width: 20, height: 20), "Mac.app/Contents/Resources/de.lproj/hello@2x.png")
        try write(ImageWriter.png(width: 8, height: 8), "Mac.app/Contents/Frameworks/Kit.framework/Versions/A/Resources/fw.png")
        try FileManager.default.createSymbolicLink(
            atPath: temp.appendingPathComponent("Mac.app/Contents/Frameworks/Kit.framework/Versions/Current").path,
            withDestinationPath: "A")
        let inventory = try BundleReader.inventory(of: temp.appendingPathComponent("Mac.app").path)
        XCTAssertEqual(inventory.bundles.map(\.id), [".", "Contents/Frameworks/Kit.framework"])
        XCTAssertEqual(inventory.bundles[0].resourceRoot, "Contents/Resources")
        XCTAssertEqual(inventory.bundles[0].info?.bundleIdentifier, "com.example.mac")
        XCTAssertEqual(inventory.bundles[0].localizations, ["de", "en"])
        XCTAssertEqual(inventory.bundles[1].resourceRoot, "Contents/Frameworks/Kit.framework/Versions/A/Resources")
        let names = inventory.images.map { "\($0.bundle) \($0.name) \($0.scale) \($0.localization ?? "-")" }
        XCTAssertEqual(
            names,
            [
                "Contents/Frameworks/Kit.framework fw 1 -", ". hello 2 de", ". hello 2 en", ". toolbar 1 -",
            ])
        XCTAssertEqual(inventory.warnings, [])
    }

    func testXcarchiveFindsItsAppThroughInfoPlist() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>ApplicationProperties</key><dict>
            <key>ApplicationPath</key><string>Applications/Shop.app</string></dict>
            <key>ArchiveVersion</key><integer>2</integer></dict></plist>
            """
        try write(Array(plist.utf8), "Shop.xcarchive/Info.plist")
        try write(icon, "Shop.xcarchive/Products/Applications/Shop.app/AppIcon60x60@2x.png")
        try write(ImageWriter.jpeg(width: 1200, height: 800), "Shop.xcarchive/Products/Applications/Shop.app/hero~ipad.jpg")
        let inventory = try BundleReader.inventory(of: temp.appendingPathComponent("Shop.xcarchive").path)
        XCTAssertEqual(inventory.bundles.first?.name, "Shop.app")
        XCTAssertEqual(inventory.images.map(\.path), ["AppIcon60x60@2x.png", "hero~ipad.jpg"])
        XCTAssertEqual(inventory.images.map(\.name), ["AppIcon60x60", "hero.jpg"])
        XCTAssertEqual(inventory.images.map(\.idiom), ["universal", "pad"])
    }

    func testDigestsOnlyWhereSizesCollide() throws {
        try write(ImageWriter.png(width: 40, height: 40), "Dup.app/a@2x.png")
        try write(ImageWriter.png(width: 40, height: 40), "Dup.app/b@2x.png")
        try write(ImageWriter.png(width: 41, height: 40), "Dup.app/c@2x.png")  // same size, other bytes
        try write(ImageWriter.png(width: 7, height: 7, extra: [ImageWriter.pngChunk("tEXt", [1, 2, 3])]), "Dup.app/unique.png")
        let inventory = try BundleReader.inventory(of: temp.appendingPathComponent("Dup.app").path)
        let digests = Dictionary(uniqueKeysWithValues: inventory.images.map { ($0.path, $0.digest) })
        XCTAssertNotNil(digests["a@2x.png"]!)
        XCTAssertEqual(digests["a@2x.png"]!, digests["b@2x.png"]!)
        XCTAssertNotEqual(digests["a@2x.png"]!, digests["c@2x.png"]!)
        XCTAssertNil(digests["unique.png"]!)
        XCTAssertEqual(digests["a@2x.png"]!?.count, 64)
    }

    func testSourceCatalogNamespacesAndMissingFiles() throws {
        try write(Array(#"{"info":{"version":1,"author":"xcode"}}"#.utf8), "A.xcassets/Contents.json")
        try write(Array(#"{"properties":{"provides-namespace":true},"info":{"version":1}}"#.utf8), "A.xcassets/Icons/Contents.json")
        try write(
            Array(
                #"{"images":[{"idiom":"universal","filename":"star.png","scale":"2x"},{"idiom":"universal","filename":"gone.png","scale":"3x"},{"idiom":"universal","scale":"1x"}],"info":{"version":1}}"#
                    .utf8),
            "A.xcassets/Icons/star.imageset/Contents.json")
        try write(ImageWriter.png(width: 48, height: 48), "A.xcassets/Icons/star.imageset/star.png")
        try write(ImageWriter.png(width: 48, height: 48), "A.xcassets/Icons/star.imageset/orphan.png")
        try write(Array("{ not json".utf8), "A.xcassets/broken.imageset/Contents.json")
        let inventory = try BundleReader.inventory(of: temp.appendingPathComponent("A.xcassets").path)
        XCTAssertEqual(inventory.images.map(\.name), ["Icons/star"])
        XCTAssertEqual(inventory.images.first?.scale, 2)
        let warnings = inventory.warnings.joined(separator: "\n")
        XCTAssertTrue(warnings.contains("names `gone.png`, which is not in the set"), warnings)
        XCTAssertTrue(warnings.contains("orphan.png: in the set but not named"), warnings)
        XCTAssertTrue(warnings.contains("broken.imageset/Contents.json: not readable JSON"), warnings)
    }

    func testDeterministic() throws {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let ipa = root.appendingPathComponent("bundles/bitbar-reactnative-2023-device-ipa/BitBarSampleApp.ipa").path
        let a = try BundleReader.inventory(of: ipa), b = try BundleReader.inventory(of: ipa)
        XCTAssertEqual(a.images, b.images)
        XCTAssertEqual(a.references, b.references)
    }
}
