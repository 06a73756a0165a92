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
