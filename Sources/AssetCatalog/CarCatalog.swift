import ImgtraceSupport

/// CARHEADER: versions and counts of a compiled catalog.
public struct CarHeader: Equatable, Sendable {
    public var coreUIVersion: Int
    public var storageVersion: Int
    public var timestamp: Int
    public var renditionCount: Int
    public var mainVersion: String
    public var versionString: String
    public var uuid: [UInt8]
    public var schemaVersion: Int
    public var colorSpaceID: Int
    public var keySemantics: Int
}

/// EXTENDED_METADATA (absent in Xcode ≤ 7 catalogs).
public struct ExtendedMetadata: Equatable, Sendable {
    public var thinningArguments: String
    public var deploymentPlatformVersion: String
    public var deploymentPlatform: String
    public var authoringTool: String

    public init(thinningArguments: String, deploymentPlatformVersion: String, deploymentPlatform: String, authoringTool: String) {
        self.thinningArguments = thinningArguments
        self.deploymentPlatformVersion = deploymentPlatformVersion
        self.deploymentPlatform = deploymentPlatform
        self.authoringTool = authoringTool
    }

    /// The device a thinned catalog was cut for (`… <idiom 1> … <scale 2> …`): App Store thinning,
    /// a device-specific export, a Debug build of the active device. Nil when it names no scale.
    public var thinnedFor: (scale: Int, idiom: Idiom?)? {
        // `<key N>` among the space-separated words: the word after `<key`.
        let words = thinningArguments.split(separator: " ")
        func number(_ key: String) -> Int? {
            guard let at = words.firstIndex(of: Substring("<" + key)), at + 1 < words.count else { return nil }
            return Int(words[at + 1].prefix { $0.isNumber })
        }
        guard let scale = number("scale"), (1...3).contains(scale) else { return nil }
        return (scale, number("idiom").flatMap { UInt16(exactly: $0) }.flatMap(Idiom.init(rawValue:)))
    }
}

/// A compiled asset catalog (`Assets.car`): the CAR content of a BOM store.
/// The reader returns values and warnings; it prints nothing and decompresses nothing.
public struct CarCatalog: Sendable {
    public var header: CarHeader
    public var metadata: ExtendedMetadata?
    /// Attribute ids of the rendition key, after KEYFORMATWORKAROUND.
    public var keyFormat: [UInt16]
    /// APPEARANCEKEYS: name → id, sorted by id then name.
    public var appearances: [(name: String, id: Int)]
    /// FACETKEYS: facet name → NameIdentifier, in tree order.
    public var facets: [(name: String, identifier: Int)]
    public var renditions: [Rendition]
    public var renditionTree: BOMStore.TreeInfo
    /// Problems that did not stop the read (null value blocks, counts that disagree).
    public var warnings: [String]

    /// Reads the catalog at `path`; a malformed file throws `InputError` with the offset.
    public static func read(contentsOf path: String) throws -> CarCatalog {
        let file = try MappedFile(path: path)
        do {
            return try file.withBytes { try parse($0) }
        } catch let error as CatalogFormatError {
            throw InputError(path: path, location: "offset \(error.offset)", reason: error.reason)
        }
    }

    /// Parses a catalog from its bytes.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws -> CarCatalog {
        let bom = try BOMStore(bytes)
        let reader = bom.reader
        var warnings: [String] = []

        guard let headerBlock = bom.variable("CARHEADER") else {
            throw CatalogFormatError(offset: 0, reason: "no CARHEADER variable")
        }
        let header = try parseHeader(bom, headerBlock)
        let metadata = try bom.variable("EXTENDED_METADATA").flatMap { try parseMetadata(bom, $0) }
        guard let keyFormatBlock = bom.variable("KEYFORMAT") else {
            throw CatalogFormatError(offset: 0, reason: "no KEYFORMAT variable")
        }
        var keyFormat = try parseKeyFormat(bom, keyFormatBlock)
        if let workaround = bom.variable("KEYFORMATWORKAROUND") {
            keyFormat = try applyWorkaround(bom, workaround, to: keyFormat)
        }

        var appearances: [(String, Int)] = []
        if let tree = bom.variable("APPEARANCEKEYS") {
            for entry in try bom.treeEntries(header: tree).entries {
                let name = try bom.block(entry.key)
                let value = try bom.block(entry.value)
                let id = value.count >= 2 ? Int(value[0]) | Int(value[1]) << 8 : 0
                appearances.append((String(decoding: name, as: UTF8.self), id))
            }
            appearances.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
        }

