@testable import AppBundle
import XCTest

/// Bundle paths are split on the byte `/`, as the file system splits them.
final class PathBytesTests: XCTestCase {
    func testComponentsParentsNamesAndExtensions() {
        XCTAssertEqual(pathComponents("a/b.lproj//c.png/").map(String.init), ["a", "b.lproj", "c.png"])
        XCTAssertEqual(pathComponents("/").map(String.init), [])
        XCTAssertEqual(pathComponents("画像/é́/x").map(String.init), ["画像", "é́", "x"])
        // A combining mark after `/` is part of the next name, not of the separator.
        XCTAssertEqual(pathComponents("a/\u{301}b").map(String.init), ["a", "\u{301}b"])
        XCTAssertEqual(parentPath("Payload/App.app/icon.png"), "Payload/App.app")
        XCTAssertEqual(parentPath("icon.png"), "")
        XCTAssertEqual(lastComponent("Payload/App.app/icon@2x.png"), "icon@2x.png")
        XCTAssertEqual(lastComponent("icon"), "icon")
        XCTAssertEqual(extensionOf("icon@2x.png"), "png")
        XCTAssertEqual(extensionOf(".DS_Store"), "")
        XCTAssertEqual(extensionOf("archive.tar.gz"), "gz")
        XCTAssertEqual(extensionOf("noext"), "")
    }

    func testJunkAndSuffixes() {
        XCTAssertTrue(isJunk("App.app/.DS_Store"))
        XCTAssertTrue(isJunk("__MACOSX/App.app/icon.png"))
        XCTAssertTrue(isJunk("App.app/._icon.png"))
        XCTAssertTrue(isJunk("Thumbs.db"))
        XCTAssertFalse(isJunk("App.app/x.DS_Store"))
        XCTAssertFalse(isJunk("App.app/_._icon.png"))
        XCTAssertTrue("en.lproj".utf8.hasBytesSuffix(".lproj"))
        XCTAssertFalse("lproj".utf8.hasBytesSuffix(".lproj"))
        XCTAssertTrue("App.app/_CodeSignature/CodeResources".utf8.containsBytes("_CodeSignature/"))
        XCTAssertTrue("__CodeSignature/".utf8.containsBytes("_CodeSignature/"))
        XCTAssertFalse("App.app/_CodeSignature".utf8.containsBytes("_CodeSignature/"))
    }
}
