import AppBundle
import Foundation
import TestSupport
import XCTest

/// `record` runs an app folder's executable: the one its Info.plist names, in each layout's place.
final class BundleExecutableTests: XCTestCase {
    private func plist(_ key: String, _ value: String) -> Data {
        Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>\(key)</key><string>\(value)</string></dict></plist>
            """.utf8)
    }

    private func executable(_ url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("#!/bin/sh\n".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    }

    func testEachLayoutRunsWhatItsInfoPlistNames() throws {
        let root = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default

        // iOS: the plist names an executable other than the folder's name.
        let ios = root.appendingPathComponent("Shop.app")
        try executable(ios.appendingPathComponent("ShopBinary"))
        try executable(ios.appendingPathComponent("Shop"))
        try plist("CFBundleExecutable", "ShopBinary").write(to: ios.appendingPathComponent("Info.plist"))
        XCTAssertEqual(BundleExecutable.path(of: ios.path), ios.appendingPathComponent("ShopBinary").path)
        XCTAssertEqual(BundleExecutable.path(of: ios.path + "/"), ios.appendingPathComponent("ShopBinary").path)

        // macOS: Contents/Info.plist and Contents/MacOS.
        let mac = root.appendingPathComponent("Viewer.app")
        try executable(mac.appendingPathComponent("Contents/MacOS/ViewerMain"))
        try fm.createDirectory(at: mac.appendingPathComponent("Contents"), withIntermediateDirectories: true)
        try plist("CFBundleExecutable", "ViewerMain").write(to: mac.appendingPathComponent("Contents/Info.plist"))
        XCTAssertEqual(BundleExecutable.path(of: mac.path), mac.appendingPathComponent("Contents/MacOS/ViewerMain").path)

        // GNUstep: Resources/Info-gnustep.plist's NSExecutable.
        let gnustep = root.appendingPathComponent("Game.app")
        try executable(gnustep.appendingPathComponent("game-bin"))
        try fm.createDirectory(at: gnustep.appendingPathComponent("Resources"), withIntermediateDirectories: true)
        try plist("NSExecutable", "game-bin").write(to: gnustep.appendingPathComponent("Resources/Info-gnustep.plist"))
        XCTAssertEqual(BundleExecutable.path(of: gnustep.path), gnustep.appendingPathComponent("game-bin").path)

        // No plist: the folder's own name; a plist naming a path or nothing that exists falls back too.
        let plain = root.appendingPathComponent("Plain.app")
        try executable(plain.appendingPathComponent("Plain"))
        try plist("CFBundleExecutable", "../../bin/sh").write(to: plain.appendingPathComponent("Info.plist"))
        XCTAssertEqual(BundleExecutable.path(of: plain.path), plain.appendingPathComponent("Plain").path)
        let empty = root.appendingPathComponent("Empty.app")
        try fm.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertEqual(BundleExecutable.path(of: empty.path), empty.appendingPathComponent("Empty").path, "named in the error when missing")

        XCTAssertEqual(BundleExecutable.path(of: "/usr/bin/true"), "/usr/bin/true")
    }

    func testDebiansGridlock() throws {
        let app = "/usr/lib/GNUstep/Applications/Gridlock.app"
        guard FileManager.default.fileExists(atPath: app) else { throw XCTSkip("Debian's gridlock.app is not installed") }
        XCTAssertEqual(BundleExecutable.path(of: app), app + "/Gridlock")
    }
}
