/// Writes small BOM stores and CAR catalogs for tests: deep trees, loops, truncation,
/// counts that overrun, names of exactly 128 bytes. Not a general actool.
public struct BOMWriter {
    private var blocks: [[UInt8]] = [[]]
    private var variables: [(String, UInt32)] = []

    public init() {}

    /// Adds a block and returns its index.
    public mutating func add(_ bytes: [UInt8]) -> UInt32 {
        blocks.append(bytes)
        return UInt32(blocks.count - 1)
    }

    public mutating func replace(_ index: UInt32, with bytes: [UInt8]) { blocks[Int(index)] = bytes }

    public mutating func variable(_ name: String, _ block: UInt32) { variables.append((name, block)) }

    /// Adds a B+ tree over `entries` with at most `perNode` entries in a node, returning the
    /// tree header's block. Leaves are linked forward and backward; branches hold count + 1 children.
    public mutating func addTree(_ entries: [(key: UInt32, value: UInt32)], perNode: Int = 510, blockSize: Int = 4096) -> UInt32 {
        var level: [UInt32] = []
        let chunks = stride(from: 0, to: max(entries.count, 1), by: perNode).map { Array(entries[$0..<min($0 + perNode, entries.count)]) }
        let leafIndices = chunks.map { _ in add([]) }
        for (i, chunk) in chunks.enumerated() {
            var node = be16(1) + be16(UInt16(chunk.count))
            node += be32(i + 1 < leafIndices.count ? leafIndices[i + 1] : 0)
            node += be32(i > 0 ? leafIndices[i - 1] : 0)
            for e in chunk { node += be32(e.value) + be32(e.key) }
            replace(leafIndices[i], with: padded(node, blockSize))
        }
        level = leafIndices
        while level.count > 1 {
            var next: [UInt32] = []
            for start in stride(from: 0, to: level.count, by: perNode + 1) {
                let children = Array(level[start..<min(start + perNode + 1, level.count)])
                var node = be16(0) + be16(UInt16(children.count - 1)) + be32(0) + be32(0)
                for child in children { node += be32(child) + be32(0) }
                next.append(add(padded(node, blockSize)))
            }
            level = next
        }
        var header = Array("tree".utf8) + be32(1) + be32(level[0]) + be32(UInt32(blockSize)) + be32(UInt32(entries.count))
        header.append(0)
        return add(header)
    }

    /// The whole file: header, blocks, block table, variables.
    public func build() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 512)
        var table: [(UInt32, UInt32)] = [(0, 0)]
        for block in blocks.dropFirst() {
            table.append((UInt32(out.count), UInt32(block.count)))
            out += block
        }
        let indexOffset = out.count
        out += be32(UInt32(table.count))
        for (offset, length) in table { out += be32(offset) + be32(length) }
        let indexLength = out.count - indexOffset
        let varsOffset = out.count
        out += be32(UInt32(variables.count))
        for (name, block) in variables {
            out += be32(block)
            out.append(UInt8(name.utf8.count))
            out += Array(name.utf8)
        }
        let varsLength = out.count - varsOffset
        let header =
            Array("BOMStore".utf8) + be32(1) + be32(UInt32(table.count - 1)) + be32(UInt32(indexOffset))
            + be32(UInt32(indexLength)) + be32(UInt32(varsOffset)) + be32(UInt32(varsLength))
        out.replaceSubrange(0..<header.count, with: header)
        return out
    }
}

/// Builds CAR content on top of `BOMWriter`.
public enum CatalogWriter {
    public struct Image {
        public var facet: String
        public var name: String
        public var scale: UInt16
        public var idiom: UInt16
        public var width: UInt32
        public var height: UInt32
        public init(facet: String, name: String, scale: UInt16 = 2, idiom: UInt16 = 1, width: UInt32 = 40, height: UInt32 = 40) {
            self.facet = facet
            self.name = name
            self.scale = scale
            self.idiom = idiom
            self.width = width
            self.height = height
        }
    }

    /// KEYFORMAT: scale, idiom, identifier, element, part.
    public static let keyFormat: [UInt32] = [12, 15, 17, 1, 2]

    /// A catalog holding `images`; `perNode` controls the RENDITIONS tree's depth.
    /// `entries` may rewrite the RENDITIONS entries (key block, value block) before the tree is built.
    public static func catalog(
        _ images: [Image], perNode: Int = 510,
        mutate: ((inout BOMWriter, _ renditionsTree: UInt32) -> Void)? = nil,
        entries transform: ((inout BOMWriter, [(key: UInt32, value: UInt32)]) -> [(key: UInt32, value: UInt32)])? = nil
    ) -> [UInt8] {
        var bom = BOMWriter()
        var header = Array("RATC".utf8) + le32(498) + le32(15) + le32(0) + le32(UInt32(images.count))
        header += fixed("@(#)PROGRAM:CoreUI  PROJECT:CoreUI-498.40.1\n", 128) + fixed("imgtrace-test", 256)
        header += [UInt8](repeating: 0, count: 16) + le32(0) + le32(2) + le32(1) + le32(2)
        bom.variable("CARHEADER", bom.add(header))
        var keyFormat = Array("tmfk".utf8) + le32(0) + le32(UInt32(keyFormat.count))
        for id in Self.keyFormat { keyFormat += le32(id) }
        bom.variable("KEYFORMAT", bom.add(keyFormat))
        var identifiers: [String: UInt16] = [:]
        var facetEntries: [(key: UInt32, value: UInt32)] = []
        for image in images where identifiers[image.facet] == nil {
            let id = UInt16(identifiers.count + 1)
            identifiers[image.facet] = id
            let value = le16(0) + le16(0) + le16(3) + le16(1) + le16(85) + le16(2) + le16(181) + le16(17) + le16(id)
            facetEntries.append((bom.add(Array(image.facet.utf8)), bom.add(value)))
        }
        bom.variable("FACETKEYS", bom.addTree(facetEntries))
        var entries: [(key: UInt32, value: UInt32)] = []
        for image in images {
            let key = le16(image.scale) + le16(image.idiom) + le16(identifiers[image.facet]!) + le16(85) + le16(181)
            entries.append((bom.add(key), bom.add(csi(image))))
        }
        if let transform { entries = transform(&bom, entries) }
        let tree = bom.addTree(entries, perNode: perNode)
        bom.variable("RENDITIONS", tree)
        mutate?(&bom, tree)
        return bom.build()
    }

    /// A CSI record: header, one slices TLV, an lzfse bitmap payload header.
    public static func csi(_ image: Image) -> [UInt8] {
        // The payload differs per rendition name, so distinct images have distinct digests.
        let payload = Array("MLEC".utf8) + le32(0) + le32(4) + le32(16) + fixed(image.name, 16)
        let tlv = le32(1001) + le32(20) + le32(1) + le32(0) + le32(0) + le32(image.width) + le32(image.height)
        var record = Array("ISTC".utf8) + le32(1) + le32(0) + le32(image.width) + le32(image.height)
        record += le32(UInt32(image.scale) * 100) + Array("BGRA".utf8) + le32(1) + le32(0) + le16(12) + le16(0)
        record += fixed(image.name, 128) + le32(UInt32(tlv.count)) + le32(1) + le32(0) + le32(UInt32(payload.count))
        return record + tlv + payload
    }
}

func padded(_ bytes: [UInt8], _ size: Int) -> [UInt8] { bytes + [UInt8](repeating: 0, count: max(0, size - bytes.count)) }
func fixed(_ text: String, _ size: Int) -> [UInt8] { padded(Array(Array(text.utf8).prefix(size)), size) }
public func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
public func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
public func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
public func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
