import AssetCatalog
import ImgtraceSupport

extension InventoryBuilder {
    // MARK: Walking a bundle

    mutating func addTree(_ tree: FileTree, name: String) { addBundleTree(tree, name: name) }

    mutating func addBundleTree(_ tree: FileTree, name: String) {
        let index = register(tree)
        inventory.warnings += tree.warnings
        let layout = mapBundles(tree, name: name)
        let foldersWithDefaultPNG = Set(
            tree.entries.lazy.filter { $0.kind == .file && $0.path.utf8.containsBytes("Default") }.map(\.path).filter {
                let name = PathText.fileName($0)
                return name.hasPrefix("Default") && name.hasSuffix(".png")
            }.map(PathText.folder))
        let infos = readBundleInfos(tree, layout, name: name)
        // A folder that holds code or a project is a source tree: Xcode copies its loose images
        // flat into the bundle, and its xibs and storyboards name images as the nibs they become.
        let isSourceTree =
            layout.topKind == .folder
            && tree.entries.contains { entry in
                let ext = PathText.fileExtension(PathText.fileName(entry.path))
                return ext == "xcodeproj" || ext == "swift" || ext == "m" || PathText.fileName(entry.path) == "Package.swift"
            }
        var localizations: [String: Set<String>] = [:]
        var nibNames: [String: Set<String>] = [:]  // nib path → names
        var readAhead = readLooseImagesAhead(tree, isLooseImage: isLooseImage) { path in
            loosePlacement(path, layout: layout, infos: infos, isSourceTree: isSourceTree)
        }
        inventory.images.reserveCapacity(inventory.images.count + readAhead.count)
        stored.reserveCapacity(stored.count + readAhead.count)
        for (entryIndex, entry) in tree.entries.enumerated() where entry.kind == .file {
            addTreeFile(
                entry, of: tree, treeIndex: index, layout: layout, infos: infos, isSourceTree: isSourceTree, localizations: &localizations,
                nibNames: &nibNames, prefetched: readAhead.take(entry: entryIndex))
        }
        for (nibPath, names) in nibNames {
            let bundle = layout.bundleOf[PathText.folder(nibPath)] ?? BundleID.top
            for name in names { inventory.references.append(ImageReference(bundle: bundle, file: nibPath, name: name, kind: .nib)) }
        }
        for catalog in layout.catalogs { addSourceCatalog(tree, treeIndex: index, root: catalog.root, bundle: catalog.bundle) }
        for root in layout.bundleRoots {
            let id = root.isEmpty ? BundleID.top : root
            guard var info = infos[id] else { continue }
            info.localizations = (localizations[id] ?? []).sorted()
            info.isSourceTree = id == BundleID.top && isSourceTree
            addPlistReferences(info, foldersWithDefaultPNG: foldersWithDefaultPNG)
            inventory.bundles.append(info)
        }
    }