        var facets: [(String, Int)] = []
        // Identifiers are 16-bit: a table indexed by identifier (as large as the largest one in
        // the file) instead of a hash per rendition.
        var facetByIdentifier: [String?] = []
        if let tree = bom.variable("FACETKEYS") {
            for entry in try bom.treeEntries(header: tree).entries {
                let name = String(decoding: try bom.block(entry.key), as: UTF8.self)
                let value = try bom.blockInfo(entry.value)
                var identifier = 0
                if value.length >= 6 {
                    let count = Int(try reader.u16le(value.offset + 4))
                    for i in 0..<min(count, (value.length - 6) / 4) {
                        let at = value.offset + 6 + i * 4
                        if try reader.u16le(at) == KeyAttribute.identifier.rawValue { identifier = Int(try reader.u16le(at + 2)) }
                    }
                }
                facets.append((name, identifier))
                if identifier >= facetByIdentifier.count { facetByIdentifier.append(contentsOf: repeatElement(nil, count: identifier + 1 - facetByIdentifier.count)) }
                if facetByIdentifier[identifier] == nil { facetByIdentifier[identifier] = name }
            }
        }

        guard let renditionsTree = bom.variable("RENDITIONS") else {
            throw CatalogFormatError(offset: 0, reason: "no RENDITIONS variable")
        }
        let (entries, treeInfo) = try bom.treeEntries(header: renditionsTree)
        if entries.count != treeInfo.pathCount {
            warnings.append("RENDITIONS tree holds \(entries.count) entries but its header says \(treeInfo.pathCount)")
        }
        if header.renditionCount != entries.count {
            warnings.append("CARHEADER counts \(header.renditionCount) renditions, the RENDITIONS tree holds \(entries.count)")
        }
        let appearanceNames = Dictionary(appearances.map { ($0.1, $0.0) }, uniquingKeysWith: { first, _ in first })
        var renditions: [Rendition] = []
        renditions.reserveCapacity(entries.count)
        // Blocks may be shared by many entries (a hostile file shares one large block among
        // thousands): each distinct block is decoded once and the first rendition made from it
        // is copied, so work and memory follow the file's bytes, not its entry count. Block ids
        // index the BOM's own table, so the first use of each is one array slot, not a hash.
        var keyUse = [Int32](repeating: -1, count: bom.blocks.count)
        var valueUse = [Int32](repeating: -1, count: bom.blocks.count)
        var longKeys = 0
        // Every key's values go into one buffer, each rendition keeping where its own lie; the
        // keys are made once it is whole (a key made earlier would copy it on the next append).
        var keyValues: [UInt16] = []
        keyValues.reserveCapacity(entries.count * keyFormat.count)
        var keySpans: [(offset: Int32, count: Int32)] = []
        keySpans.reserveCapacity(entries.count)
        // What names the facet and the appearance: the first KEYFORMAT slot of each.
        let identifierSlot = keyFormat.firstIndex(of: KeyAttribute.identifier.rawValue) ?? Int.max
        let appearanceSlot = keyFormat.firstIndex(of: KeyAttribute.appearance.rawValue) ?? Int.max
        for entry in entries {
            let keyBlock = try bom.blockInfo(entry.key)
            let valueBlock = try bom.blockInfo(entry.value)
            // Each rendition is built in its array slot: no copy of a local into the array.
            let slot = renditions.count
            let firstWithValue = valueUse[Int(entry.value)]
            if firstWithValue >= 0 {
                renditions.append(renditions[Int(firstWithValue)])
            } else {
                valueUse[Int(entry.value)] = Int32(slot)
                renditions.append(Rendition.unread(valueBlock))
                if valueBlock.length < 184 || !reader.matches(valueBlock.offset, "ISTC") {
                    warnings.append("rendition value block \(entry.value) at offset \(valueBlock.offset) is not a CSI record (\(valueBlock.length) bytes)")
                } else {
                    try CSIRecord.decode(reader, block: valueBlock, into: &renditions[slot])
                }
            }
            let firstWithKey = keyUse[Int(entry.key)]
            if firstWithKey >= 0 {
                keySpans.append(keySpans[Int(firstWithKey)])
            } else {
                keyUse[Int(entry.key)] = Int32(slot)
                let attributes = keyBlock.length / 2
                let kept = min(attributes, max(keyFormat.count, maxKeyAttributes))
                if kept < attributes { longKeys += 1 }
                keySpans.append((Int32(keyValues.count), Int32(kept)))
                for i in 0..<kept { keyValues.append(try reader.u16le(keyBlock.offset + i * 2)) }
            }
            let span = keySpans[slot]
            func value(at keySlot: Int) -> Int { keySlot < Int(span.count) ? Int(keyValues[Int(span.offset) + keySlot]) : 0 }
            // A CSI record always has a name (`Rendition.name`); other value blocks have no facet.
            let identifier = value(at: identifierSlot)
            renditions[slot].facet = renditions[slot].name != nil && identifier < facetByIdentifier.count ? facetByIdentifier[identifier] : nil
            let appearance = value(at: appearanceSlot)
            renditions[slot].appearanceName = appearance != 0 ? appearanceNames[appearance] : nil
        }
        let keys = RenditionKey.Storage(attributes: keyFormat, values: keyValues)
        for (slot, span) in keySpans.enumerated() { renditions[slot].key = RenditionKey(keys, offset: Int(span.offset), count: Int(span.count)) }
        if longKeys > 0 {
            warnings.append(
                "\(longKeys) rendition key block\(longKeys == 1 ? " is" : "s are") longer than \(max(keyFormat.count, maxKeyAttributes)) attributes; the rest is ignored")
        }
        return CarCatalog(
            header: header, metadata: metadata, keyFormat: keyFormat, appearances: appearances,
            facets: facets, renditions: renditions, renditionTree: treeInfo, warnings: warnings)
    }

    /// Real keys have one attribute per KEYFORMAT slot (under 20); more is a corrupt block.
    static let maxKeyAttributes = 64

    static func parseHeader(_ bom: BOMStore, _ index: UInt32) throws -> CarHeader {
        let block = try bom.blockInfo(index)
        let r = bom.reader
        guard r.matches(block.offset, "RATC") else {
            throw CatalogFormatError(offset: block.offset, reason: "CARHEADER has no `RATC` magic")
        }
        guard block.length >= 436 else {
            throw CatalogFormatError(offset: block.offset, reason: "CARHEADER is \(block.length) bytes, expected 436")
        }
        let o = block.offset
        return CarHeader(
            coreUIVersion: Int(try r.u32le(o + 4)), storageVersion: Int(try r.u32le(o + 8)),
            timestamp: Int(try r.u32le(o + 12)), renditionCount: Int(try r.u32le(o + 16)),
            mainVersion: try r.paddedString(o + 20, 128).trimmingNewlines(),
            versionString: try r.paddedString(o + 148, 256),
            uuid: Array(try r.slice(o + 404, 16)), schemaVersion: Int(try r.u32le(o + 424)),
            colorSpaceID: Int(try r.u32le(o + 428)), keySemantics: Int(try r.u32le(o + 432)))
    }

    static func parseMetadata(_ bom: BOMStore, _ index: UInt32) throws -> ExtendedMetadata? {
        let block = try bom.blockInfo(index)
        let r = bom.reader
        guard block.length >= 1028, r.matches(block.offset, "META") else { return nil }
        let o = block.offset + 4
        return ExtendedMetadata(
            thinningArguments: try r.paddedString(o, 256), deploymentPlatformVersion: try r.paddedString(o + 256, 256),
            deploymentPlatform: try r.paddedString(o + 512, 256), authoringTool: try r.paddedString(o + 768, 256))
    }

    static func parseKeyFormat(_ bom: BOMStore, _ index: UInt32) throws -> [UInt16] {
        let block = try bom.blockInfo(index)
        let r = bom.reader
        guard r.matches(block.offset, "tmfk") else {
            throw CatalogFormatError(offset: block.offset, reason: "KEYFORMAT has no `tmfk` magic")
        }
        let count = Int(try r.u32le(block.offset + 8))
        guard count <= (block.length - 12) / 4 else {
            throw CatalogFormatError(offset: block.offset + 8, reason: "KEYFORMAT claims \(count) attributes, more than its block holds")
        }
        return try (0..<count).map { UInt16(truncatingIfNeeded: try r.u32le(block.offset + 12 + $0 * 4)) }
    }

    /// KEYFORMATWORKAROUND: one u32 per KEYFORMAT slot (some writers prefix the count);
    /// a non-zero entry replaces the `placeholder` id at that position.
    static func applyWorkaround(_ bom: BOMStore, _ index: UInt32, to format: [UInt16]) throws -> [UInt16] {
        let block = try bom.blockInfo(index)
        let r = bom.reader
        let words = block.length / 4
        var start = 0
        if words == format.count + 1, Int(try r.u32le(block.offset)) == format.count { start = 1 }
        var out = format
        for i in 0..<min(format.count, words - start) {
            let replacement = try r.u32le(block.offset + (start + i) * 4)
            if replacement != 0 { out[i] = UInt16(truncatingIfNeeded: replacement) }
        }
        return out
    }
}

extension String {
    func trimmingNewlines() -> String {
        var s = self
        while s.hasSuffix("\n") || s.hasSuffix("\r") { s.removeLast() }
        return s
    }
}

extension Rendition {
    /// A rendition whose value block is known but not yet decoded (or is no CSI record).
    static func unread(_ block: BOMStore.Block) -> Rendition {
        Rendition(
            facet: nil, name: nil, key: [], sizeOnDisk: block.length, layoutRaw: nil, pixelFormat: nil, compression: nil,
            pixelWidth: 0, pixelHeight: 0, sizeSource: nil, csiScaleFactor: 0, csiFlags: 0, bitmapFlags: nil,
            dataLength: nil, uti: nil, atlasFrame: nil, multisize: [], appearanceName: nil, offset: block.offset)
    }
}

/// A malformed catalog: what was wrong and at which byte offset.
public typealias CatalogFormatError = FormatError
