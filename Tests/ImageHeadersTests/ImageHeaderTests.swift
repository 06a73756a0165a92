import ImageHeaders
import TestSupport
import XCTest

final class ImageHeaderTests: XCTestCase {
    private func info(_ bytes: [UInt8], prefix: Int? = nil) throws -> ImageInfo? {
        let given = Array(bytes.prefix(prefix ?? bytes.count))
        return try given.withUnsafeBytes { try ImageHeaderReader.read($0, fileSize: bytes.count) }
    }

    private func readGrowing(_ bytes: [UInt8]) throws -> ImageInfo? {
        try ImageHeaderReader.read(fileSize: bytes.count) { Array(bytes.prefix($0)) }
    }

    func testPlainPNG() throws {
        let i = try XCTUnwrap(try info(ImageWriter.png(width: 640, height: 1136)))
        XCTAssertEqual(i.format, .png)
        XCTAssertEqual(i.pixelWidth, 640)
        XCTAssertEqual(i.pixelHeight, 1136)
        XCTAssertFalse(i.cgbi)
        XCTAssertEqual(i.hasAlpha, true)
        XCTAssertEqual(i.decodedBytes, 640 * 1136 * 4)
    }

    func testCgBIPNGHasIHDRAfterAppleChunk() throws {
        let bytes = ImageWriter.png(width: 57, height: 57, cgbi: true)
        XCTAssertEqual(Array(bytes[12..<16]), Array("CgBI".utf8))
        let i = try XCTUnwrap(try info(bytes))
        XCTAssertTrue(i.cgbi)
        XCTAssertEqual(i.pixelWidth, 57)
        XCTAssertEqual(i.pixelHeight, 57)
    }

    func testPNGBytesPerPixelFollowColourTypeAndDepth() throws {
        XCTAssertEqual(try info(ImageWriter.png(width: 10, height: 10, colorType: 0))?.bytesPerPixel, 1)
        XCTAssertEqual(try info(ImageWriter.png(width: 10, height: 10, colorType: 4))?.bytesPerPixel, 2)
        XCTAssertEqual(try info(ImageWriter.png(width: 10, height: 10, colorType: 2))?.bytesPerPixel, 4)
        XCTAssertEqual(try info(ImageWriter.png(width: 10, height: 10, bitDepth: 16, colorType: 6))?.bytesPerPixel, 8)
        let palette = try XCTUnwrap(try info(ImageWriter.png(width: 10, height: 10, colorType: 3)))
        XCTAssertEqual(palette.hasAlpha, false)
        let transparent = try XCTUnwrap(
            try info(
                ImageWriter.png(
                    width: 10, height: 10, colorType: 3,
                    extra: [ImageWriter.pngChunk("tRNS", [0])])))
        XCTAssertEqual(transparent.hasAlpha, true)
    }

    func testJPEGWalksMarkersPastALargeExifBlock() throws {
        let bytes = ImageWriter.jpeg(width: 4032, height: 3024, app1Bytes: 60_000)
        // 4 KiB is not enough: the reader asks for more, and the growing read finds the frame.
        XCTAssertThrowsError(try info(bytes, prefix: 4096)) { error in
            guard case .needMoreBytes = error as? ImageHeaderError else { return XCTFail("\(error)") }
        }
        let i = try XCTUnwrap(try readGrowing(bytes))
        XCTAssertEqual(i.format, .jpeg)
        XCTAssertEqual(i.pixelWidth, 4032)
        XCTAssertEqual(i.pixelHeight, 3024)
        XCTAssertEqual(i.colorModel, .ycbcr)
        XCTAssertEqual(try info(ImageWriter.jpeg(width: 8, height: 8, components: 1))?.bytesPerPixel, 1)
    }

    func testGIFWebPAndBMP() throws {
        XCTAssertEqual(try info(ImageWriter.gif(width: 300, height: 200)).map { [$0.pixelWidth, $0.pixelHeight] }, [300, 200])
        // VP8L packs width-1 and height-1 in 14 bits each, then the alpha bit.
        let vp8l: UInt32 = (99) | (49 << 14) | (1 << 28)
        let lossless = Array("RIFF".utf8) + le32(30) + Array("WEBPVP8L".utf8) + le32(10) + [0x2F] + le32(vp8l) + [0, 0, 0, 0, 0]
        let l = try XCTUnwrap(try info(lossless))
        XCTAssertEqual([l.pixelWidth, l.pixelHeight], [100, 50])
        XCTAssertEqual(l.hasAlpha, true)
        let extended =
            Array("RIFF".utf8) + le32(30) + Array("WEBPVP8X".utf8) + le32(10) + [0x10, 0, 0, 0]
            + [0xFF, 0x03, 0x00] + [0x57, 0x02, 0x00]
        let x = try XCTUnwrap(try info(extended))
        XCTAssertEqual([x.pixelWidth, x.pixelHeight], [1024, 600])
        let lossy = Array("RIFF".utf8) + le32(30) + Array("WEBPVP8 ".utf8) + le32(10) + [0, 0, 0, 0x9D, 0x01, 0x2A] + le16(320) + le16(240)
        XCTAssertEqual(try info(lossy).map { [$0.pixelWidth, $0.pixelHeight] }, [320, 240])
        let bmp = Array("BM".utf8) + le32(0) + le32(0) + le32(54) + le32(40) + le32(64) + le32(UInt32(bitPattern: -32)) + le16(1) + le16(32)
        let b = try XCTUnwrap(try info(bmp))
        XCTAssertEqual([b.pixelWidth, b.pixelHeight], [64, 32])
        XCTAssertEqual(b.hasAlpha, true)
    }

