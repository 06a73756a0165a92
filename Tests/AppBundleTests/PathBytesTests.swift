@testable import AppBundle
import ImgtraceSupport
import XCTest

/// Bundle paths are split on the byte `/`, as the file system splits them.
final class PathBytesTests: XCTestCase {
    func testComponentsParentsNamesAndExtensions() {
        XCTAssertEqual(pathComponents("a/b.lproj//c.png/").map(String.init), ["a", "b.lproj", "c.png"])
        XCTAssertEqual(pathComponents("/").map(String.init), [])
        XCTAssertEqual(pathComponents("画像/é́/x").map(String.init), ["画像", "é́", "x"])
        // A combining mark after `/` is part of the next name, not of the separator.
        XCTAssertEqual(pathComponents("a/\u{301}b").map(String.init), ["a", "\u{301}b"])
        XCTAssertEqual(PathText.folder("Payload/App.app/icon.png"), "Payload/App.app")
        XCTAssertEqual(PathText.folder("icon.png"), "")
        XCTAssertEqual(PathText.fileName("Payload/App.app/icon@2x.png"), "icon@2x.png")
        XCTAssertEqual(PathText.fileName("icon"), "icon")
        XCTAssertEqual(PathText.fileExtension("icon@2x.png"), "png")
        XCTAssertEqual(PathText.fileExtension(".DS_Store"), "")
        XCTAssertEqual(PathText.fileExtension("archive.tar.gz"), "gz")
        XCTAssertEqual(PathText.fileExtension("noext"), "")
    }

    /// The extension tests asked of every file before any is read give what lowercasing the
    /// extension and looking it up gives: in any case, for extensions too long, empty or leading,
    /// through folders with dots, and for letters that lowercase to ASCII (the Kelvin sign).
    func testImageExtensionTestsAgreeWithTheTextOnes() {
        var paths = [
            "a.png", "a.PNG", "a.pNg", "a.jpeg", "a.jpegx", "a.jp", "a.", ".png", "png", "a/.png", "x.png/b", "x.png/b.gif", "a.b.svg",
            "a.ti\u{FB00}", "a.tİff", "a.\u{212A}", "a.pdf\u{301}", "dir.app/icon@2x~ipad.PNG", "a.avif", "a.AVIFF", "a.heic", "a.\u{0}png",
            "", "/", "a.b/c", "é.webp", "a.webp ",
        ]
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("pngjifPNGJIFa.svg/\u{212A}İé").map(String.init)
        for _ in 0..<2000 { paths.append((0..<Int.random(in: 0...9, using: &random)).map { _ in alphabet.randomElement(using: &random)! }.joined()) }
        for path in paths {
            let ext = PathText.fileExtension(PathText.fileName(path))
            let expected = LooseImageName.imageExtensions.contains(ext.lowercased())
            XCTAssertEqual(LooseImageName.isImageExtension(ext), expected, path.debugDescription)
            XCTAssertEqual(LooseImageName.hasImageExtension(path), expected, path.debugDescription)
        }
    }

    /// One join for every path (issue 62): a project's folders, a workspace's locations, a
    /// report's bundle links.
    func testOneJoin() {
        XCTAssertEqual(PathText.join("App.app", "Assets.car"), "App.app/Assets.car")
        XCTAssertEqual(PathText.join("App.app//", "icon.png"), "App.app/icon.png")
        XCTAssertEqual(PathText.join("", "icon.png"), "icon.png")
        XCTAssertEqual(PathText.join("App.app/", ""), "App.app")
        XCTAssertEqual(PathText.join("/", "x"), "/x")
        XCTAssertEqual(PathText.join("ios", "/abs/App.xcodeproj"), "/abs/App.xcodeproj")
        XCTAssertEqual(PathText.resolve("out.json", against: "."), "out.json")
        XCTAssertEqual(PathText.resolve("out.json", against: "reports/"), "reports/out.json")
    }

    func testJunkAndSuffixes() {
        XCTAssertTrue(isJunk("App.app/.DS_Store"))
        XCTAssertTrue(isJunk("__MACOSX/App.app/icon.png"))
        XCTAssertTrue(isJunk("App.app/._icon.png"))
        XCTAssertTrue(isJunk("Thumbs.db"))
        XCTAssertFalse(isJunk("App.app/x.DS_Store"))
        XCTAssertFalse(isJunk("App.app/_._icon.png"))
        XCTAssertTrue(isJunk("a//Thumbs.db/"), "empty components and a trailing slash")
        XCTAssertFalse(isJunk("Thumbs.dbx") || isJunk("T") || isJunk(".") || isJunk("") || isJunk("/") || isJunk("__MACOS"))
        XCTAssertTrue(isJunk("._"))
        XCTAssertTrue("en.lproj".utf8.hasBytesSuffix(".lproj"))
        XCTAssertFalse("lproj".utf8.hasBytesSuffix(".lproj"))
        XCTAssertTrue("App.app/_CodeSignature/CodeResources".utf8.containsBytes("_CodeSignature/"))
        XCTAssertTrue("__CodeSignature/".utf8.containsBytes("_CodeSignature/"))
        XCTAssertFalse("App.app/_CodeSignature".utf8.containsBytes("_CodeSignature/"))
    }

    /// The first-bytes hash groups files before the digest pass: equal prefixes agree, a change
    /// of any one byte of the first 4 KiB (or of the length) moves it, bytes past 4 KiB do not.
    func testPrefixHashSeesEveryByteOfTheFirstFourKiB() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let whole = prefixHash(bytes)
        XCTAssertEqual(prefixHash(bytes), whole)
        XCTAssertEqual(prefixHash(Array(bytes.prefix(4096)) + [1, 2, 3]), whole, "only the first 4 KiB count")
        var seen = Set([whole])
        for offset in 0..<4096 {
            var changed = bytes
            changed[offset] ^= 0x01
            XCTAssertTrue(seen.insert(prefixHash(changed)).inserted, "a flipped bit at \(offset)")
        }
        for length in 0..<20 { XCTAssertTrue(seen.insert(prefixHash(Array(bytes.prefix(length)))).inserted, "\(length) bytes") }
        XCTAssertNotEqual(prefixHash([0]), prefixHash([0, 0]), "a zero byte more is another prefix")
    }
}
