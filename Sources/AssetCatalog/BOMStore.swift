import ImgtraceSupport

/// The BOM container ("BOMStore"): numbered blocks, named variables and B+ trees.
/// Every BOM structure is big-endian. This layer knows nothing about what the blocks hold.
public struct BOMStore {
    /// A block's place in the file.
    public struct Block: Equatable, Sendable {
        public var offset: Int
        public var length: Int
    }

    /// One leaf entry of a tree: the key block and value block indices.
    public struct TreeEntry: Equatable, Sendable {
        public var key: UInt32
        public var value: UInt32
    }

    /// Tree statistics, for checks and reports.
    public struct TreeInfo: Equatable, Sendable {
        public var blockSize: Int
        public var pathCount: Int
        public var levels: Int
        public var leaves: Int
    }

    let reader: ByteReader
    /// Block table: index → (offset, length).
    public let blocks: [Block]
    /// Named variables → block index, in file order.
    public let variables: [(name: String, block: UInt32)]

    /// Parses the header, block table and variables of `bytes`.
    public init(_ bytes: UnsafeRawBufferPointer) throws {
        let reader = ByteReader(bytes)
        self.reader = reader
        guard reader.matches(0, "BOMStore") else {
            throw CatalogFormatError(offset: 0, reason: "not a BOM store (no `BOMStore` magic)")
        }
        let indexOffset = Int(try reader.u32be(16))
        let indexLength = Int(try reader.u32be(20))
        let varsOffset = Int(try reader.u32be(24))
        let varsLength = Int(try reader.u32be(28))
        try reader.check(indexOffset, indexLength, "the block table")
        try reader.check(varsOffset, varsLength, "the variables")
        let slotCount = Int(try reader.u32be(indexOffset))
        guard slotCount <= (indexLength - 4) / 8 else {
            throw CatalogFormatError(offset: indexOffset, reason: "block table claims \(slotCount) slots but holds \((indexLength - 4) / 8)")
        }
        var blocks: [Block] = []
        blocks.reserveCapacity(slotCount)
        for i in 0..<slotCount {
            let at = indexOffset + 4 + i * 8
            blocks.append(Block(offset: Int(try reader.u32be(at)), length: Int(try reader.u32be(at + 4))))
        }
        self.blocks = blocks
        let varCount = Int(try reader.u32be(varsOffset))
        var vars: [(String, UInt32)] = []
        var at = varsOffset + 4
        for _ in 0..<varCount {
            guard at + 5 <= varsOffset + varsLength else {
                throw CatalogFormatError(offset: at, reason: "variables run past their area")
            }
            let block = try reader.u32be(at)
            let nameLength = Int(try reader.u8(at + 4))
            try reader.check(at + 5, nameLength, "a variable name")
            vars.append((try reader.paddedString(at + 5, nameLength), block))
            at += 5 + nameLength
        }
        variables = vars
    }

    /// The block index of a named variable.
    public func variable(_ name: String) -> UInt32? {
        variables.first { $0.name == name }?.block
    }

    /// The block's bytes; checked against the file.
    public func block(_ index: UInt32) throws -> UnsafeRawBufferPointer {
        let block = try blockInfo(index)
        return try reader.slice(block.offset, block.length)
    }

    public func blockInfo(_ index: UInt32) throws -> Block {
        guard Int(index) < blocks.count else {
            throw CatalogFormatError(offset: 0, reason: "block \(index) is outside the block table (\(blocks.count) slots)")
        }
        let block = blocks[Int(index)]
        try reader.check(block.offset, block.length, "block \(index)")
        return block
    }

    /// Every leaf entry of the tree whose header is block `header`, in order: descends
    /// through the first child of each branch, then follows the leaves' forward links.
    /// A cycle or an absurd depth is an error with the offending node's offset.
    public func treeEntries(header: UInt32) throws -> (entries: [TreeEntry], info: TreeInfo) {
        let head = try blockInfo(header)
        guard reader.matches(head.offset, "tree") else {
            throw CatalogFormatError(offset: head.offset, reason: "tree header has no `tree` magic")
        }
        let root = try reader.u32be(head.offset + 8)
        let blockSize = Int(try reader.u32be(head.offset + 12))
        let pathCount = Int(try reader.u32be(head.offset + 16))
        var visited = Set<UInt32>()
        var node = root
        var levels = 1
        // Descend to the leftmost leaf.
        while true {
            guard visited.insert(node).inserted else {
                throw CatalogFormatError(offset: try blockInfo(node).offset, reason: "tree node \(node) is its own ancestor (cycle)")
            }
            let info = try blockInfo(node)
            try reader.check(info.offset, 12, "a tree node")
            let isLeaf = try reader.u16be(info.offset) != 0
            if isLeaf { break }
            let count = Int(try reader.u16be(info.offset + 2))
            guard count + 1 <= (info.length - 12) / 8 else {
                throw CatalogFormatError(offset: info.offset, reason: "branch node claims \(count) entries, more than its block holds")
            }
            node = try reader.u32be(info.offset + 12)
            levels += 1
            guard levels <= 64 else { throw CatalogFormatError(offset: info.offset, reason: "tree deeper than 64 levels") }
        }
        var entries: [TreeEntry] = []
        var leaves = 0
        // Distinct leaves never share bytes, so together they cannot use more than the file holds;
        // leaves that overlap one region would multiply entries far past the file's size.
        var leafBytes = 0
        var leafVisited = Set<UInt32>()
        var current = node
        while current != 0 {
            guard leafVisited.insert(current).inserted else {
                throw CatalogFormatError(offset: try blockInfo(current).offset, reason: "leaf \(current) links back to an earlier leaf (cycle)")
            }
            let info = try blockInfo(current)
            try reader.check(info.offset, 12, "a tree leaf")
            guard try reader.u16be(info.offset) != 0 else {
                throw CatalogFormatError(offset: info.offset, reason: "forward link leads to a branch node, not a leaf")
            }
            let count = Int(try reader.u16be(info.offset + 2))
            guard count <= (info.length - 12) / 8 else {
                throw CatalogFormatError(offset: info.offset, reason: "leaf claims \(count) entries but its \(info.length)-byte block holds \((info.length - 12) / 8)")
            }
            leafBytes += 12 + count * 8
            guard leafBytes <= reader.count else {
                throw CatalogFormatError(offset: info.offset, reason: "tree leaves overlap: \(leaves + 1) leaves claim more entries than the file holds")
            }
            for i in 0..<count {
                let at = info.offset + 12 + i * 8
                entries.append(TreeEntry(key: try reader.u32be(at + 4), value: try reader.u32be(at)))
            }
            leaves += 1
            current = try reader.u32be(info.offset + 4)
        }
        return (entries, TreeInfo(blockSize: blockSize, pathCount: pathCount, levels: levels, leaves: leaves))
    }
}
