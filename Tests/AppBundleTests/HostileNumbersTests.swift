@testable import AppBundle
import AssetCatalog
import ImageHeaders
import ImgtraceSupport
import TestSupport
import XCTest

/// Numbers, references and counts from hostile files: each class of issue 12, with its input
/// built here. None may trap; each gives an error with an offset or a warning.
final class HostileNumbersTests: XCTestCase {
    // MARK: Files

    /// Two links to one large file (sizes and first bytes collide, so the duplicate finder
    /// hashes): its bytes are read once, by the file's identity (issue 40).
    func testLinksToOneFileAreHashedOnce() throws {
        let root = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let big = root.appendingPathComponent("hero.png")
        try Data(ImageWriter.png(width: 20, height: 20)).write(to: big)
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        try FileManager.default.linkItem(at: big, to: root.appendingPathComponent("hero_copy.png"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("hero_link.png"), withDestinationURL: big)
        let tree = try DirectoryTree(root: root.path)
        let digests = try ["hero.png", "hero_copy.png", "hero_link.png"].map { try tree.sha256($0) }
        XCTAssertEqual(Set(digests).count, 1)
        XCTAssertEqual(tree.filesHashed, 1)
    }

    // MARK: Binary property lists

    func testArrayCountThatOverflowsWhenScaledByTheReferenceSize() {
        let bytes = BinaryPlistWriter.build([.lyingArray(count: 1 << 62, refs: [0])], refSize: 8)
        XCTAssertThrowsError(try PropertyList.parse(bytes)) { error in
            XCTAssertTrue("\(error)".contains("too large"), "\(error)")
        }
    }

    func testReferenceOfTwoToTheSixtyThreeIsRefusedNotNegative() {
        let bytes = BinaryPlistWriter.build([.array([0x8000_0000_0000_0000]), .string("x")], refSize: 8)
        XCTAssertThrowsError(try PropertyList.parse(bytes)) { error in
            XCTAssertEqual((error as? FormatError)?.reason, "value 0x8000000000000000 out of range")
        }
    }

    func testTopObjectAndOffsetsOutOfRange() {
        XCTAssertThrowsError(try PropertyList.parse(BinaryPlistWriter.build([.string("a")], top: 5)))
        var bytes = BinaryPlistWriter.build([.string("a")])
        // The one offset-table entry (4 bytes before the trailer) points past the end.
        let table = bytes.count - 32 - 4
        bytes.replaceSubrange(table..<table + 4, with: [0x7F, 0xFF, 0xFF, 0xFF])
        XCTAssertThrowsError(try PropertyList.parse(bytes))
    }

    func testSharedContainersCannotMultiplyWork() {
        // Ten levels of arrays, each holding the next one 40 times: 40^10 paths in a tiny file.
        var objects: [BinaryPlistWriter.Object] = []
        for level in 0..<10 { objects.append(.array([UInt64](repeating: UInt64(level + 1), count: 40))) }
        objects.append(.string("leaf"))
        XCTAssertThrowsError(try PropertyList.parse(BinaryPlistWriter.build(objects))) { error in
            XCTAssertTrue("\(error)".contains("shared objects"), "\(error)")
        }
    }

    /// Found by fuzzing: Foundation's binary plist reader crashes (a bad pointer in the Swift
    /// runtime) on hostile bytes behind a version other than 00, so no such file reaches it.
    func testBinaryPlistVersionsOtherThan00NeverReachFoundation() throws {
        var bytes = BinaryPlistWriter.build(.dict([("CFBundleIdentifier", .string("x")), ("CFBundleExecutable", .string("y"))]))
        for version in ["0/", "0\u{B0}", "15", "16"] {
            bytes.replaceSubrange(6..<8, with: Array(version.utf8).prefix(2))
            XCTAssertThrowsError(try PropertyList.parse(bytes), version) { error in
                XCTAssertEqual((error as? FormatError)?.offset, 6)
            }
        }
    }

    /// Found by fuzzing: Foundation leaks on every input it fails to parse, so bytes that
    /// cannot be a text plist never reach it; real XML and OpenStep plists still do.
    func testOnlyPlausibleTextPlistsReachFoundation() throws {
        for junk in ["hello world", "\u{0}\u{1}\u{2}", "", "   // only a comment\n", "x = y;"] {
            XCTAssertThrowsError(try PropertyList.parse(Array(junk.utf8)), junk) { error in
                XCTAssertTrue("\(error)".contains("neither bplist00, XML nor OpenStep"), "\(error)")
            }
        }
        let openStep = try PropertyList.parse(Array("/* GNUstep */\n{ ApplicationName = Gridlock; NSIcon = \"Gridlock.tiff\"; }".utf8))
        XCTAssertEqual(openStep["NSIcon"]?.string, "Gridlock.tiff")
        let xml = try PropertyList.parse([0xEF, 0xBB, 0xBF] + Array("<?xml version=\"1.0\"?><plist><dict><key>a</key><string>b</string></dict></plist>".utf8))
        XCTAssertEqual(xml["a"]?.string, "b")
    }

    func testAContainerHoldingItselfIsACycle() {
        XCTAssertThrowsError(try PropertyList.parse(BinaryPlistWriter.build([.array([0])])))
    }

    // MARK: Nibs

    func testKeyedNibWhoseUIDsPointAtThemselves() throws {
        let bytes = BinaryPlistWriter.build(
            .dict([
                (
                    "$objects",
                    .array([
                        .string("$null"),
                        .dict([("$class", .uid(2)), ("UIResourceName", .uid(3))]),
                        .dict([("$classname", .string("UIImageNibPlaceholder"))]),
                        .dict([("NS.string", .uid(3))]),
                    ])
                )
            ]))
        XCTAssertEqual(try NibReferences.imageNames(in: bytes), [])
        // The same nib with a real string names it, so the chain-following is still used.
        XCTAssertEqual(try NibReferences.imageNames(in: BinaryPlistWriter.keyedNib(images: ["logo"])), ["logo"])
    }

    func testKeyedNibWithNegativeAndHugeClassUIDs() throws {
        for classUID in [-1, Int.max, 1 << 40] {
            let bytes = BinaryPlistWriter.build(
                .dict([
                    (
                        "$objects",
                        .array([
                            .string("$null"), .dict([("$class", .uid(classUID)), ("UIResourceName", .string("x"))]),
                        ])
                    )
                ]))
            XCTAssertEqual((try? NibReferences.imageNames(in: bytes)) ?? [], [], "class UID \(classUID)")
        }
    }

    // MARK: Image headers

    func testHEIFWithTwoHugeExtentsAndNoPrimaryItem() {
        let ispe = ImageWriter.box("ispe", [0, 0, 0, 0] + be32(.max) + be32(.max))
        let heif =
            ImageWriter.box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8))
            + ImageWriter.box("meta", [0, 0, 0, 0] + ImageWriter.box("iprp", ImageWriter.box("ipco", ispe + ispe)))
        XCTAssertThrowsError(try heif.withUnsafeBytes { try ImageHeaderReader.read($0, fileSize: heif.count) }) { error in
            XCTAssertTrue("\(error)".contains("beyond any real image"), "\(error)")
        }
    }

    func testPNGClaimingFourBillionPixelsEachWay() {
        let png = ImageWriter.png(width: .max, height: .max)
        XCTAssertThrowsError(try png.withUnsafeBytes { try ImageHeaderReader.read($0, fileSize: png.count) })
        // The largest size PNG allows still reads, and its decoded size overflows to nil, not a trap.
        let largest = ImageWriter.png(width: UInt32(Int32.max), height: UInt32(Int32.max), bitDepth: 16)
        let info = try? largest.withUnsafeBytes { try ImageHeaderReader.read($0, fileSize: largest.count) }
        XCTAssertEqual(info?.pixelWidth, Int(Int32.max))
        XCTAssertNil(info?.decodedBytes)
    }

    func testVectorSizesThatAreNotFiniteOrAbsurd() throws {
        for width in ["1e300", "inf", "nan", "-5", "1e7pt", "0"] {
            let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(width)" height="10"/>"#.utf8)
            let info = try svg.withUnsafeBytes { try ImageHeaderReader.read($0, fileSize: svg.count) }
            XCTAssertNil(info?.pointWidth, width)
        }
        let pdf = Array("%PDF-1.4 /MediaBox [0 0 999999999999999999999999 792]".utf8)
        XCTAssertNil(try pdf.withUnsafeBytes { try ImageHeaderReader.read($0, fileSize: pdf.count) }?.pointWidth)
        let fine = Array(#"<svg width="24pt" height="1in"/>"#.utf8)
        XCTAssertEqual(try fine.withUnsafeBytes { try ImageHeaderReader.read($0, fileSize: fine.count) }?.pointHeight, 72)
    }

    func testSVGAttributesAreReadInOnePassWhateverTheSpacing() throws {
        // Found by fuzzing: `=` signs with no spaces made the attribute scan quadratic.
        let junk = String(repeating: "n=\"0e300\"F", count: 2000)
        let svg = Array("<svg\(junk) width = '24pt'\nheight=\"1in\" viewBox=\"0 0 5 5\">".utf8)
        let info = try svg.withUnsafeBytes { try ImageHeaderReader.read($0, fileSize: svg.count) }
        XCTAssertEqual(info?.pointWidth, 24)
        XCTAssertEqual(info?.pointHeight, 72)
    }

    // MARK: Source catalogs

    func testImagesetScalesThatAreNotScales() throws {
        let png = ImageWriter.png(width: 60, height: 60)
        var files: [String: [UInt8]] = [:]
        for (i, scale) in ["3037000500x", "-9223372036854775807x", "0x", "x", "2.5x", "3x"].enumerated() {
            files["A.xcassets/s\(i).imageset/Contents.json"] = Array(#"{"images":[{"idiom":"universal","filename":"a.png","scale":"\#(scale)"}]}"#.utf8)
            files["A.xcassets/s\(i).imageset/a.png"] = png
        }
        let inventory = try BundleReader.inventory(ofTree: MemoryTree(files), name: "A.xcassets")
        XCTAssertEqual(inventory.images.map(\.name), ["s5"], "only the 3x slot is an image")
        XCTAssertEqual(inventory.images.first?.scale, 3)
        XCTAssertEqual(inventory.warnings.filter { $0.contains("not 1x to 9x") }.count, 5, "\(inventory.warnings)")
    }

    func testLooseFileScalesOutsideOneToNineStayInTheName() {
        XCTAssertEqual(LooseImageName(fileName: "tab@3037000500x.png").scale, 1)
        XCTAssertEqual(LooseImageName(fileName: "tab@3037000500x.png").base, "tab@3037000500x")
        XCTAssertEqual(LooseImageName(fileName: "tab@3x.png").scale, 3)
    }

    // MARK: Counts that drive work

    func testOneHundredFiftyThousandIconNamesAreDeduplicatedInOrder() {
        let names = (0..<150_000).map { "Icon\($0 % 75_000)" }
        let facts = InfoPlistFacts(.dictionary(["CFBundleIconFiles": .array(names.map(PlistValue.string))]))
        XCTAssertEqual(facts.iconFiles.count, 75_000)
        XCTAssertEqual(facts.iconFiles.prefix(3), ["Icon0", "Icon1", "Icon2"])
    }

    func testFourteenThousandNestedBundles() throws {
        var files: [String: [UInt8]] = ["Info.plist": BinaryPlistWriter.build(.dict([("CFBundleExecutable", .string("App"))]))]
        for i in 0..<14_000 { files["Plugins/P\(i).bundle/Resources/Default.png"] = [] }
        let inventory = try BundleReader.inventory(ofTree: MemoryTree(files), name: "App.app")
        XCTAssertEqual(inventory.bundles.count, 14_001)
    }

    func testTwentyThousandRenditionsWithOneIdGetDistinctIds() throws {
        let images = (0..<20_000).map { _ in CatalogWriter.Image(facet: "same", name: "same.png") }
        let inventory = try BundleReader.inventory(ofTree: MemoryTree(["Assets.car": CatalogWriter.catalog(images)]), name: "App.app")
        XCTAssertEqual(inventory.images.count, 20_000)
        XCTAssertEqual(Set(inventory.images.map(\.id)).count, 20_000)
        XCTAssertTrue(inventory.images.contains { $0.id.hasSuffix("#20000") })
    }

    // MARK: Zip archives (ZIPFoundation never sees these numbers)

    private func inventory(ofZip bytes: [UInt8]) throws -> BundleInventory {
        let folder = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Hostile.ipa")
        try Data(bytes).write(to: url)
        return try BundleReader.inventory(of: url.path)
    }

    func testZIP64SizesBeyondInt64AreAnInputErrorWithTheOffset() {
        let png = ImageWriter.png(width: 10, height: 10)
        for sizes: (UInt64, UInt64) in [(.max, 100), (100, 0x8000_0000_0000_0000), (1 << 63, 1 << 63)] {
            let zip = ZipWriter.zip([ZipWriter.Entry(path: "Payload/App.app/a.png", bytes: png, zip64: sizes)])
            XCTAssertThrowsError(try inventory(ofZip: zip)) { error in
                XCTAssertTrue("\(error)".contains("offset"), "\(error)")
            }
        }
    }

    func testLinkThatClaimsFourGigabytesIsNotAllocated() throws {
        let png = ImageWriter.png(width: 10, height: 10)
        let zip = ZipWriter.zip([
            ZipWriter.Entry(path: "Payload/App.app/a.png", bytes: png),
            ZipWriter.Entry(path: "Payload/App.app/b.png", bytes: Array("a.png".utf8), isSymlink: true, claimedSize: .max),
        ])
        // The claimed size is past the archive, so the whole archive is refused before any read.
        XCTAssertThrowsError(try inventory(ofZip: zip))
        // An honest link is listed, its target read from the directory.
        let honest = ZipWriter.zip([("Payload/App.app/a.png", png)], links: [("Payload/App.app/b.png", "a.png"), ("Payload/App.app/c.png", "../../../x")])
        let found = try inventory(ofZip: honest)
        XCTAssertEqual(found.images.map(\.path), ["a.png"])
        XCTAssertTrue(found.warnings.contains { $0.hasPrefix("c.png: symbolic link") }, "\(found.warnings)")
    }

    /// ZIPFoundation takes a ZIP64 end record found right before its locator as the truth, and
    /// converts its directory offset with a trapping conversion (found by fuzzing).
    func testZIP64EndRecordIsVettedAsZIPFoundationReadsIt() throws {
        let png = ImageWriter.png(width: 10, height: 10)
        let plain = ZipWriter.zip([("Payload/App.app/a.png", png)])
        // An honest ZIP64 end record reads like the plain archive.
        XCTAssertEqual(try inventory(ofZip: ZipWriter.withZIP64End(plain)).images.map(\.path), ["a.png"])
        // A directory offset past Int64.max (and any past the end) is refused with the offset.
        // Whether or not the 32-bit fields of the end record say to look for it.
        for offset: UInt64 in [0xFFFF_FFFF_FFFF_FFFF, 1 << 63, 1 << 40] {
            for keep in [false, true] {
                XCTAssertThrowsError(try inventory(ofZip: ZipWriter.withZIP64End(plain, offset: offset, keepEndFields: keep))) { error in
                    XCTAssertTrue("\(error)".contains("central directory"), "\(error)")
                }
            }
        }
        XCTAssertThrowsError(try inventory(ofZip: ZipWriter.withZIP64End(plain, count: 1 << 62)))
        // A locator that points somewhere else than the record ZIPFoundation will read.
        XCTAssertThrowsError(try inventory(ofZip: ZipWriter.withZIP64End(plain, locatorPointer: 3))) { error in
            XCTAssertTrue("\(error)".contains("locator"), "\(error)")
        }
    }

    func testDirectoryCountsAndOffsetsThatLie() {
        let png = ImageWriter.png(width: 10, height: 10)
        var zip = ZipWriter.zip([("Payload/App.app/a.png", png)])
        // End record: entry count 0xFFFF with no ZIP64 locator, then a directory offset past the end.
        let end = zip.count - 22
        zip.replaceSubrange(end + 10..<end + 12, with: [0xFF, 0xFF])
        XCTAssertThrowsError(try inventory(ofZip: zip))
        zip = ZipWriter.zip([("Payload/App.app/a.png", png)])
        zip.replaceSubrange(end + 16..<end + 20, with: [0xFF, 0xFF, 0xFF, 0x7F])
        XCTAssertThrowsError(try inventory(ofZip: zip))
        XCTAssertThrowsError(try inventory(ofZip: Array("PK\u{03}\u{04} not really a zip".utf8)))
    }
}
