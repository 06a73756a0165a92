import Foundation
import ImgtraceSupport
import TestSupport
import XCTest

/// The one directory walker every tree reader lists through (issue 62): its link policies, its
/// folder rules, its limits and names that are not UTF-8, on trees written here.
final class DirectoryWalkTests: XCTestCase {
    private var tree: TreeWriter!
    private var root: String { tree.root.path }

    override func setUp() async throws { tree = try TreeWriter() }
    override func tearDown() async throws { tree.remove() }

    private func link(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: root + "/" + path, withDestinationPath: target)
    }

    private func listing(_ walk: DirectoryWalk) -> [String] {
        walk.entries.map { entry in
            switch entry.kind {
            case .file: return "\(entry.path) (\(entry.size))"
            case .directory: return entry.path + "/"
            case .symlink(let target): return "\(entry.path) -> \(target)"
            }
        }
    }

    func testAListedLinkIsAnEntryAndAFollowedOneIsEntered() throws {
        try tree.write("Shared/icon.png", [1, 2, 3])
        try tree.write("App/main.swift", "let a = 1\n")
        try link("App/Resources", to: "../Shared")
        let listed = try DirectoryWalk(root: root, links: .listed)
        XCTAssertEqual(listing(listed), ["App/", "App/Resources -> ../Shared", "App/main.swift (10)", "Shared/", "Shared/icon.png (3)"])
        let followed = try DirectoryWalk(root: root + "/App", links: .followed)
        XCTAssertEqual(listing(followed), ["Resources/", "Resources/icon.png (3)", "main.swift (10)"])
        XCTAssertEqual(followed.entries.first?.link, "Resources → ../Shared")
        XCTAssertEqual(followed.warnings, [])
    }

    func testAFollowedLinkBackUpIsALoopSaidOnce() throws {
        try tree.write("App/a.png", [0])
        try link("App/Again", to: ".")
        let walk = try DirectoryWalk(root: root + "/App", links: .followed)
        XCTAssertEqual(listing(walk), ["a.png (1)"])
        XCTAssertEqual(walk.warnings, ["Again: symbolic link to a folder that holds the bundle itself; not followed"])
    }

    func testFolderRulesSkipOrListWithoutEntering() throws {
        try tree.write(".git/HEAD", "ref\n")
        try tree.write("App.xcodeproj/project.pbxproj", "{}\n")
        try tree.write("Sources/a.swift", "\n")
        let walk = try DirectoryWalk(root: root, links: .listed) { name in
            name.hasPrefix(".") ? .skip : name.hasSuffix(".xcodeproj") ? .listOnly : .enter
        }
        XCTAssertEqual(listing(walk), ["App.xcodeproj/", "Sources/", "Sources/a.swift (1)"])
    }

    func testANameThatIsNotUTF8KeepsItsBytes() throws {
        let name = Array("Caf".utf8) + [0xE9] + Array(".swift".utf8)
        try tree.write("Sources/readme.md", "\n")
        let folder = Array((root + "/Sources/").utf8)
        let fd = (folder + name + [0]).withUnsafeBytes { open($0.baseAddress!.assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        close(fd)
        let walk = try DirectoryWalk(root: root, links: .listed)
        let odd = try XCTUnwrap(walk.entries.first { $0.rawPath != nil })
        XCTAssertEqual(odd.path, "Sources/Caf\u{FFFD}.swift")
        XCTAssertEqual(odd.pathBytes, Array("Sources/".utf8) + name)
        XCTAssertNil(walk.entries.first { $0.path == "Sources/readme.md" }?.rawPath)
    }

    func testTheLimitsStopTheWalkWithAWarning() throws {
        for i in 0..<5 { try tree.write("a/b/f\(i)", [0]) }
        try tree.write("a/z", [0])
        try tree.write("c", [0])
        let few = try DirectoryWalk(root: root, links: .listed, maxEntries: 4)
        XCTAssertEqual(few.entries.map(\.path), ["a", "a/b", "a/b/f0", "a/b/f1"])
        XCTAssertEqual(few.warnings, ["more than 4 files; the rest are not read"], "said once, not once per folder")
        for path in ["a", "c"] { try FileManager.default.removeItem(at: tree.root.appendingPathComponent(path)) }

        let deep = (0...DirectoryWalk.maxDepth).map { "d\($0)" }.joined(separator: "/")
        try tree.write(deep + "/bottom.png", [0])
        let walk = try DirectoryWalk(root: root, links: .listed)
        XCTAssertFalse(walk.entries.contains { $0.path.hasSuffix("bottom.png") })
        XCTAssertEqual(walk.warnings.count, 1)
        XCTAssertTrue(walk.warnings[0].hasSuffix("folders nested more than \(DirectoryWalk.maxDepth) deep; not read"), walk.warnings[0])
    }

    /// `.whenRead` leaves the sizes of the files a folder lists as such to their readers, and
    /// lists what `.listed` lists: the same entries, kinds and links in the same order.
    func testSizesLeftToTheReaderListTheSameEntries() throws {
        try tree.write("Shared/icon.png", [1, 2, 3])
        try tree.write("App/main.swift", "let a = 1\n")
        try tree.write("App/empty", [])
        try link("App/Resources", to: "../Shared")
        try link("App/icon-link.png", to: "../Shared/icon.png")
        for links in [LinkPolicy.listed, .followed] {
            let listed = try DirectoryWalk(root: root, links: links)
            let whenRead = try DirectoryWalk(root: root, links: links, sizes: .whenRead)
            XCTAssertEqual(whenRead.entries.map(\.path), listed.entries.map(\.path), "\(links)")
            XCTAssertEqual(whenRead.entries.map(\.kind), listed.entries.map(\.kind), "\(links)")
            XCTAssertEqual(whenRead.entries.map(\.link), listed.entries.map(\.link), "\(links)")
            XCTAssertEqual(whenRead.warnings, listed.warnings, "\(links)")
            for (late, early) in zip(whenRead.entries, listed.entries) where early.kind == .file {
                // A link to a file is looked up (its target's size); a plain file is not, inside a linked folder too.
                XCTAssertEqual(late.size, late.path.hasSuffix("icon-link.png") ? early.size : TreeEntry.unlisted, late.path)
            }
        }
    }

    /// Names are sorted by their bytes: by their first sixteen as numbers, by `memcmp` past them,
    /// a name before any longer one it starts, bytes over 0x7F after ASCII.
    func testNamesAreListedInByteOrder() throws {
        let names = [
            "image00001@2x.jpg", "image00001@2x.jpeg", "image00001@2x.jp", "image0000", "image00001@2x.jpgz", "b", "a", "A", "a.b",
            "a-b", "aaaaaaaaaaaaaaaa", "aaaaaaaaaaaaaaaab", "aaaaaaaaaaaaaaaa0", "Zz", "\u{E9}t\u{E9}.png", "e.png", "~", "0",
        ]
        for name in names { try tree.write(name, [0]) }
        let walk = try DirectoryWalk(root: root, links: .listed, sizes: .whenRead)
        let expected = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        XCTAssertEqual(walk.entries.map(\.path), expected)
    }

    func testARootThatIsNotAFolderIsAnInputError() throws {
        try tree.write("file.txt", "x\n")
        for path in [root + "/missing", root + "/file.txt"] {
            XCTAssertThrowsError(try DirectoryWalk(root: path, links: .listed)) { error in
                XCTAssertEqual(error as? InputError, InputError(path: path, reason: "no such folder"))
            }
        }
    }
}
