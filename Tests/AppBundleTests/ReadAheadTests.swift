@testable import AppBundle
import ImgtraceSupport
import TestSupport
import XCTest

/// Headers read ahead on every core (each file's size learnt as it is opened) and duplicates
/// digested on every core must give the inventory the one-file-at-a-time reading gives.
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

    private func write(_ files: [String: [UInt8]], to root: URL) throws {
        for (path, bytes) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
    }

    func testAFolderReadAheadGivesTheInventoryReadOneFileAtATime() throws {
        let files = files()
        let root = try BinaryRunner.temporaryDirectory().appendingPathComponent("ReadAhead.app")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        try write(files, to: root)
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

    /// A tree walked without sizes learns each when the file is opened: the header, the first
    /// bytes' hash and the size are those a walk with sizes gives; a file gone since the walk has
    /// size 0 and its header read says why.
    func testSizesLearntOnOpeningAreTheListedOnes() throws {
        let files = files()
        let root = try BinaryRunner.temporaryDirectory().appendingPathComponent("Sizes.app")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        try write(files, to: root)
        let listed = try DirectoryTree(root: root.path)
        let whenRead = try DirectoryTree(root: root.path, sizes: .whenRead)
        var compared = 0
        for (early, late) in zip(listed.entries, whenRead.entries) where early.kind == .file {
            XCTAssertEqual(late.size, TreeEntry.unlisted, late.path)
            XCTAssertEqual(whenRead.size(of: late.path, listed: late.size), early.size, late.path)
            let known = HeaderRead(listed, path: early.path, listedSize: early.size)
            let learnt = HeaderRead(whenRead, path: late.path, listedSize: late.size)
            XCTAssertEqual(learnt.size, early.size, late.path)
            XCTAssertEqual(learnt.firstBytes, known.firstBytes, late.path)
            XCTAssertEqual("\(learnt.header)", "\(known.header)", late.path)
            compared += 1
        }
        XCTAssertEqual(compared, files.count, "every file, Info.plist too")
        let gone = HeaderRead(whenRead, path: "missing.png", listedSize: TreeEntry.unlisted)
        XCTAssertEqual(gone.size, 0)
        XCTAssertThrowsError(try gone.header.get())
    }

    /// Twins are hashed a content at a time: a copy takes the digest of the bytes it equals, a hard
    /// or symbolic link that of its file, and every file's digest is the one `sha256` gives it
    /// alone; a file that cannot be read fails as it fails alone.
    func testTwinsTakeTheDigestOfTheBytesTheyEqual() throws {
        let root = try BinaryRunner.temporaryDirectory().appendingPathComponent("Twins.app")
        defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
        let twin = ImageWriter.png(width: 30, height: 40)
        var files: [String: [UInt8]] = ["a.png": twin, "b.png": twin, "empty.png": [], "big.png": twin + [UInt8](repeating: 3, count: 2 << 20)]
        files["big-copy.png"] = files["big.png"]
        for variant in 0..<12 {
            var other = twin
            other[other.count - 13] ^= UInt8(variant + 1)
            files["other\(variant).png"] = other
        }
        try write(files, to: root)
        try FileManager.default.linkItem(at: root.appendingPathComponent("a.png"), to: root.appendingPathComponent("hard.png"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("soft.png"), withDestinationURL: root.appendingPathComponent("b.png"))
        let paths =
            ["a.png", "other0.png", "b.png", "hard.png", "soft.png", "empty.png", "big.png", "big-copy.png", "missing.png"]
            + (1..<12).map { "other\($0).png" } + ["other0.png", "b.png"]
        let together = try DirectoryTree(root: root.path, sizes: .whenRead).sha256(ofTwins: paths)
        let alone = try DirectoryTree(root: root.path)
        for (path, digest) in zip(paths, together) {
            XCTAssertEqual("\(Result { try alone.sha256(path) })", "\(digest)", path)
        }
        XCTAssertEqual(Set(zip(paths, together).filter { $0.0.hasPrefix("other") }.compactMap { try? $0.1.get() }).count, 12)
        XCTAssertThrowsError(try together[paths.firstIndex(of: "missing.png")!].get())
    }
}