    /// One file of the tree: its localization noted, then read as what it is — an executable's
    /// strings, a nib, an interface source, a compiled catalog, or a loose image.
    mutating func addTreeFile(
        _ entry: TreeEntry, of tree: FileTree, treeIndex index: Int, layout: TreeLayout, infos: [String: BundleInfo], isSourceTree: Bool,
        localizations: inout [String: Set<String>], nibNames: inout [String: Set<String>], prefetched: LooseImageRead? = nil
    ) {
        let path = entry.path
        if let prefetched {
            addReadAhead(prefetched, entry, of: tree, treeIndex: index, layout: layout, infos: infos, localizations: &localizations)
            return
        }
        let parent = PathText.folder(path)
        guard !isJunk(path), !path.utf8.containsBytes("_CodeSignature/") else { return }
        let bundle = layout.bundleOf[parent] ?? BundleID.top
        // Most paths hold no `.lproj`, catalog or nib folder: their bytes say so, without splitting them.
        let components =
            path.utf8.containsBytes(".lproj") || path.utf8.containsBytes(".xcassets") || path.utf8.containsBytes(".nib")
                || path.utf8.last == UInt8(ascii: "/") ? pathComponents(path) : nil
        if let lproj = components?.dropLast().last(where: { $0.utf8.hasBytesSuffix(".lproj") }) {
            localizations[bundle, default: []].insert(String(lproj.dropLast(6)))
        }
        if components?.contains(where: { $0.utf8.hasBytesSuffix(".xcassets") }) == true { return }
        let fileName = components.map { String($0.last!) } ?? PathText.fileName(path)
        let ext = PathText.fileExtension(fileName)
        if readsCodeStrings, ext == "jsbundle" || isExecutable(path, of: infos[bundle]) {
            readCodeStrings(tree, path: path, bundle: bundle, javaScript: ext == "jsbundle")
            return
        }
        if let components, let nib = components.firstIndex(where: { $0.utf8.hasBytesSuffix(".nib") }) {
            let nibPath = components[...nib].joined(separator: "/")
            readNib(tree, path: path, nibPath: nibPath, into: &nibNames)
            return
        }
        if isSourceTree, ext == "xib" || ext == "storyboard" {
            readInterfaceSource(tree, path: path, into: &nibNames)
            return
        }
        if ext == "car" {
            do {
                let bytes = try tree.contents(path, maxBytes: BundleReader.maxCatalogBytes)
                let catalog = try bytes.withUnsafeBytes { try CarCatalog.parse($0) }
                addRenditions(catalog, bytes: bytes, carPath: path, bundle: bundle)
            } catch {
                inventory.warnings.append("\(path): \(describe(error))")
            }
            return
        }
        guard LooseImageName.isImageExtension(ext) || ext.isEmpty else { return }
        let loose = LooseImageRead(tree, path: path, listedSize: entry.size, placement: loosePlacement(path, layout: layout, infos: infos, isSourceTree: isSourceTree))
        addLoose(loose, entry, treeIndex: index)
    }

    /// `addTreeFile` for a loose image read ahead: `isLooseImage` already held (an image
    /// extension, outside junk, signatures, catalogs and nibs), so what is left to ask of its path
    /// is its localization and whether it is its bundle's program.
    private mutating func addReadAhead(
        _ loose: LooseImageRead, _ entry: TreeEntry, of tree: FileTree, treeIndex index: Int, layout: TreeLayout, infos: [String: BundleInfo],
        localizations: inout [String: Set<String>]
    ) {
        let path = entry.path
        let hasLocalization = path.utf8.containsBytes(".lproj")
        if hasLocalization || readsCodeStrings {
            let bundle = layout.bundleOf[PathText.folder(path)] ?? BundleID.top
            if hasLocalization, let lproj = pathComponents(path).dropLast().last(where: { $0.utf8.hasBytesSuffix(".lproj") }) {
                localizations[bundle, default: []].insert(String(lproj.dropLast(6)))
            }
            if readsCodeStrings, isExecutable(path, of: infos[bundle]) {
                readCodeStrings(tree, path: path, bundle: bundle, javaScript: false)
                return
            }
        }
        addLoose(loose, entry, treeIndex: index)
    }

    private mutating func addLoose(_ loose: LooseImageRead, _ entry: TreeEntry, treeIndex index: Int) {
        let before = inventory.images.count
        add(loose, treeIndex: index, path: entry.path)
        // Read through a symbolic link (an installed GNUstep app's `Resources`): say so.
        if let link = entry.link, inventory.images.count > before { inventory.images[before].details["link"] = link }
    }

    /// Whether `addTreeFile` will read `entry` as a loose image by its name alone (a file with an
    /// image extension outside catalogs, nibs and signatures): its header can be read ahead.
    func isLooseImage(_ entry: TreeEntry) -> Bool {
        guard entry.kind == .file else { return false }
        let path = entry.path
        guard LooseImageName.hasImageExtension(path) else { return false }
        return !isJunk(path) && !path.utf8.containsBytes("_CodeSignature/") && !path.utf8.containsBytes(".xcassets/")
            && !path.utf8.containsBytes(".nib/")
    }

