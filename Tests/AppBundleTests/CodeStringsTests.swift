import AppBundle
import TestSupport
import XCTest

/// The strings of an app's executables and JavaScript bundles: what `unused` reads from a built app.
final class CodeStringsTests: XCTestCase {
    func testCStringsImmediatesAndJavaScriptQuotesSplitIntoNames() {
        // Two C strings; a name as an x86-64 immediate (`movabs rax, …` is 48 B8 then the bytes);
        // a byte that is no UTF-8; a UTF-8 name; one letter; a run too long to be a name.
        var binary: [UInt8] = [0] + Array("logo_cloud".utf8) + [0] + Array("RadioButton-Selected".utf8) + [0]
        binary += [0x48, 0xB8] + Array("x_icon".utf8) + [0, 0, 0xFF] + Array("tab".utf8) + [0x90]
        binary += Array("flagge_ü".utf8) + [0, 0x41, 0] + Array(repeating: 0x61, count: 300) + [0]
        let strings = CodeStrings.scan(binary, javaScript: false)
        XCTAssertTrue(strings.isSuperset(of: ["logo_cloud", "RadioButton-Selected", "x_icon", "tab", "flagge_ü"]), "\(strings.sorted())")
        XCTAssertFalse(strings.contains("A"))
        XCTAssertFalse(strings.contains { $0.count > 255 })
        // React Native registers an asset by name in its bundle.
        let js = #"m.exports=r(d[0]).registerAsset({httpServerLocation:"/assets/src/assets",name:"bitbar_logo",type:'png'})"#
        let names = CodeStrings.scan(Array(js.utf8), javaScript: true)
        XCTAssertTrue(names.isSuperset(of: ["bitbar_logo", "/assets/src/assets", "png"]), "\(names.sorted())")
        XCTAssertFalse(CodeStrings.scan(Array(js.utf8), javaScript: false).contains("bitbar_logo"))
    }

    func testTheInventoryReadsEachBundlesExecutableAndJavaScriptOnlyWhenAsked() throws {
        let tree = MemoryTree([
            "Info.plist": BinaryPlistWriter.build(.dict([("CFBundleExecutable", .string("App"))])),
            "App": [0xCF, 0xFA, 0xED, 0xFE, 0] + Array("hero_banner".utf8) + [0],
            "main.jsbundle": Array(#"registerAsset({name:"back-icon"})"#.utf8),
            "Frameworks/Kit.framework/Info.plist": BinaryPlistWriter.build(.dict([("CFBundleExecutable", .string("Kit"))])),
            "Frameworks/Kit.framework/Kit": [0] + Array("kit_badge".utf8) + [0],
            "Frameworks/Kit.framework/README": Array("not_code".utf8),
            "hero_banner.png": ImageWriter.png(width: 10, height: 10),
        ])
        let plain = try BundleReader.inventory(ofTree: tree, name: "App.app")
        XCTAssertEqual(plain.codeStrings, [])
        let inventory = try BundleReader.inventory(ofTree: tree, name: "App.app", readingCodeStrings: true)
        XCTAssertEqual(inventory.codeStrings.map(\.file), ["App", "Frameworks/Kit.framework/Kit", "main.jsbundle"])
        XCTAssertEqual(inventory.codeStrings.map(\.bundle), [".", "Frameworks/Kit.framework", "."])
        XCTAssertTrue(inventory.codeStrings[0].strings.contains("hero_banner"))
        XCTAssertTrue(inventory.codeStrings[1].strings.contains("kit_badge"))
        XCTAssertTrue(inventory.codeStrings[2].strings.contains("back-icon"))
        // The same images either way: reading code adds evidence, not inventory.
        XCTAssertEqual(inventory.images.map(\.id), plain.images.map(\.id))
        // A second input's strings carry its label, as its images do.
        var both = plain
        both.append(inventory, as: "Other.app")
        XCTAssertEqual(both.codeStrings.first?.file, "Other.app/App")
        XCTAssertEqual(both.codeStrings.first?.bundle, "Other.app")
    }
}

/// An executable read in chunks gives the strings it gives read whole, wherever the chunks end:
/// in a UTF-8 sequence, in a run, in a run too long to keep (issue 40: a 1 GB executable was held
/// whole).
final class CodeStringsChunkTests: XCTestCase {
    func testChunkedScanningAgreesWithTheWholeFile() {
        var bytes: [UInt8] = []
        let pieces: [[UInt8]] = [
            Array("tab_home".utf8), [0], Array("café_icon".utf8), [0xB8], Array("x_icon".utf8), [0],
            Array(repeating: UInt8(ascii: "a"), count: 300), [0], Array("𝄞clef".utf8), [0xE2, 0x82], Array("ok".utf8), [0],
            Array(#"name:"back-icon","#.utf8), [0x0A], Array(repeating: UInt8(ascii: "b"), count: 255), [0], [0xF0, 0x9F, 0x98, 0x80], Array("end".utf8),
        ]
        for piece in pieces { bytes += piece }
        for javaScript in [false, true] {
            let whole = CodeStrings.scan(bytes, javaScript: javaScript)
            XCTAssertTrue(whole.contains("tab_home") && whole.contains("x_icon"))
            for size in [1, 2, 3, 4, 5, 7, 64, 256, 1 << 20] {
                var scanner = CodeStrings.Scanner(javaScript: javaScript)
                var offset = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + size)
                    bytes[offset..<end].withUnsafeBytes { scanner.feed($0, final: false) }
                    offset = end
                }
                scanner.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true)
                XCTAssertEqual(scanner.strings, whole, "chunks of \(size), JavaScript \(javaScript)")
            }
        }
    }
}