    func testHEICTakesThePrimaryItemsExtentNotATile() throws {
        let i = try XCTUnwrap(try info(ImageWriter.heic(width: 4032, height: 3024)))
        XCTAssertEqual(i.format, .heic)
        XCTAssertEqual([i.pixelWidth, i.pixelHeight], [4032, 3024])
    }

    func testTIFFInBothByteOrders() throws {
        for bigEndian in [false, true] {
            let i = try XCTUnwrap(try info(ImageWriter.tiff(width: 100, height: 60, bigEndian: bigEndian)))
            XCTAssertEqual([i.pixelWidth, i.pixelHeight], [100, 60], "big endian: \(bigEndian)")
            XCTAssertEqual(i.hasAlpha, true)
        }
    }

    func testICOAndICNSTakeTheLargestImage() throws {
        let ico =
            [0, 0, 1, 0] + le16(2) + [16, 16, 0, 0] + le16(1) + le16(32) + le32(0) + le32(0)
            + [0, 0, 0, 0] + le16(1) + le16(32) + le32(0) + le32(0)
        XCTAssertEqual(try info(ico).map { [$0.pixelWidth, $0.pixelHeight] }, [256, 256])
        let icns = Array("icns".utf8) + be32(24) + Array("ic09".utf8) + be32(8) + Array("is32".utf8) + be32(8)
        XCTAssertEqual(try info(icns).map { [$0.pixelWidth, $0.pixelHeight] }, [512, 512])
    }

    func testVectorSizesInPoints() throws {
        let pdf = Array("%PDF-1.4\n1 0 obj << /Type /Page /MediaBox [0 0 24.5 30] >> endobj\n".utf8)
        let p = try XCTUnwrap(try info(pdf))
        XCTAssertEqual(p.format, .pdf)
        XCTAssertEqual(p.pointWidth, 24.5)
        XCTAssertEqual(p.pointHeight, 30)
        XCTAssertNil(p.decodedBytes)
        let svg = Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"48px\" height='32' viewBox=\"0 0 96 64\">".utf8)
        XCTAssertEqual(try info(svg).map { [$0.pointWidth, $0.pointHeight] }, [48, 32])
        let viewBoxOnly = Array("<svg viewBox=\"0 0 20 10\" xmlns=\"http://www.w3.org/2000/svg\"></svg>".utf8)
        XCTAssertEqual(try info(viewBoxOnly).map { [$0.pointWidth, $0.pointHeight] }, [20, 10])
    }

    func testNonImagesAreNil() throws {
        XCTAssertNil(try info(Array("bplist00 not an image".utf8)))
        XCTAssertNil(try info([0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2]))
        XCTAssertNil(try info([]))
    }

    func testHostileHeadersGiveErrorsWithOffsets() throws {
        // Truncated inside IHDR: the whole file is given, so it is malformed, not "read more".
        let truncated = Array(ImageWriter.png(width: 10, height: 10).prefix(20))
        XCTAssertThrowsError(try info(truncated)) { error in
            guard case let .malformed(format, offset, _) = error as? ImageHeaderError else { return XCTFail("\(error)") }
            XCTAssertEqual(format, .png)
            XCTAssertGreaterThan(offset, 8)
        }
        XCTAssertThrowsError(try info(ImageWriter.png(width: 0, height: 10)))
        XCTAssertThrowsError(try info(ImageWriter.jpeg(width: 10, height: 0)))
        // A chunk length that would overflow the offset arithmetic.
        var huge = ImageWriter.png(width: 1, height: 1, cgbi: true)
        huge.replaceSubrange(8..<12, with: [0xFF, 0xFF, 0xFF, 0xF0])
        XCTAssertThrowsError(try info(huge))
    }

    func testGiantClaimedSizeIsCountedWithoutOverflow() throws {
        let i = try XCTUnwrap(try info(ImageWriter.png(width: 100_000, height: 100_000)))
        XCTAssertEqual(i.decodedBytes, 40_000_000_000)
        let max = try XCTUnwrap(try info(ImageWriter.png(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, bitDepth: 16)))
        XCTAssertEqual(max.pixelWidth, 0x7FFF_FFFF)
        XCTAssertNil(max.decodedBytes)  // (2^31)² × 8 overflows 64 bits: unknown, not a crash
        XCTAssertNil(ImageInfo.decodedBytes(width: Int.max / 2, height: 3, bytesPerPixel: 4))
    }
}