    /// Where `path`, a loose image of the tree, goes: the bundle whose folder holds it, the path
    /// names see (a source tree's top-level images are copied flat into the app), its naming.
    func loosePlacement(_ path: String, layout: TreeLayout, infos: [String: BundleInfo], isSourceTree: Bool) -> LoosePlacement {
        let bundle = layout.bundleOf[PathText.folder(path)] ?? BundleID.top
        let info = infos[bundle]
        let inTree = lookupPath(path, bundle: bundle, resourceRoot: info?.resourceRoot ?? "")
        return LoosePlacement(
            bundle: bundle, relative: isSourceTree && bundle == BundleID.top ? PathText.fileName(inTree) : inTree, source: .file,
            appKitNames: usesAppKitNames(info),
            mustBeImage: LooseImageName.hasImageExtension(path))
    }

    /// Where each bundle of a tree starts and which bundle each folder belongs to.
    struct TreeLayout {
        let folders: Set<String>
        /// The files named `Info.plist` or `Info-gnustep.plist`: the only files the layout asks after.
        let plists: Set<String>
        /// Each path belongs to the deepest bundle folder above it.
        var bundleOf: [String: String] = ["": BundleID.top]
        var bundleRoots: [String] = [""]
        var catalogs: [(root: String, bundle: String)] = []
        var topKind: BundleKind
    }

    /// The tree's bundles (the top one's kind from its name or its Info.plist), its source
    /// catalogs, its junk and the symbolic links that leave it.
    mutating func mapBundles(_ tree: FileTree, name: String) -> TreeLayout {
        let folders = Set(tree.entries.filter { $0.kind == .directory }.map(\.path))
        let plists = Set(
            tree.entries.lazy.filter { $0.kind == .file && ($0.path.utf8.hasBytesSuffix("Info.plist") || $0.path.utf8.hasBytesSuffix("Info-gnustep.plist")) }
                .map(\.path))
        var topKind = BundleReader.bundleKinds[PathText.fileExtension(name)] ?? .folder
        if topKind == .folder,
            plists.contains("Info.plist") || plists.contains("Contents/Info.plist")
                || plists.contains("Resources/Info-gnustep.plist")
        {
            topKind = .app
        }
        var layout = TreeLayout(folders: folders, plists: plists, topKind: topKind)
        for entry in tree.entries {
            if isJunk(entry.path) {
                if !isJunk(PathText.folder(entry.path)) { inventory.junk.append(entry.path) }
                continue
            }
            // A file is only asked whether it is junk: its folder and bundle are a folder's business.
            if entry.kind == .file { continue }
            let parent = PathText.folder(entry.path)
            let owner = layout.bundleOf[parent] ?? BundleID.top
            switch entry.kind {
            case .directory:
                let ext = PathText.fileExtension(PathText.fileName(entry.path))
                if BundleReader.bundleKinds[ext] != nil {
                    layout.bundleOf[entry.path] = entry.path
                    layout.bundleRoots.append(entry.path)
                } else {
                    layout.bundleOf[entry.path] = owner
                }
                if ext == "xcassets" { layout.catalogs.append((entry.path, owner)) }
            case let .symlink(target):
                if resolveInside(parent, target) == nil {
                    inventory.warnings.append("\(entry.path): symbolic link to \(SafeText.quoted(target)) leaves the bundle; not followed")
                }
            case .file:
                break
            }
        }
        return layout
    }

