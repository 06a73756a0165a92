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

/// Counts in a catalog that would drive work or memory far past the file's size.
final class HostileCatalogCountTests: XCTestCase {
    private func parse(_ bytes: [UInt8]) throws -> CarCatalog {
        try bytes.withUnsafeBytes { try CarCatalog.parse($0) }
    }

    func testMultisizeCountOfFourBillionIsBoundedByTheBlock() throws {
        let bytes = CatalogWriter.catalog(
            [CatalogWriter.Image(facet: "AppIcon", name: "AppIcon.png")],
            entries: { bom, entries in
                var record = Array(CatalogWriter.csi(CatalogWriter.Image(facet: "AppIcon", name: "AppIcon.png")).prefix(184))
                record.replaceSubrange(168..<172, with: le32(0))  // no TLVs
                record.replaceSubrange(180..<184, with: le32(36))
                let payload = Array("SISM".utf8) + le32(0) + le32(.max) + le32(20) + le32(20) + le16(1) + le16(1) + le32(40) + le32(40) + le16(2) + le16(1)
                let value = bom.add(record + payload)
                return entries.map { (key: $0.key, value: value) }
            })
        let catalog = try parse(bytes)
        XCTAssertEqual(catalog.renditions.first?.multisize.count, 2, "two entries fit the block, whatever the count says")
    }

    func testThousandsOfRenditionsSharingOneLargeKeyAndValueBlock() throws {
        let images = (0..<5000).map { CatalogWriter.Image(facet: "f", name: "n\($0).png") }
        let bytes = CatalogWriter.catalog(
            images,
            entries: { bom, entries in
                // One 64 KiB key block and one value block, shared by every entry.
                let key = bom.add(le16(2) + le16(1) + le16(1) + [UInt8](repeating: 7, count: 65_530))
                let value = entries[0].value
                return entries.map { _ in (key: key, value: value) }
            })
        let catalog = try parse(bytes)
        XCTAssertEqual(catalog.renditions.count, 5000)
        XCTAssertEqual(catalog.renditions[4999].key.count, 64, "a key is read up to 64 attributes")
        XCTAssertEqual(catalog.renditions[4999].name, "n0.png")
        XCTAssertTrue(catalog.warnings.contains { $0.contains("longer than 64 attributes") }, "\(catalog.warnings)")
    }

    func testLeavesThatOverlapOneRegionAreRefused() throws {
        // 500 leaves whose blocks start 8 bytes apart in one region: each reads the next one's
        // header as entries, so the entries would multiply far past what the file holds.
        let leaves = 500, perLeaf: UInt16 = 1000
        var leafIndices: [UInt32] = []
        var region: UInt32 = 0
        var bytes = CatalogWriter.catalog([CatalogWriter.Image(facet: "a", name: "a.png")]) { bom, tree in
            leafIndices = (0..<leaves).map { _ in bom.add([0]) }
            var content: [UInt8] = []
            for i in 0..<leaves {
                let next: UInt32 = i + 1 < leaves ? leafIndices[i + 1] : 0
                content += be16(1) + be16(perLeaf) + be32(next)
            }
            content += [UInt8](repeating: 0, count: 12 + Int(perLeaf) * 8)
            region = bom.add(content)
            bom.replace(tree, with: Array("tree".utf8) + be32(1) + be32(leafIndices[0]) + be32(4096) + be32(1) + [0])
        }
        // Point every leaf block into the region, 8 bytes apart.
        func u32(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        let table = u32(16) + 4
        let regionOffset = u32(table + Int(region) * 8)
        for (i, index) in leafIndices.enumerated() {
            let at = table + Int(index) * 8
            let entry: [UInt8] = be32(UInt32(regionOffset + 8 * i)) + be32(12 + UInt32(perLeaf) * 8)
            bytes.replaceSubrange(at..<at + 8, with: entry)
        }
        XCTAssertThrowsError(try parse(bytes)) { error in
            XCTAssertTrue("\(error)".contains("overlap"), "\(error)")
        }
    }
}
