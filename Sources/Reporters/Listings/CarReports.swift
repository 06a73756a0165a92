import ImgtraceSupport
import AssetCatalog

/// `imgtrace car --format json`: the array `xcrun assetutil --info` prints, element 0 the
/// header, then one object per rendition, with assetutil's key names and values.
public enum CarJSONReport {
    public static func render(_ catalog: CarCatalog) -> [UInt8] {
        var w = JSONText()
        w.beginArray()
        w.beginObject()
        if !catalog.appearances.isEmpty {
            w.key("Appearances")
            w.beginObject()
            for appearance in catalog.appearances.sorted(by: { $0.name < $1.name }) { w.field(appearance.name, appearance.id) }
            w.endObject()
        }
        w.field("AssetStorageVersion", catalog.header.versionString)
        if let metadata = catalog.metadata {
            w.field("Authoring Tool", metadata.authoringTool.trimmingCharacters(in: .newlines))
        }
        w.field("CoreUIVersion", catalog.header.coreUIVersion)
        w.field("DumpToolVersion", "imgtrace")
        w.field("Key Format", strings: catalog.keyFormat.map { KeyAttribute(rawValue: $0)?.themeName ?? "kCRThemeUnknown\($0)Name" })
        w.field("MainVersion", catalog.header.mainVersion)
        if let metadata = catalog.metadata {
            w.field("Platform", metadata.deploymentPlatform)
            w.field("PlatformVersion", metadata.deploymentPlatformVersion)
        }
        w.field("SchemaVersion", catalog.header.schemaVersion)
        w.field("StorageVersion", catalog.header.storageVersion)
        if let thinning = catalog.metadata?.thinningArguments, !thinning.isEmpty { w.field("ThinningParameters", thinning) }
        w.field("Timestamp", catalog.header.timestamp)
        w.endObject()
        let hasIdiom = catalog.keyFormat.contains(KeyAttribute.idiom.rawValue)
        for r in catalog.renditions where r.name != nil {
            w.beginObject()
            if let appearance = r.appearanceName { w.field("Appearance", appearance) }
            w.field("AssetType", assetType(r))
            if let bits = bitsPerComponent(r) { w.field("BitsPerComponent", bits) }
            if let compression = r.compression, !compression.hasSuffix("(rawd)") { w.field("Compression", compression) }
            if let length = r.dataLength { w.field("Data Length", length) }
            if r.value(.deploymentTarget) != 0 { w.field("DeploymentTarget", r.value(.deploymentTarget)) }
            if r.value(.dim1) != 0 { w.field("Dimension1", r.value(.dim1)) }
            if let encoding = encoding(r) { w.field("Encoding", encoding) }
            if r.value(.dim2) != 0, r.layoutRaw != 1010 { w.field("Icon Index", r.value(.dim2)) }
            if hasIdiom { w.field("Idiom", r.idiom?.name ?? "idiom-\(r.value(.idiom))") }
            w.field("Name", r.facet ?? r.name)
            if r.value(.identifier) != 0 { w.field("NameIdentifier", r.value(.identifier)) }
            if r.pixelFormat != nil, r.pixelFormat != "DATA" || r.layoutRaw == 1003 { w.field("Opaque", r.isOpaque) }
            if r.sizeSource != nil {
                w.field("PixelHeight", r.pixelHeight)
                w.field("PixelWidth", r.pixelWidth)
            }
            w.field("RenditionName", r.name)
            w.field("Scale", r.scale)
            w.field("SizeOnDisk", r.sizeOnDisk)
            if !r.multisize.isEmpty {
                w.field("Sizes", strings: r.multisize.map { "\($0.width)x\($0.height) index:\($0.index) idiom:\(Idiom(rawValue: UInt16($0.idiom))?.name ?? String($0.idiom))" })
            }
            if r.value(.subtype) != 0 { w.field("Subtype", r.value(.subtype)) }
            if r.layoutRaw == 1000 { w.field("UTI", r.uti ?? "UTI-Unknown") }
            w.endObject()
        }
        w.endArray()
        return w.lineBytes
    }

    static func assetType(_ r: Rendition) -> String {
        switch r.layoutRaw ?? -1 {
        case 1000: return "Data"
        case 1009: return "Color"
        case 1010: return "MultiSized Image"
        case 1004: return "PackedImage"
        case 9, 1017: return "Vector"
        case 1019: return "IconImageStack"
        case 1020: return "IconGroup"
        case 1021, 6: return "Named Gradient"
        default: return r.value(.part) == 220 ? "Icon Image" : "Image"
        }
    }

    static func encoding(_ r: Rendition) -> String? {
        switch r.pixelFormat {
        case "ARGB": return "ARGB"
        case "GA8": return "Gray"
        case "GA16": return "GRAY-16"
        case "RGB5": return "RGB555"
        case "RGBW": return "ARGB-16"
        case nil, "DATA": return nil
        case let other?: return other
        }
    }

    static func bitsPerComponent(_ r: Rendition) -> Int? {
        switch r.pixelFormat {
        case "ARGB", "GA8", "JPEG", "HEIF": return 8
        case "GA16", "RGBW": return 16
        case "RGB5": return 5
        default: return nil
        }
    }
}

/// `imgtrace car --format text`: one row per rendition, sorted by name, then the totals.
public enum CarTextReport {
    public static func render(_ catalog: CarCatalog, file: String, width: Int = 120) -> String {
        let sorted = catalog.renditions.enumerated().sorted { a, b in
            let an = a.element.facet ?? a.element.name ?? ""
            let bn = b.element.facet ?? b.element.name ?? ""
            return an != bn ? an.utf8.lexicographicallyPrecedes(bn.utf8) : a.offset < b.offset
        }.map(\.element)
        let rows = sorted.map { r -> [String] in
            [
                // A packed asset is an atlas of other renditions: no facet names it.
                r.facet ?? (r.layout == "packed-image" ? "(atlas)" : "-"), r.name.map(TextTable.escapeName) ?? "(not a CSI record)", r.layout ?? "-",
                r.idiom?.name ?? "-", r.scale == 0 ? "-" : "@\(r.scale)x", r.appearanceName ?? "-",
                r.sizeSource == nil ? "-" : dimensions(r.pixelWidth, r.pixelHeight), r.pixelFormat ?? "-",
                r.compression ?? "-", kibibytes(r.sizeOnDisk),
            ]
        }
        var out = TextTable.render(
            header: ["NAME", "RENDITION", "LAYOUT", "IDIOM", "SCALE", "APPEARANCE", "PIXELS", "FORMAT", "COMPRESSION", "SIZE"],
            rows: rows, rightAligned: [9], width: width)
        let total = catalog.renditions.map(\.sizeOnDisk).saturatingSum()
        var notes = ["\(file): \(counted(catalog.renditions.count, "rendition")), \(counted(catalog.facets.count, "facet")), \(kibibytes(total)) of records"]
        let version = catalog.header.versionString.isEmpty ? "" : ", " + catalog.header.versionString
        notes.append("CoreUI \(catalog.header.coreUIVersion), storage \(catalog.header.storageVersion)\(version)")
        if let thinning = catalog.metadata?.thinningArguments, !thinning.isEmpty { notes.append("thinned: \(thinning)") }
        notes += catalog.warnings.map { "warning: \($0)" }
        out += "\n" + notes.map { TextTable.wrapped($0, width: width, first: "", rest: "  ") + "\n" }.joined()
        return out
    }
}
