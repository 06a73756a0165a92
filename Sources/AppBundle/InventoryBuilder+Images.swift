import AssetCatalog
import ImageHeaders
import ImgtraceSupport

extension InventoryBuilder {
    // MARK: Images

    mutating func addFile(
        _ tree: FileTree, treeIndex: Int, path: String, listedSize: Int, bundle: String, relative: String,
        source: ImageSource, appKitNames: Bool, mustBeImage: Bool, idPrefix: String = ""
    ) {
        let placement = LoosePlacement(
            bundle: bundle, relative: relative, source: source, appKitNames: appKitNames, mustBeImage: mustBeImage, idPrefix: idPrefix)
        add(LooseImageRead(tree, path: path, listedSize: listedSize, placement: placement), treeIndex: treeIndex, path: path)
    }

    /// A loose image read (here or ahead, on another thread) taken into the inventory.
    mutating func add(_ loose: consuming LooseImageRead, treeIndex: Int, path: String) {
        if !loose.warnings.isEmpty { inventory.warnings += loose.warnings }
        guard let image = loose.image.take() else { return }
        stored.append((.file(tree: treeIndex, path: path), loose.size, loose.firstBytes))
        inventory.images.append(image)
    }

    mutating func noteImplausible(_ image: BundleImage) {
        if let warning = implausible(image) { inventory.warnings.append(warning) }
    }

    mutating func addSourceCatalog(_ tree: FileTree, treeIndex: Int, root: String, bundle: String) {
        let reader = SourceCatalogReader(tree: tree, root: root)
        inventory.warnings += reader.warnings
        let sizes = Dictionary(tree.entries.map { ($0.path, $0.size) }, uniquingKeysWith: { a, _ in a })
        for slot in reader.images {
            let before = inventory.images.count
            addFile(
                tree, treeIndex: treeIndex, path: slot.path, listedSize: sizes[slot.path] ?? 0, bundle: bundle,
                relative: slot.name, source: .sourceCatalog, appKitNames: false, mustBeImage: true)
            guard inventory.images.count > before else { continue }
            var image = inventory.images[before]
            image.name = slot.name
            image.scale = slot.scale
            image.idiom = slot.idiom
            image.appearance = slot.appearance
            image.details = slot.details
            inventory.images[before] = image
        }
    }

    private static let appearanceNames: [(String, String)] = [("Dark", "dark"), ("Light", "light"), ("Tint", "tinted")]

    mutating func addRenditions(_ catalog: CarCatalog, bytes: [UInt8], carPath: String, bundle: String) {
        inventory.warnings += catalog.warnings.map { "\(carPath): \($0)" }
        carBytes[carPath] = bytes
        if let thinned = catalog.metadata?.thinnedFor {
            inventory.thinning.append(CatalogThinning(file: carPath, scale: thinned.scale, idiom: thinned.idiom.map { ImageIdiom(name: $0.name) }))
        }
        var used = Set<String>()
        // The next free `#N` per id: renditions that share an id get numbered without rescanning.
        var nextNumber: [String: Int] = [:]
        for rendition in catalog.renditions {
            guard let facet = rendition.facet, rendition.isImage else { continue }
            let idiom = rendition.idiom?.name ?? "idiom\(rendition.value(.idiom))"
            let appearance = rendition.appearanceName.map { name in
                InventoryBuilder.appearanceNames.first { name.contains($0.0) }?.1 ?? name
            }
            // The id names every attribute that tells this rendition from its siblings.
            var parts = [idiom, "\(rendition.scale)x", appearance ?? "any"]
            let shown: Set<KeyAttribute> = [.identifier, .element, .part, .scale, .idiom, .appearance]
            for (attribute, value) in rendition.key where value != 0 {
                guard let known = KeyAttribute(rawValue: attribute) else { parts.append("a\(attribute)=\(value)"); continue }
                if !shown.contains(known) { parts.append("\(known.name)=\(value)") }
            }
            var id = "\(carPath)#\(facet)[\(parts.joined(separator: ","))]"
            if !used.insert(id).inserted {
                var n = nextNumber[id] ?? 2
                while !used.insert("\(id)#\(n)").inserted { n += 1 }
                nextNumber[id] = n + 1
                id = "\(id)#\(n)"
            }
            let vector = rendition.isVector || rendition.pixelFormat == "PDF" || rendition.pixelFormat == "SVG"
            let width = rendition.pixelWidth > 0 && !vector ? rendition.pixelWidth : nil
            let height = rendition.pixelHeight > 0 && !vector ? rendition.pixelHeight : nil
            var details: [String: String] = [:]
            if let layout = rendition.layout { details["layout"] = layout }
            if let compression = rendition.compression { details["compression"] = compression }
            if let name = rendition.name { details["renditionName"] = name }
            if let format = rendition.pixelFormat { details["pixelFormat"] = format }
            if rendition.atlasFrame != nil { details["packed"] = "true" }
            var image = BundleImage(
                id: id, bundle: bundle, path: carPath, source: .assetCatalog, name: facet,
                format: InventoryBuilder.format(of: rendition), pixelWidth: width, pixelHeight: height,
                scale: rendition.scale, idiom: ImageIdiom(name: idiom), appearance: appearance,
                bytesOnDisk: rendition.sizeOnDisk, isVector: vector, details: details)
            if let w = width, let h = height {
                image.decodedBytes = ImageInfo.decodedBytes(width: w, height: h, bytesPerPixel: InventoryBuilder.bytesPerPixel(rendition))
            }
            stored.append(
                InventoryBuilder.payload(of: rendition, in: bytes).map { payload in
                    (
                        .rendition(car: carPath, offset: payload.offset, length: payload.length), payload.length,
                        prefixHash(Array(bytes[payload.offset..<min(payload.offset + 4096, payload.offset + payload.length)]))
                    )
                })
            noteImplausible(image)
            inventory.images.append(image)
        }
    }

    static func format(of rendition: Rendition) -> String? {
        switch rendition.pixelFormat {
        case "ARGB", "GA8", "GA16", "RGBW", "ARGB16": return "png"
        case "JPEG": return "jpeg"
        case "HEIF": return "heif"
        case "PDF": return "pdf"
        case "SVG": return "svg"
        default: return rendition.pixelFormat?.lowercased()
        }
    }

    static func bytesPerPixel(_ rendition: Rendition) -> Int {
        switch rendition.pixelFormat {
        case "GA8": return 2
        case "RGBW", "ARGB16", "RGBAh": return 8
        default: return 4
        }
    }

    /// The pixel payload after the 184-byte CSI header and its TLV block; what two identical images share.
    static func payload(of rendition: Rendition, in bytes: [UInt8]) -> (offset: Int, length: Int)? {
        let start = rendition.offset
        guard rendition.sizeOnDisk > 184, start >= 0, start + rendition.sizeOnDisk <= bytes.count else { return nil }
        let tlv = Int(UInt32(bytes[start + 168]) | UInt32(bytes[start + 169]) << 8 | UInt32(bytes[start + 170]) << 16 | UInt32(bytes[start + 171]) << 24)
        let offset = start + 184 + tlv
        let length = start + rendition.sizeOnDisk - offset
        return tlv >= 0 && length > 0 && offset < bytes.count ? (offset, length) : nil
    }
}
