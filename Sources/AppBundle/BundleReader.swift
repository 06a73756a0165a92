import AssetCatalog
import Crypto
import Foundation
import ImageHeaders
import ImgtraceSupport

/// Builds a ``BundleInventory`` from an `.app`, `.ipa`, `.app.zip`, `.xcarchive`, `.xcassets`, a lone
/// `Assets.car`, or a plain folder, plus any `--system-images` folders.
public enum BundleReader {
    /// Folder extensions that start a nested bundle.
    static let bundleKinds: [String: BundleKind] = [
        "app": .app, "appex": .appex, "framework": .framework, "bundle": .bundle, "xctest": .xctest,
    ]
    /// The largest catalog or plist read into memory.
    static let maxCatalogBytes = 1 << 30
    static let maxPlistBytes = 16 << 20

    /// Inventories `path` and the given system image folders.
    ///
    /// Throws ``ImgtraceSupport/InputError`` when the input itself cannot be read (missing, not a
    /// bundle, a corrupt zip or top-level catalog); problems inside it become warnings.
    public static func inventory(of path: String, systemImages: [String] = []) throws -> BundleInventory {
        var builder = InventoryBuilder()
        try builder.addTop(path)
        for folder in systemImages { try builder.addSystemImages(folder) }
        return try builder.finish()
    }

    /// Inventories a tree already in memory (tests and fuzzing build bundles without a disk).
    package static func inventory(ofTree tree: FileTree, name: String) throws -> BundleInventory {
        var builder = InventoryBuilder()
        builder.addTree(tree, name: name)
        return try builder.finish()
    }
}

/// Where one image's bytes live, for the digest pass.
private enum StoredBytes {
    case file(tree: Int, path: String)
    case rendition(car: String, offset: Int, length: Int)
}

/// A hash of the first 4 KiB: a cheap first filter, as duplicate finders hash a prefix before the
/// whole file. Only compared within one run, so the per-process seed of `Hasher` does no harm.
private func prefixHash(_ bytes: [UInt8]) -> Int {
    var hasher = Hasher()
    bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0.prefix(4096))) }
    return hasher.finalize()
}

private struct InventoryBuilder {
    var inventory = BundleInventory()
    var trees: [FileTree] = []
    var stored: [String: (StoredBytes, size: Int, prefix: Int)] = [:]
    var carBytes: [String: [UInt8]] = [:]

    // MARK: Opening the input