    /// Each bundle's facts: its kind, name, resource root and Info.plist (a plist it cannot read is a warning).
    mutating func readBundleInfos(_ tree: FileTree, _ layout: TreeLayout, name: String) -> [String: BundleInfo] {
        let versionedResources = InventoryBuilder.versionedResourceFolders(layout.folders)
        var infos: [String: BundleInfo] = [:]
        for root in layout.bundleRoots {
            let id = root.isEmpty ? BundleID.top : root
            let kind = root.isEmpty ? layout.topKind : BundleReader.bundleKinds[PathText.fileExtension(PathText.fileName(root))] ?? .bundle
            var info = BundleInfo(
                id: id, kind: kind, name: root.isEmpty ? name : PathText.fileName(root),
                resourceRoot: resourceRoot(root, folders: layout.folders, plists: layout.plists, versioned: versionedResources))
            let p = root.isEmpty ? "" : root + "/"
            let candidates = [p + "Info.plist", p + "Contents/Info.plist", p + "Resources/Info-gnustep.plist", p + "Resources/Info.plist"]
            if let plistPath = candidates.first(where: layout.plists.contains) {
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
        return infos
    }

    /// Whether `path` is the program its bundle's Info.plist names, where iOS, macOS or GNUstep keep it.
    func isExecutable(_ path: String, of info: BundleInfo?) -> Bool {
        guard let info, let executable = info.info?.executable, !executable.isEmpty else { return false }
        let root = info.id == BundleID.top ? "" : info.id + "/"
        return path == root + executable || path == root + "Contents/MacOS/" + executable
    }

    mutating func readCodeStrings(_ tree: FileTree, path: String, bundle: String, javaScript: Bool) {
        do {
            // In chunks: an executable can be most of a gigabyte, and only its strings are kept.
            var scanner = CodeStrings.Scanner(javaScript: javaScript)
            try tree.forEachChunk(path, maxBytes: BundleReader.maxCodeBytes) { scanner.feed($0, final: false) }
            scanner.feed(UnsafeRawBufferPointer(start: nil, count: 0), final: true)
            inventory.codeStrings.append(CodeStrings(bundle: bundle, file: path, strings: scanner.strings))
        } catch {
            inventory.warnings.append("\(path): \(describe(error))")
        }
    }

    /// Resources live in `Contents/Resources` (macOS), `Resources` (GNUstep, macOS frameworks) or the root (iOS).
    func resourceRoot(_ root: String, folders: Set<String>, plists: Set<String>, versioned: [String: String]) -> String {
        let p = root.isEmpty ? "" : root + "/"
        if folders.contains(p + "Contents/Resources") { return p + "Contents/Resources" }
        if folders.contains(p + "Resources"), !plists.contains(p + "Info.plist") { return p + "Resources" }
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

    func usesAppKitNames(_ info: BundleInfo?) -> Bool { info?.usesAppKitNames ?? false }

    /// The path a name would use: relative to the bundle's resource root, without its `.lproj` folder.
    func lookupPath(_ path: String, bundle: String, resourceRoot: String) -> String {
        var relative = path
        if !resourceRoot.isEmpty, path.hasPrefix(resourceRoot + "/") {
            relative = String(path.dropFirst(resourceRoot.count + 1))
        } else if bundle != BundleID.top, path.hasPrefix(bundle + "/") {
            relative = String(path.dropFirst(bundle.count + 1))
        }
        // A path without `.lproj`, an empty component or a slash at either end is its own answer.
        if !relative.utf8.containsBytes(".lproj"), !relative.utf8.containsBytes("//"), relative.utf8.first != UInt8(ascii: "/"),
            relative.utf8.last != UInt8(ascii: "/")
        {
            return relative
        }
        return pathComponents(relative).filter { !$0.utf8.hasBytesSuffix(".lproj") }.joined(separator: "/")
    }

    mutating func readNib(_ tree: FileTree, path: String, nibPath: String, into names: inout [String: Set<String>]) {
        do {
            let bytes = try tree.contents(path, maxBytes: BundleReader.maxPlistBytes)
            if let found = try NibReferences.imageNames(in: bytes) {
                names[nibPath, default: []].formUnion(found)
            }
        } catch {
            inventory.warnings.append("\(path): \(describe(error))")
        }
    }

    /// The images a source `.xib` or `.storyboard` names, as its compiled nib would.
    mutating func readInterfaceSource(_ tree: FileTree, path: String, into names: inout [String: Set<String>]) {
        do {
            let bytes = try tree.contents(path, maxBytes: BundleReader.maxPlistBytes)
            names[path, default: []].formUnion(SourceText.imageAttributes(inInterface: bytes).map(\.name))
        } catch {
            inventory.warnings.append("\(path): \(describe(error))")
        }
    }

    mutating func addPlistReferences(_ info: BundleInfo, foldersWithDefaultPNG: Set<String>) {
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
}
