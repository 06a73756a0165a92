import AssetCatalog
import TestSupport
import XCTest

/// Catalogs written here for what the corpus lacks: deep trees, loops, truncation, overruns.
final class HostileCatalogTests: XCTestCase {
    private func parse(_ bytes: [UInt8]) throws -> CarCatalog {
        try bytes.withUnsafeBytes { try CarCatalog.parse($0) }
    }

    private func images(_ n: Int) -> [CatalogWriter.Image] {
        (0..<n).map { CatalogWriter.Image(facet: "icon_\($0 / 3)", name: "icon_\($0 / 3)@\($0 % 3 + 1)x.png", scale: UInt16($0 % 3 + 1)) }
    }

    /// A three-rendition catalog whose RENDITIONS root node (a single leaf, the block just
    /// before the tree header) is replaced by `node(rootIndex)`, padded to 4096 bytes.
    private func catalogWithRenditionsRoot(_ node: @escaping (UInt32) -> [UInt8]) -> [UInt8] {
        CatalogWriter.catalog(images(3)) { bom, tree in
            let root = tree - 1
            let bytes = node(root)
            bom.replace(root, with: bytes + [UInt8](repeating: 0, count: 4096 - bytes.count))
        }
    }

    func testDeepTreeIsReadInOrder() throws {
        // 4 entries a node: 1,000 renditions need 250 leaves under three levels of branches.
        let catalog = try parse(CatalogWriter.catalog(images(1000), perNode: 4))
        XCTAssertEqual(catalog.renditions.count, 1000)
        XCTAssertGreaterThanOrEqual(catalog.renditionTree.levels, 4)
        XCTAssertEqual(catalog.renditionTree.leaves, 250)
        XCTAssertEqual(catalog.renditions[7].name, "icon_2@2x.png")
        XCTAssertEqual(catalog.renditions[7].facet, "icon_2")
        XCTAssertEqual(catalog.renditions[7].scale, 2)
        XCTAssertEqual(catalog.renditions[7].idiom, .phone)
        XCTAssertEqual(catalog.renditions[7].compression, "lzfse")
        XCTAssertTrue(catalog.warnings.isEmpty)
    }

    func testLeafThatLinksToItselfIsAnErrorNotAHang() throws {
        // A leaf whose forward link is itself.
        let bytes = catalogWithRenditionsRoot { root in be16(1) + be16(0) + be32(root) + be32(0) }
        XCTAssertThrowsError(try parse(bytes)) { error in
            XCTAssertTrue("\(error)".contains("cycle"), "\(error)")
        }
    }

    func testBranchThatPointsAtItselfIsAnError() throws {
        // A branch whose only child is itself.
        let bytes = catalogWithRenditionsRoot { root in be16(0) + be16(0) + be32(0) + be32(0) + be32(root) + be32(0) }
        XCTAssertThrowsError(try parse(bytes)) { error in
            XCTAssertTrue("\(error)".contains("cycle"), "\(error)")
        }
    }

    func testCountThatOverrunsItsBlockIsAnError() throws {
        let bytes = catalogWithRenditionsRoot { _ in be16(1) + be16(60000) + be32(0) + be32(0) }
        XCTAssertThrowsError(try parse(bytes)) { error in
            let e = error as? CatalogFormatError
            XCTAssertNotNil(e)
            XCTAssertTrue(e?.reason.contains("60000") == true, "\(error)")
            XCTAssertGreaterThan(e?.offset ?? 0, 0)
        }
    }

    func testEveryTruncationIsAnErrorOrAWarningNeverACrash() throws {
        let whole = CatalogWriter.catalog(images(6))
        for cut in stride(from: 0, to: whole.count, by: 97) {
            do {
                _ = try parse(Array(whole[0..<cut]))
            } catch let error as CatalogFormatError {
                XCTAssertGreaterThanOrEqual(error.offset, 0)
            }
        }
        XCTAssertThrowsError(try parse(Array(whole[0..<100])))
    }

    func testNameOfExactly128BytesIsKeptWhole() throws {
        let name = String(repeating: "n", count: 124) + ".png"
        XCTAssertEqual(name.utf8.count, 128)
        let catalog = try parse(CatalogWriter.catalog([CatalogWriter.Image(facet: "long", name: name)]))
        XCTAssertEqual(catalog.renditions.first?.name, name)
    }

    func testNotABOMStore() {
        XCTAssertThrowsError(try parse(Array("PK\u{3}\u{4} not a catalog".utf8))) { error in
            XCTAssertEqual(error as? CatalogFormatError, CatalogFormatError(offset: 0, reason: "not a BOM store (no `BOMStore` magic)"))
        }
    }
}
