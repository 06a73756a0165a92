import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
@testable import LaunchAudit
@testable import UnusedAudit
import XCTest

/// UIKit's and AppKit's lookup rules, one at a time, on inventories built in code.
final class NameResolverTests: XCTestCase {
    let phone = DeviceProfile.default
    let pad = DeviceProfile.named("ipad-pro-13-m4")!
    let app = BundleInfo(id: ".", kind: .app, name: "App.app", resourceRoot: "", info: InfoPlistFacts(platform: "iphoneos"))

    func file(_ path: String, bundle: String = ".", source: ImageSource = .file, ext: String? = nil) -> BundleImage {
        let parsed = LooseImageName(fileName: (path as NSString).lastPathComponent)
        var directory = (path as NSString).deletingLastPathComponent
        var localization: String?
        if directory.hasSuffix(".lproj") {
            localization = String((directory as NSString).lastPathComponent.dropLast(6))
            directory = (directory as NSString).deletingLastPathComponent
        }
        if bundle != ".", directory.hasPrefix(bundle) { directory = String(directory.dropFirst(bundle.count)).trimmingCharacters(in: ["/"]) }
        let name = source == .systemImages ? parsed.base : parsed.lookupName
        return BundleImage(
            id: path, bundle: bundle, path: path, source: source, name: directory.isEmpty ? name : directory + "/" + name,
            pixelWidth: 10 * parsed.scale, pixelHeight: 10 * parsed.scale, scale: parsed.scale, idiom: parsed.idiom,
            localization: localization, fileExtension: parsed.fileExtension, bytesOnDisk: 100, decodedBytes: 400)
    }

    func rendition(_ facet: String, scale: Int, idiom: ImageIdiom = .universal, appearance: String? = nil) -> BundleImage {
        BundleImage(
            id: "Assets.car#\(facet)[\(idiom),\(scale)x,\(appearance ?? "any")]", bundle: ".", path: "Assets.car",
            source: .assetCatalog, name: facet, scale: scale, idiom: idiom, appearance: appearance)
    }

    func resolver(_ images: [BundleImage], bundles: [BundleInfo]? = nil, aliases: [ImageAlias] = [], device: DeviceProfile? = nil) -> NameResolver {
        NameResolver(inventory: BundleInventory(bundles: bundles ?? [app], images: images, aliases: aliases), device: device ?? phone)
    }

    func testCatalogBeatsALooseFileOfTheSameName() {
        let r = resolver([file("logo@3x.png"), rendition("logo", scale: 3)])
        XCTAssertEqual(r.resolve("logo", kind: .name).image?.source, .assetCatalog)
    }

    func testScaleFallsBackToLowerThenHigher() {
        XCTAssertEqual(resolver([file("a.png"), file("a@2x.png"), file("a@3x.png")]).resolve("a", kind: .name).image?.id, "a@3x.png")
        let lower = resolver([file("a.png"), file("a@2x.png")]).resolve("a", kind: .name)
        XCTAssertEqual(lower.image?.id, "a@2x.png")
        XCTAssertTrue(lower.how.text.contains("no @3x variant"), lower.how.text)
        XCTAssertEqual(
            resolver([file("a@2x.png"), file("a@3x.png")], device: DeviceProfile.named("iphone-se")).resolve("a", kind: .name).image?.id,
            "a@2x.png")
        XCTAssertEqual(resolver([file("a@3x.png")], device: DeviceProfile.named("iphone-se")).resolve("a", kind: .name).image?.id, "a@3x.png")
    }

    func testDeviceModifiers() {
        let images = [file("b@2x.png"), file("b@2x~ipad.png"), file("c~ipad.png")]
        XCTAssertEqual(resolver(images, device: pad).resolve("b", kind: .name).image?.id, "b@2x~ipad.png")
        XCTAssertEqual(resolver(images).resolve("b", kind: .name).image?.id, "b@2x.png")
        let onlyPad = resolver(images).resolve("c", kind: .name)
        XCTAssertNil(onlyPad.image)
        XCTAssertEqual(onlyPad.cause, .otherIdiom)
        // Scale beats the device modifier on a Retina iPad.
        XCTAssertEqual(resolver([file("d@2x.png"), file("d~ipad.png")], device: pad).resolve("d", kind: .name).image?.id, "d@2x.png")
    }

    func testCatalogIdiomAndAppearance() {
        let images = [
            rendition("icon", scale: 3, idiom: "phone"), rendition("icon", scale: 2, idiom: "pad"),
            rendition("bg", scale: 3, appearance: "dark"), rendition("bg", scale: 3),
        ]
        XCTAssertEqual(resolver(images).resolve("icon", kind: .name).image?.idiom, "phone")
        XCTAssertEqual(resolver(images, device: pad).resolve("icon", kind: .name).image?.idiom, "pad")
        XCTAssertNil(resolver(images).resolve("bg", kind: .name).image?.appearance, "light mode by default")
    }

    func testExtensionRules() {
        let r = resolver([file("photo.jpg"), file("icon@3x.png")])
        XCTAssertEqual(r.resolve("photo.jpg", kind: .name).image?.id, "photo.jpg")
        XCTAssertEqual(r.resolve("icon.png", kind: .name).image?.id, "icon@3x.png")
        let bare = r.resolve("photo", kind: .name)
        XCTAssertNil(bare.image)
        XCTAssertEqual(bare.cause, .needsExtension)
        XCTAssertTrue(bare.how.text.contains("photo.jpg"), bare.how.text)
    }

