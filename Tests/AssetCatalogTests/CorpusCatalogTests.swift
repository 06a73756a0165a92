import AssetCatalog
import Foundation
import TestSupport
import XCTest

/// Every real catalog in ../shared/corpus/car against its per-rendition ground truth.
final class CorpusCatalogTests: XCTestCase {
    static let files = [
        "bacapp_null_rendition_values", "bitbar_sample_xcode14_phone_pad", "calabash_calsmoke_cal_xcode10",
        "calabash_calwebview_xcode6_legacy", "fixxcode_empty_thinned", "idevicepair_macos26_iconstack",
        "iineva_xcode12_deepmap2", "isign_xcode7_pdf_packed", "livewallpaper_macos26_svg",
        "mediamate_macos13_xcode16_heif_symbols", "mojave_appkit_multileaf_pdf", "servicensw_appstore_thinned_dark",
        "timac_ios12_demo",
    ]

    private func load(_ name: String) throws -> (CarCatalog, [String: Any]) {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let car = root.appendingPathComponent("car/\(name).car")
        let truth = root.appendingPathComponent("car/ground-truth/\(name).json")
        let catalog = try CarCatalog.read(contentsOf: car.path)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: truth)) as? [String: Any])
        return (catalog, json)
    }

    /// The ground truth's row for a rendition, in its vocabulary.
    private func row(_ r: Rendition) -> [String: AnyHashable?] {
        var key: [String: Int] = [:]
        for (attribute, value) in r.key where value != 0 {
            if let known = KeyAttribute(rawValue: attribute) { key[known.name] = Int(value) }
        }
        var out: [String: AnyHashable?] = [
            "facet": r.facet, "rendition_name": r.name, "key": key, "size_on_disk": r.sizeOnDisk,
        ]
        guard r.name != nil else { return out }
        out["layout"] = r.layout
        out["pixel_format"] = r.pixelFormat
        out["compression"] = r.compression
        out["width"] = r.pixelWidth
        out["height"] = r.pixelHeight
        out["size_source"] = r.sizeSource
        out["appearance_name"] = r.appearanceName
        out["data_length"] = r.dataLength
        if let frame = r.atlasFrame { out["internal_link"] = [frame.x, frame.y, frame.width, frame.height] }
        return out
    }

    private func expected(_ t: [String: Any]) -> [String: AnyHashable?] {
        var out: [String: AnyHashable?] = [
            "facet": t["facet"] as? String, "rendition_name": t["rendition_name"] as? String,
            "key": (t["key"] as? [String: Int]) ?? [:], "size_on_disk": t["size_on_disk"] as? Int,
        ]
        guard t["rendition_name"] is String else { return out }
        out["layout"] = t["layout"] as? String
        out["pixel_format"] = t["pixel_format"] as? String
        out["compression"] = t["compression"] as? String
        out["width"] = t["width"] as? Int
        out["height"] = t["height"] as? Int
        out["size_source"] = t["size_source"] as? String
        out["appearance_name"] = t["appearance_name"] as? String
        out["data_length"] = t["data_length"] as? Int
        if let link = t["internal_link"] as? [String: Int] {
            out["internal_link"] = [link["x"] ?? -1, link["y"] ?? -1, link["w"] ?? -1, link["h"] ?? -1]
        }
        return out
    }

    func testEveryCatalogMatchesItsGroundTruth() throws {
        var compared = 0
        for name in Self.files {
            let (catalog, truth) = try load(name)
            let rows = try XCTUnwrap(truth["renditions"] as? [[String: Any]])
            XCTAssertEqual(catalog.renditions.count, rows.count, name)
            for (i, (rendition, t)) in zip(catalog.renditions, rows).enumerated() {
                let got = row(rendition)
                let want = expected(t)
                for field in want.keys.sorted() where got[field] != want[field] {
                    XCTFail(
                        "\(name) #\(i) \(want["rendition_name"] as? String ?? "-") \(field): got \(String(describing: got[field] ?? nil)), want \(String(describing: want[field] ?? nil))"
                    )
                }
                compared += 1
            }
        }
        XCTAssertEqual(compared, 2021)
    }

    func testHeaderMetadataAndKeyFormat() throws {
        let (timac, truth) = try load("timac_ios12_demo")
        let header = try XCTUnwrap(truth["carheader"] as? [String: Any])
        XCTAssertEqual(timac.header.coreUIVersion, header["coreui_version"] as? Int)
        XCTAssertEqual(timac.header.storageVersion, header["storage_version"] as? Int)
        XCTAssertEqual(timac.header.versionString, header["version_string"] as? String)
        XCTAssertEqual(timac.header.mainVersion, header["main_version"] as? String)
        XCTAssertEqual(timac.metadata?.deploymentPlatform, "ios")
        XCTAssertEqual(timac.keyFormat.compactMap { KeyAttribute(rawValue: $0)?.name }, truth["keyformat"] as? [String])
        for name in Self.files {
            let (catalog, truth) = try load(name)
            if let names = truth["keyformat"] as? [String] {
                XCTAssertEqual(catalog.keyFormat.compactMap { KeyAttribute(rawValue: $0)?.name }, names, "\(name) KEYFORMAT after workaround")
            }
            if let appearances = truth["appearance_keys"] as? [String: Int] {
                XCTAssertEqual(Dictionary(uniqueKeysWithValues: catalog.appearances.map { ($0.name, $0.id) }), appearances, name)
            }
            XCTAssertEqual(catalog.metadata == nil, truth["extended_metadata"] is NSNull || truth["extended_metadata"] == nil, name)
        }
    }

    func testMultiLeafTreeIsWalkedCompletely() throws {
        let (mojave, _) = try load("mojave_appkit_multileaf_pdf")
        XCTAssertEqual(mojave.renditionTree.leaves, 5)
        XCTAssertEqual(mojave.renditionTree.levels, 2)
        XCTAssertEqual(mojave.renditions.count, 1533)
        XCTAssertTrue(mojave.warnings.isEmpty, "\(mojave.warnings)")
    }

    func testBrokenAndEmptyCatalogsGiveWarningsNotCrashes() throws {
        let (empty, _) = try load("fixxcode_empty_thinned")
        XCTAssertEqual(empty.renditions.count, 0)
        XCTAssertTrue(empty.metadata?.thinningArguments.contains("<subtype 2436>") == true)
        let (broken, _) = try load("bacapp_null_rendition_values")
        XCTAssertEqual(broken.renditions.count, 4)
        XCTAssertTrue(broken.renditions.allSatisfy { $0.name == nil && $0.sizeOnDisk == 0 })
        XCTAssertEqual(broken.warnings.filter { $0.contains("not a CSI record") }.count, 4)
        XCTAssertTrue(broken.warnings.contains { $0.contains("CARHEADER counts 0 renditions") })
    }
}
