@testable import AppBundle
import ImgtraceSupport
import TestSupport
import XCTest

/// Headers read ahead on every core (a small file that may be a duplicate digested from the
/// same read) and duplicates digested on every core must give the inventory the
/// one-file-at-a-time reading gives.
final class ReadAheadTests: XCTestCase {
    func testParallelMapKeepsTheElementsOrder() {
        for count in [0, 1, 2, 63, 64, 65, 10_007] {
            let elements = (0..<count).map { $0 * 7 }
            XCTAssertEqual(parallelMap(elements) { "\($0)" }, elements.map { "\($0)" }, "\(count) elements")
        }
    }

    /// A bundle with every case the duplicate pass meets: twins, files of one size that differ,
    /// twins larger than the first read (digested by the duplicate pass), empty images, a header cut short, a header that needs more
    /// than the first 4 KiB (a JPEG's APP1 block before its size).
    private func files() -> [String: [UInt8]] {
        let twin = ImageWriter.png(width: 30, height: 40)
        let large = ImageWriter.png(width: 9, height: 9) + [UInt8](repeating: 7, count: 64 << 10)
        var sameSizeA = ImageWriter.png(width: 5, height: 5)
        var sameSizeB = sameSizeA
        sameSizeA[sameSizeA.count - 13] ^= 1
        sameSizeB[sameSizeB.count - 14] ^= 1
        return [
            "Info.plist": Array("<plist><dict><key>CFBundleIdentifier</key><string>t.read.ahead</string></dict></plist>".utf8),
            "twin.png": twin, "twin@2x.png": twin, "sub/twin.png": twin,
            "same-a.png": sameSizeA, "same-b.png": sameSizeB,
            "large.png": large, "large-copy.png": large,
            "empty.png": [], "empty2.png": [],
            "cut.png": Array(twin.prefix(20)), "cut2.png": Array(twin.prefix(20)),
            "deep.jpg": ImageWriter.jpeg(width: 64, height: 48, app1Bytes: 9000),
            "deep-copy.jpg": ImageWriter.jpeg(width: 64, height: 48, app1Bytes: 9000),
            "alone.gif": ImageWriter.gif(width: 3, height: 4),
        ]
    }

    func testAFolderReadAheadGivesTheInventoryReadOneFileAtATime() throws {
        let files = files()
        let root = try BinaryRunner.temporaryDirectory().appendingPathComponent("ReadAhead.app")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        XCTAssertTrue(try DirectoryTree(root: root.path).readsConcurrently)
        XCTAssertFalse(MemoryTree(files).readsConcurrently)
        let onDisk = try BundleReader.inventory(of: root.path)
        let inMemory = try BundleReader.inventory(ofTree: MemoryTree(files), name: "ReadAhead.app")
        XCTAssertEqual(onDisk.images, inMemory.images)
        XCTAssertEqual(onDisk.warnings, inMemory.warnings)
        let digested = onDisk.images.filter { $0.digest != nil }.map(\.id)
        XCTAssertEqual(
            digested.sorted(),
            ["cut.png", "cut2.png", "deep-copy.jpg", "deep.jpg", "large-copy.png", "large.png", "sub/twin.png", "twin.png", "twin@2x.png"])
    }

    func testAReadThatTookTheWholeFileGivesItsDigest() throws {
        let tree = MemoryTree(files())
        var digested: [String] = []
        for entry in tree.entries where entry.kind == .file {
            let twin = HeaderRead(tree, path: entry.path, size: entry.size, mayHaveTwin: true)
            let alone = HeaderRead(tree, path: entry.path, size: entry.size, mayHaveTwin: false)
            XCTAssertEqual(twin.firstBytes, alone.firstBytes, entry.path)
            XCTAssertEqual("\(twin.header)", "\(alone.header)", entry.path)
            XCTAssertNil(alone.digest, entry.path)
            if let digest = twin.digest {
                XCTAssertEqual(digest, try tree.sha256(entry.path), entry.path)
                digested.append(entry.path)
            }
            // Within the first 4 KiB the first read is the whole file.
            if entry.size <= 4096 { XCTAssertNotNil(twin.digest, entry.path) }
        }
        XCTAssertFalse(digested.contains("large.png"), "64 KiB whose header is in its first 4 KiB: read in part")
        XCTAssertTrue(digested.contains("deep.jpg"), "a header past 4 KiB: the second read took the whole file")
        // A file gone since the walk: no digest, and the header read says why.
        let gone = HeaderRead(tree, path: "missing.png", size: 10, mayHaveTwin: true)
        XCTAssertNil(gone.digest)
        XCTAssertThrowsError(try gone.header.get())
    }
}