    func testCaseScaleInNameAndNamespaceCauses() {
        let r = resolver([file("Logo@3x.png"), file("tab@2x.png"), rendition("Icons/star", scale: 3)])
        XCTAssertEqual(r.resolve("logo", kind: .name).cause, .caseDiffers)
        let literal = r.resolve("tab@2x", kind: .name)
        XCTAssertEqual(literal.image?.id, "tab@2x.png", "UIKit finds the literal file")
        XCTAssertTrue(literal.how.text.contains("@2x"), literal.how.text)
        XCTAssertEqual(r.resolve("tab@3x", kind: .name).cause, .scaleInName)
        XCTAssertEqual(r.resolve("star", kind: .name).cause, .namespace)
        XCTAssertEqual(r.resolve("Icons/star", kind: .name).image?.name, "Icons/star")
        XCTAssertEqual(r.resolve("nothing", kind: .name).cause, .notFound)
    }

    func testLocalisationPrefersUnlocalisedThenBaseOrEnglish() {
        XCTAssertEqual(resolver([file("fr.lproj/w@3x.png"), file("w@3x.png")]).resolve("w", kind: .name).image?.id, "w@3x.png")
        XCTAssertEqual(resolver([file("fr.lproj/w@3x.png"), file("en.lproj/w@3x.png")]).resolve("w", kind: .name).image?.id, "en.lproj/w@3x.png")
    }

    func testPathsResolveInsideTheAppAndAreOutsideOtherwise() {
        let r = resolver(
            [file("img/a@2x.png"), file("img/a@3x.png"), file("Frameworks/K.framework/k.png", bundle: "Frameworks/K.framework")],
            bundles: [app, BundleInfo(id: "Frameworks/K.framework", kind: .framework, name: "K.framework", resourceRoot: "Frameworks/K.framework")])
        XCTAssertEqual(r.resolve("/var/containers/Bundle/Application/X/App.app/img/a.png", kind: .path).image?.id, "img/a@3x.png")
        XCTAssertEqual(r.resolve("/var/containers/Bundle/Application/X/App.app/img/a@2x.png", kind: .path).image?.id, "img/a@2x.png")
        XCTAssertEqual(
            r.resolve("/var/containers/Bundle/Application/X/App.app/Frameworks/K.framework/k.png", kind: .path).image?.id,
            "Frameworks/K.framework/k.png")
        XCTAssertEqual(r.resolve("/var/mobile/Containers/Data/Application/Y/Documents/a.png", kind: .path).cause, .outsideBundle)
        // By name, a framework's image is found after the app's own.
        XCTAssertEqual(r.resolve("k", kind: .name).image?.bundle, "Frameworks/K.framework")
    }

    func testAppKitNamesAliasesAndTheApplicationIcon() {
        let mac = BundleInfo(
            id: ".", kind: .app, name: "G.app", resourceRoot: "Resources",
            info: InfoPlistFacts(platform: "gnustep", iconFiles: ["G.tiff"]))
        let system = BundleInfo(id: "sys", kind: .systemImages, name: "sys", resourceRoot: "")
        let images = [file("Resources/G.tiff"), file("Resources/red.tiff"), file("sys/common_3DArrowRight.tiff", bundle: "sys", source: .systemImages)]
        let appKit = images.map { image -> BundleImage in
            var copy = image
            if copy.source == .file { copy.name = LooseImageName(fileName: (copy.path as NSString).lastPathComponent).base }
            return copy
        }
        let alias = ImageAlias(bundle: "sys", name: "NSMenuArrow", target: "common_3DArrowRight", via: "GSMenuArrow", file: "nsmapping.strings")
        let r = resolver(appKit, bundles: [mac, system], aliases: [alias])
        XCTAssertEqual(r.resolve("red", kind: .name).image?.id, "Resources/red.tiff")
        XCTAssertEqual(r.resolve("red.tiff", kind: .name).image?.id, "Resources/red.tiff", "AppKit takes any image extension")
        XCTAssertNil(r.resolve("red.png", kind: .name).image)
        let arrow = r.resolve("NSMenuArrow", kind: .name)
        XCTAssertEqual(arrow.image?.id, "sys/common_3DArrowRight.tiff")
        XCTAssertEqual(arrow.cacheName, "GSMenuArrow")
        XCTAssertTrue(arrow.how.text.contains("nsmapping.strings"), arrow.how.text)
        XCTAssertEqual(r.resolve("NSApplicationIcon", kind: .name).image?.id, "Resources/G.tiff")
    }
}

/// The pattern index finds exactly what trying every pattern on every name finds (issue 40: the
/// brute force cost patterns × images).
final class PatternIndexTests: XCTestCase {
    func testTheIndexAgreesWithTryingEveryPattern() {
        let pieces = ["icon", "flag_", "_dark", "tab", "@2x", "x", "onboarding_step", ".png", "é"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        func text(holes: Bool) -> String {
            (0..<(1 + next(3))).map { _ in holes && next(3) == 0 ? "*" : pieces[next(pieces.count)] }.joined()
        }
        let patterns = (0..<400).map { _ in text(holes: true) } + ["*dark*", "*_dark", "flag_*"]
        let names = (0..<300).map { _ in text(holes: false) }
        let globs = patterns.map(UnusedImages.Glob.init)
        let index = UnusedImages.PatternIndex(patterns)
        var matched = 0
        for name in names {
            let expected = globs.indices.filter { globs[$0].matches(name) }
            XCTAssertEqual(index.matching([name]), expected, name)
            matched += expected.count
        }
        XCTAssertGreaterThan(matched, 300, "the sample exercises matches, not only misses")
    }
}
