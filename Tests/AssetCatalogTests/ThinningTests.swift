import AssetCatalog
import XCTest

/// What a thinned catalog says it was cut for, from its `ThinningParameters` as Xcode and the App
/// Store write them (the two strings are the corpus's).
final class ThinningTests: XCTestCase {
    private func metadata(_ arguments: String) -> ExtendedMetadata {
        ExtendedMetadata(thinningArguments: arguments, deploymentPlatformVersion: "", deploymentPlatform: "", authoringTool: "")
    }

    func testTheDeviceAThinnedCatalogWasCutFor() throws {
        let appStore = metadata(
            "carutil 735.000000, thinned <mode app> <idiom 1> <subtype 0> <subtypefallback *> <scale 2> <gamut 1> <graphics 4> <graphicsfallback (3,2,1,0)> <memory 3> <deployment- 5> <hostedIdioms *> <removed 33>"
        )
        XCTAssertEqual(appStore.thinnedFor?.scale, 2)
        XCTAssertEqual(appStore.thinnedFor?.idiom, .phone)
        let debugBuild = metadata(
            "optimized <idiom 1> <subtype 2436> <scale 3> <gamut 1> <graphics 6> <graphicsfallback (5,4,3,2,1,0)> <memory 3> <deployment 3> <hostedIdioms (4,5)>")
        XCTAssertEqual(debugBuild.thinnedFor?.scale, 3)
        XCTAssertNil(metadata("").thinnedFor, "an unthinned catalog")
        XCTAssertNil(metadata("<scale 9>").thinnedFor, "no such scale")
        XCTAssertNil(metadata("<scale").thinnedFor)
    }
}