    mutating func addTop(_ path: String) throws {
        let name = PathText.lastComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(path: path, reason: "no such file or folder")
        }
        if isDirectory.boolValue {
            let tree = try DirectoryTree(root: path)
            if name.hasSuffix(".xcarchive") {
                let app = try archivedApp(tree, path: path)
                addBundleTree(SubTree(tree, folder: app), name: PathText.lastComponent(app))
            } else if name.hasSuffix(".xcassets") {
                let index = register(tree)
                inventory.bundles.append(BundleInfo(id: ".", kind: .sourceCatalog, name: name, resourceRoot: ""))
                addSourceCatalog(tree, treeIndex: index, root: "", bundle: ".")
                inventory.warnings += tree.warnings
            } else {
                addBundleTree(tree, name: name)
            }
            return
        }
        let (fd, _) = try MappedFile.openRegularFile(path)
        var magic = [UInt8](repeating: 0, count: 8)
        let n = read(fd, &magic, 8)
        close(fd)
        if n >= 4, magic.starts(with: [0x50, 0x4B]) {
            let zip = try ZipTree(archivePath: path)
            let app = zipAppFolder(zip)
            for entry in zip.entries where !entry.path.hasPrefix(app.isEmpty ? "" : app + "/") && entry.path != app {
                if isJunk(entry.path) && !isJunk(parentPath(entry.path)) { inventory.junk.append(entry.path) }
            }
            let appName = app.isEmpty ? name : PathText.lastComponent(app)
            addBundleTree(app.isEmpty ? zip : SubTree(zip, folder: app), name: appName)
        } else if n == 8, magic == Array("BOMStore".utf8) {
            // A lone compiled catalog: its renditions are the inventory.
            let catalog = try CarCatalog.read(contentsOf: path)
            let bytes = try MappedFile(path: path).withBytes { [UInt8]($0) }
            inventory.bundles.append(BundleInfo(id: ".", kind: .folder, name: name, resourceRoot: ""))
            addRenditions(catalog, bytes: bytes, carPath: name, bundle: ".")
        } else {
            throw InputError(path: path, reason: "not an app bundle, .ipa, .xcarchive, .xcassets or .car")
        }
    }

    /// The app inside an `.xcarchive`: `ApplicationProperties.ApplicationPath`, else the first `Products/Applications/*.app`.
    private func archivedApp(_ tree: DirectoryTree, path: String) throws -> String {
        let folders = Set(tree.entries.filter { $0.kind == .directory }.map(\.path))
        if let bytes = try? tree.contents("Info.plist", maxBytes: BundleReader.maxPlistBytes),
            let plist = try? PropertyList.parse(bytes),
            let app = plist["ApplicationProperties"]?["ApplicationPath"]?.string, folders.contains("Products/" + app)
        {
            return "Products/" + app
        }
        if let app = folders.sorted().first(where: { $0.hasPrefix("Products/Applications/") && $0.hasSuffix(".app") && $0.split(separator: "/").count == 3 }) {
            return app
        }
        throw InputError(path: path, reason: "no Products/Applications/*.app in the archive")
    }

    /// `Payload/NAME.app` in an `.ipa`, `NAME.app` at the top of an `.app.zip`, or `` for the whole archive.
    private func zipAppFolder(_ zip: ZipTree) -> String {
        let folders = zip.entries.filter { $0.kind == .directory }.map(\.path)
        if let app = folders.first(where: { $0.hasPrefix("Payload/") && $0.hasSuffix(".app") && $0.split(separator: "/").count == 2 }) {
            return app
        }
        return folders.first { $0.hasSuffix(".app") && !$0.contains("/") } ?? ""
    }

    private mutating func register(_ tree: FileTree) -> Int {
        trees.append(tree)
        return trees.count - 1
    }

    // MARK: Walking a bundle

    mutating func addTree(_ tree: FileTree, name: String) { addBundleTree(tree, name: name) }

    private mutating func addBundleTree(_ tree: FileTree, name: String) {
        let index = register(tree)
        inventory.warnings += tree.warnings
        let folders = Set(tree.entries.filter { $0.kind == .directory }.map(\.path))
        let files = Set(tree.entries.filter { $0.kind == .file }.map(\.path))
        // Each path belongs to the deepest bundle folder above it.
        var bundleOf: [String: String] = ["": "."]
        var bundleRoots: [String] = [""]
        var catalogs: [(root: String, bundle: String)] = []
        var topKind = BundleReader.bundleKinds[extensionOf(name)] ?? .folder
        if topKind == .folder,
            files.contains("Info.plist") || files.contains("Contents/Info.plist")
                || files.contains("Resources/Info-gnustep.plist")
        {
            topKind = .app
        }
        for entry in tree.entries {
            let parent = parentPath(entry.path)
            if isJunk(entry.path) {
                if !isJunk(parent) { inventory.junk.append(entry.path) }
                continue
            }
            let owner = bundleOf[parent] ?? "."
            switch entry.kind {
            case .directory:
                let ext = extensionOf(lastComponent(entry.path))
                if BundleReader.bundleKinds[ext] != nil {
                    bundleOf[entry.path] = entry.path
                    bundleRoots.append(entry.path)
                } else {
                    bundleOf[entry.path] = owner
                }
                if ext == "xcassets" { catalogs.append((entry.path, owner)) }
            case let .symlink(target):
                if resolveInside(parent, target) == nil {
                    inventory.warnings.append("\(entry.path): symbolic link to `\(target)` leaves the bundle; not followed")
                }
            case .file:
                break
            }
        }
        let versionedResources = InventoryBuilder.versionedResourceFolders(folders)
        let foldersWithDefaultPNG = Set(
            files.filter {
                let name = lastComponent($0)
                return name.hasPrefix("Default") && name.hasSuffix(".png")
            }.map(parentPath))
        var infos: [String: BundleInfo] = [:]
        for root in bundleRoots {
            let id = root.isEmpty ? "." : root
            let kind = root.isEmpty ? topKind : BundleReader.bundleKinds[extensionOf(lastComponent(root))] ?? .bundle
            var info = BundleInfo(
                id: id, kind: kind, name: root.isEmpty ? name : lastComponent(root),
                resourceRoot: resourceRoot(root, folders: folders, files: files, versioned: versionedResources))
            let p = root.isEmpty ? "" : root + "/"
            let candidates = [p + "Info.plist", p + "Contents/Info.plist", p + "Resources/Info-gnustep.plist", p + "Resources/Info.plist"]
            if let plistPath = candidates.first(where: files.contains) {
                info.infoPlistPath = plistPath
                do {
                    let plist = try PropertyList.parse(try tree.contents(plistPath, maxBytes: BundleReader.maxPlistBytes))
                    info.info = InfoPlistFacts(plist)
                } catch {
                    inventory.warnings.append("\(plistPath): \(describe(error))")
                }
            }
            infos[id] = info
        }
        var localizations: [String: Set<String>] = [:]
        var nibNames: [String: Set<String>] = [:]  // nib path → names
        for entry in tree.entries where entry.kind == .file {
            let path = entry.path
            let parent = parentPath(path)
            guard !isJunk(path), !path.contains("_CodeSignature/") else { continue }
            let bundle = bundleOf[parent] ?? "."
            let components = path.split(separator: "/")
            if let lproj = components.dropLast().last(where: { $0.hasSuffix(".lproj") }) {
                localizations[bundle, default: []].insert(String(lproj.dropLast(6)))
            }
            if components.contains(where: { $0.hasSuffix(".xcassets") }) { continue }
            let fileName = String(components.last!)
            let ext = extensionOf(fileName)
            if let nib = components.firstIndex(where: { $0.hasSuffix(".nib") }) {
                let nibPath = components[...nib].joined(separator: "/")
                readNib(tree, path: path, nibPath: nibPath, into: &nibNames)
                continue
            }
            if ext == "car" {
                do {
                    let bytes = try tree.contents(path, maxBytes: BundleReader.maxCatalogBytes)
                    let catalog = try bytes.withUnsafeBytes { try CarCatalog.parse($0) }
                    addRenditions(catalog, bytes: bytes, carPath: path, bundle: bundle)
                } catch {
                    inventory.warnings.append("\(path): \(describe(error))")
                }
                continue
            }
            let hasImageExtension = LooseImageName.imageExtensions.contains(ext.lowercased())
            guard hasImageExtension || ext.isEmpty else { continue }
            let info = infos[bundle]
            let relative = lookupPath(path, bundle: bundle, resourceRoot: info?.resourceRoot ?? "")
            let before = inventory.images.count
            addFile(
                tree, treeIndex: index, path: path, size: entry.size, bundle: bundle, relative: relative,
                source: .file, appKitNames: usesAppKitNames(info), mustBeImage: hasImageExtension)
            // Read through a symbolic link (an installed GNUstep app's `Resources`): say so.
            if let link = entry.link, inventory.images.count > before { inventory.images[before].details["link"] = link }
        }
        for (nibPath, names) in nibNames {
            let bundle = bundleOf[parentPath(nibPath)] ?? "."
            for name in names { inventory.references.append(ImageReference(bundle: bundle, file: nibPath, name: name, kind: .nib)) }
        }
        for catalog in catalogs { addSourceCatalog(tree, treeIndex: index, root: catalog.root, bundle: catalog.bundle) }
        for root in bundleRoots {
            let id = root.isEmpty ? "." : root
            guard var info = infos[id] else { continue }
            info.localizations = (localizations[id] ?? []).sorted()
            addPlistReferences(info, foldersWithDefaultPNG: foldersWithDefaultPNG)
            inventory.bundles.append(info)
        }
    }

    /// Resources live in `Contents/Resources` (macOS), `Resources` (GNUstep, macOS frameworks) or the root (iOS).
    private func resourceRoot(_ root: String, folders: Set<String>, files: Set<String>, versioned: [String: String]) -> String {
        let p = root.isEmpty ? "" : root + "/"
        if folders.contains(p + "Contents/Resources") { return p + "Contents/Resources" }
        if folders.contains(p + "Resources"), !files.contains(p + "Info.plist") { return p + "Resources" }
        return versioned[root] ?? root
    }

    /// Framework root → its first `Versions/X/Resources` folder (not `Current`), found in one pass
    /// over the folders rather than one pass per bundle.
    static func versionedResourceFolders(_ folders: Set<String>) -> [String: String] {
        var out: [String: String] = [:]
        for folder in folders where folder.hasSuffix("/Resources") {
            let parts = folder.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count >= 3, parts[parts.count - 3] == "Versions", parts[parts.count - 2] != "Current" else { continue }
            let root = parts.dropLast(3).joined(separator: "/")
            if let known = out[root], known < folder { continue }
            out[root] = folder
        }
        return out
    }

    private func usesAppKitNames(_ info: BundleInfo?) -> Bool { info?.usesAppKitNames ?? false }

    /// The path a name would use: relative to the bundle's resource root, without its `.lproj` folder.
    private func lookupPath(_ path: String, bundle: String, resourceRoot: String) -> String {
        var relative = path
        if !resourceRoot.isEmpty, path.hasPrefix(resourceRoot + "/") {
            relative = String(path.dropFirst(resourceRoot.count + 1))
        } else if bundle != ".", path.hasPrefix(bundle + "/") {
            relative = String(path.dropFirst(bundle.count + 1))
        }
        return relative.split(separator: "/").filter { !$0.hasSuffix(".lproj") }.joined(separator: "/")
    }

    private mutating func readNib(_ tree: FileTree, path: String, nibPath: String, into names: inout [String: Set<String>]) {
        do {
            let bytes = try tree.contents(path, maxBytes: BundleReader.maxPlistBytes)
            if let found = try NibReferences.imageNames(in: bytes) {
                names[nibPath, default: []].formUnion(found)
            }
        } catch {
            inventory.warnings.append("\(path): \(describe(error))")
        }
    }

    private mutating func addPlistReferences(_ info: BundleInfo, foldersWithDefaultPNG: Set<String>) {
        guard let facts = info.info, let plistPath = info.infoPlistPath else {
            return
        }
        func add(_ name: String, _ kind: ReferenceKind) {
            inventory.references.append(ImageReference(bundle: info.id, file: plistPath, name: name, kind: kind))
        }
        for icon in facts.iconFiles { add(icon, .appIcon) }
        for icon in facts.iconNames { add(icon, .appIcon) }
        for launch in facts.launchImages { add(launch, .launchImage) }
        if let image = facts.launchScreenImage { add(image, .launchScreen) }
        // Before launch keys existed, `Default*.png` at the root was the launch image by convention.
        if facts.launchImages.isEmpty, facts.launchStoryboard == nil, !facts.hasLaunchScreen,
            foldersWithDefaultPNG.contains(info.resourceRoot)
        {
            add("Default", .launchImage)
        }
    }

    // MARK: Images

    private mutating func addFile(
        _ tree: FileTree, treeIndex: Int, path: String, size: Int, bundle: String, relative: String,
        source: ImageSource, appKitNames: Bool, mustBeImage: Bool, idPrefix: String = ""
    ) {
        let fileName = lastComponent(relative)
        let parsed = LooseImageName(fileName: fileName)
        var header: ImageInfo?
        var format: String?
        var firstBytes: Int?
        do {
            header = try ImageHeaderReader.read(fileSize: size) { length in
                let bytes = try tree.prefix(path, length)
                if firstBytes == nil { firstBytes = prefixHash(bytes) }
                return bytes
            }
            guard header != nil else {
                if mustBeImage, size > 0 { inventory.warnings.append("\(idPrefix)\(path): `.\(parsed.fileExtension)` file that is no image format imgtrace knows") }
                return
            }
            format = header?.format.rawValue
        } catch let error as ImageHeaderError {
            inventory.warnings.append("\(idPrefix)\(path): \(error)")
            if case let .malformed(f, _, _) = error { format = f.rawValue }
        } catch {
            inventory.warnings.append("\(idPrefix)\(path): \(describe(error))")
            if !mustBeImage { return }
        }
        let directory = parentPath(relative)
        let base = appKitNames || source == .systemImages ? parsed.base : parsed.lookupName
        var image = BundleImage(
            id: idPrefix + path, bundle: bundle, path: path, source: source,
            name: directory.isEmpty ? base : directory + "/" + base, format: format,
            cgbi: header?.cgbi ?? false, pixelWidth: header?.pixelWidth, pixelHeight: header?.pixelHeight,
            pointWidth: header?.pointWidth, pointHeight: header?.pointHeight, scale: parsed.scale,
            idiom: parsed.idiom, fileExtension: parsed.fileExtension, bytesOnDisk: size,
            decodedBytes: header?.decodedBytes, isVector: header?.format.isVector ?? false)
        if image.isVector { image.scale = 0 }
        if let lproj = path.split(separator: "/").dropLast().last(where: { $0.hasSuffix(".lproj") }) {
            image.localization = String(lproj.dropLast(6))
        }
        noteImplausible(image)
        stored[image.id] = (.file(tree: treeIndex, path: path), size, firstBytes ?? 0)
        inventory.images.append(image)
    }

    private mutating func noteImplausible(_ image: BundleImage) {
        if let w = image.pixelWidth, let h = image.pixelHeight, (image.decodedBytes ?? Int.max) > (1 << 30) {
            inventory.warnings.append("\(image.id): claims \(w)×\(h) pixels (over 1 GiB decoded)")
        }
    }

    private mutating func addSourceCatalog(_ tree: FileTree, treeIndex: Int, root: String, bundle: String) {
        let reader = SourceCatalogReader(tree: tree, root: root)
        inventory.warnings += reader.warnings
        let sizes = Dictionary(tree.entries.map { ($0.path, $0.size) }, uniquingKeysWith: { a, _ in a })
        for slot in reader.images {
            let before = inventory.images.count
            addFile(
                tree, treeIndex: treeIndex, path: slot.path, size: sizes[slot.path] ?? 0, bundle: bundle,
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

    private mutating func addRenditions(_ catalog: CarCatalog, bytes: [UInt8], carPath: String, bundle: String) {
        inventory.warnings += catalog.warnings.map { "\(carPath): \($0)" }
        carBytes[carPath] = bytes
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
                scale: rendition.scale, idiom: idiom, appearance: appearance,
                bytesOnDisk: rendition.sizeOnDisk, isVector: vector, details: details)
            if let w = width, let h = height {
                image.decodedBytes = ImageInfo.decodedBytes(width: w, height: h, bytesPerPixel: InventoryBuilder.bytesPerPixel(rendition))
            }
            if let payload = InventoryBuilder.payload(of: rendition, in: bytes) {
                stored[id] = (
                    .rendition(car: carPath, offset: payload.offset, length: payload.length), payload.length,
                    prefixHash(Array(bytes[payload.offset..<min(payload.offset + 4096, payload.offset + payload.length)]))
                )
            }
            noteImplausible(image)
            inventory.images.append(image)
        }
    }

    private static func format(of rendition: Rendition) -> String? {
        switch rendition.pixelFormat {
        case "ARGB", "GA8", "GA16", "RGBW", "ARGB16": return "png"
        case "JPEG": return "jpeg"
        case "HEIF": return "heif"
        case "PDF": return "pdf"
        case "SVG": return "svg"
        default: return rendition.pixelFormat?.lowercased()
        }
    }

    private static func bytesPerPixel(_ rendition: Rendition) -> Int {
        switch rendition.pixelFormat {
        case "GA8": return 2
        case "RGBW", "ARGB16", "RGBAh": return 8
        default: return 4
        }
    }

    /// The pixel payload after the 184-byte CSI header and its TLV block; what two identical images share.
    private static func payload(of rendition: Rendition, in bytes: [UInt8]) -> (offset: Int, length: Int)? {
        let start = rendition.offset
        guard rendition.sizeOnDisk > 184, start >= 0, start + rendition.sizeOnDisk <= bytes.count else { return nil }
        let tlv = Int(UInt32(bytes[start + 168]) | UInt32(bytes[start + 169]) << 8 | UInt32(bytes[start + 170]) << 16 | UInt32(bytes[start + 171]) << 24)
        let offset = start + 184 + tlv
        let length = start + rendition.sizeOnDisk - offset
        return tlv >= 0 && length > 0 && offset < bytes.count ? (offset, length) : nil
    }

    // MARK: System images

    mutating func addSystemImages(_ folder: String) throws {
        let tree = try DirectoryTree(root: folder)
        let index = register(tree)
        var id = PathText.lastComponent(folder)
        while inventory.bundles.contains(where: { $0.id == id }) { id += "+" }
        inventory.bundles.append(BundleInfo(id: id, kind: .systemImages, name: id, resourceRoot: ""))
        inventory.warnings += tree.warnings.map { "\(id)/\($0)" }
        for entry in tree.entries where entry.kind == .file && !isJunk(entry.path) {
            let ext = extensionOf(lastComponent(entry.path)).lowercased()
            guard LooseImageName.imageExtensions.contains(ext) || ext.isEmpty else { continue }
            addFile(
                tree, treeIndex: index, path: entry.path, size: entry.size, bundle: id, relative: entry.path,
                source: .systemImages, appKitNames: true, mustBeImage: !ext.isEmpty, idPrefix: id + "/")
        }
        if tree.entries.contains(where: { $0.path == ImageAliases.mappingFile && $0.kind == .file }) {
            do {
                let bytes = try tree.contents(ImageAliases.mappingFile, maxBytes: BundleReader.maxPlistBytes)
                guard let pairs = ImageAliases.parseStrings(bytes) else {
                    inventory.warnings.append("\(id)/\(ImageAliases.mappingFile): not a strings file (`key = value;`)")
                    return
                }
                let names = Set(inventory.images.filter { $0.bundle == id }.map(\.name))
                inventory.aliases += ImageAliases.aliases(mapping: pairs, existing: names, bundle: id)
            } catch {
                inventory.warnings.append("\(id)/\(ImageAliases.mappingFile): \(describe(error))")
            }
        }
    }

    // MARK: Finishing

    /// Digests only where sizes and first 4 KiB collide (as duplicate finders do): anything else cannot have a twin.
    mutating func finish() throws -> BundleInventory {
        var groups: [String: [Int]] = [:]
        // Renditions may share one payload (the same block under many keys): hash it once.
        var renditionDigests: [String: String] = [:]
        for (index, image) in inventory.images.enumerated() {
            guard let (where_, size, prefix) = stored[image.id] else { continue }
            let kind: String
            if case .file = where_ { kind = "file" } else { kind = "rendition" }
            groups["\(kind):\(size):\(prefix)", default: []].append(index)
        }
        for (_, members) in groups where members.count > 1 {
            for index in members {
                let image = inventory.images[index]
                guard let (where_, _, _) = stored[image.id] else { continue }
                switch where_ {
                case let .file(tree, path):
                    do {
                        inventory.images[index].digest = try trees[tree].sha256(path)
                    } catch {
                        inventory.warnings.append("\(image.id): \(describe(error))")
                    }
                case let .rendition(car, offset, length):
                    guard let bytes = carBytes[car] else { continue }
                    let key = "\(car)#\(offset)+\(length)"
                    if let known = renditionDigests[key] {
                        inventory.images[index].digest = known
                        continue
                    }
                    let digest = bytes.withUnsafeBytes {
                        hex(SHA256.hash(data: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + length)])))
                    }
                    renditionDigests[key] = digest
                    inventory.images[index].digest = digest
                }
            }
        }
        inventory.images.sort { $0.id < $1.id }
        let top = inventory.bundles.filter { $0.id == "." }
        inventory.bundles = top + inventory.bundles.filter { $0.id != "." }.sorted { ($0.kind == .systemImages ? 1 : 0, $0.id) < ($1.kind == .systemImages ? 1 : 0, $1.id) }
        inventory.references.sort { ($0.bundle, $0.file, $0.name, $0.kind.rawValue) < ($1.bundle, $1.file, $1.name, $1.kind.rawValue) }
        inventory.junk.sort()
        return inventory
    }
}

// MARK: Path helpers

func parentPath(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[..<slash])
}

func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}

/// The text after the last dot of a file name, `` for none (a leading dot is no extension).
func extensionOf(_ name: String) -> String {
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
}

/// Files that should never ship: Finder and Explorer metadata, and zip tools' resource-fork folders.
func isJunk(_ path: String) -> Bool {
    path.split(separator: "/").contains { $0 == "__MACOSX" || $0 == ".DS_Store" || $0 == "Thumbs.db" || $0.hasPrefix("._") }
}

func describe(_ error: Error) -> String {
    if let error = error as? InputError { return error.location.map { "\($0): \(error.reason)" } ?? error.reason }
    return "\(error)"
}
