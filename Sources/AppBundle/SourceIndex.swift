import ImgtraceSupport

/// A place in the app's source tree: a file relative to the source root, and where in it when
/// the file is text (a `Contents.json` entry, an `image="…"` attribute).
public struct SourceLocation: Sendable, Equatable, Hashable {
    /// Relative to the source root.
    public var path: String
    /// Nil for a file that has no lines (an image).
    public var position: TextPosition?

    public init(path: String, position: TextPosition? = nil) {
        self.path = path
        self.position = position
    }
}

/// What a developer edits, found under `--source-root` (docs/source-trees.md): the image slots of every source asset
/// catalog (with the `Contents.json` line that names each file), every loose image file, and
/// the images every `.xib` and `.storyboard` names. Built products, version control and
/// dependency folders are not entered: a finding must never point at a copy.
public struct SourceIndex: Sendable {
    /// One filled slot of an image set in a source catalog.
    public struct CatalogSlot: Sendable, Equatable {
        /// The lookup name (namespace folders + set name), as the compiled catalog has it.
        public var name: String
        public var scale: Int
        public var idiom: ImageIdiom
        public var appearance: String?
        /// The image file in the set.
        public var imagePath: String
        /// The set's `Contents.json`, at the entry that names the file.
        public var entry: SourceLocation
    }

    /// An image name an Interface Builder document gives an attribute.
    public struct InterfaceImage: Sendable, Equatable {
        public var name: String
        public var location: SourceLocation
    }

    /// Catalog slots, by catalog path then set then file.
    public private(set) var catalogSlots: [CatalogSlot] = []
    /// Image files outside catalogs, sorted.
    public private(set) var imageFiles: [String] = []
    /// Image attributes of every interface document, by file then position.
    public private(set) var interfaceImages: [InterfaceImage] = []
    /// Problems met while reading (unreadable `Contents.json`, folders not listed).
    public private(set) var warnings: [String] = []
    /// The same, by lookup name, file name and image name: a finding's place is found in
    /// constant time, however large the tree.
    private var slotsByName: [String: [CatalogSlot]] = [:]
    private var filesByName: [String: [String]] = [:]
    /// Positions in `interfaceImages` by name (indices, not copies: a hostile tree has millions).
    private var interfaceByName: [String: [Int]] = [:]

    /// Folder names never entered: build products and archives (copies of what the tree
    /// holds), version control, package managers' checkouts.
    static func skipsFolder(_ name: String) -> Bool {
        if name.hasPrefix(".") { return true }
        if DependencyFolders.names.contains(name) { return true }
        let builtKinds = ["app", "appex", "framework", "xcarchive", "dSYM", "xcframework", "bundle", "xctest", "xcodeproj", "xcworkspace"]
        return builtKinds.contains { name.hasSuffix("." + $0) }
    }

    /// Reads the source tree at `root`; a root that is not a folder is an `InputError`.
    public static func read(root: String) throws -> SourceIndex {
        try SourceIndex(tree: DirectoryTree(root: root, skipsFolder: SourceIndex.skipsFolder))
    }

    package init(tree: FileTree) {
        warnings = tree.warnings
        // One pass: each catalog's own entries are gathered, so reading a catalog costs its
        // size, not the whole tree's (a monorepo may hold hundreds of catalogs).
        var catalogs: [String: [TreeEntry]] = [:]
        for entry in tree.entries {
            let components = entry.path.split(separator: "/")
            if let inside = components.dropLast().firstIndex(where: { $0.lowercased().hasSuffix(".xcassets") }) {
                catalogs[components[...inside].joined(separator: "/"), default: []].append(entry)
                continue
            }
            let name = String(components.last ?? "")
            let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
            if entry.kind == .directory {
                if ext == "xcassets", catalogs[entry.path] == nil { catalogs[entry.path] = [entry] }
                continue
            }
            guard entry.kind == .file else { continue }
            if ext == "xib" || ext == "storyboard" {
                readInterface(entry.path, tree: tree)
            } else if name.contains("."), LooseImageName.imageExtensions.contains(ext) {
                imageFiles.append(entry.path)
            }
        }
        for catalog in catalogs.keys.sorted() {
            readCatalog(catalog, tree: ListedTree(base: tree, entries: catalogs[catalog]!))
        }
        slotsByName = Dictionary(grouping: catalogSlots, by: \.name)
        filesByName = Dictionary(grouping: imageFiles, by: PathText.fileName)
        for (index, image) in interfaceImages.enumerated() { interfaceByName[image.name, default: []].append(index) }
    }

    private mutating func readInterface(_ path: String, tree: FileTree) {
        do {
            let bytes = try tree.contents(path, maxBytes: 64 << 20)
            // A finding points at the first place a document names an image: later ones add nothing.
            var seen = Set<String>()
            for (name, position) in SourceText.imageAttributes(inInterface: bytes) where seen.insert(name).inserted {
                interfaceImages.append(InterfaceImage(name: name, location: SourceLocation(path: path, position: position)))
            }
        } catch {
            warnings.append("\(path): not read (\(error))")
        }
    }

    private mutating func readCatalog(_ catalog: String, tree: FileTree) {
        let reader = SourceCatalogReader(tree: tree, root: catalog)
        warnings += reader.warnings
        for image in reader.images {
            let entry = SourceLocation(path: PathText.folder(image.path) + "/Contents.json", position: image.entry)
            catalogSlots.append(
                CatalogSlot(
                    name: image.name, scale: image.scale, idiom: image.idiom, appearance: image.appearance,
                    imagePath: image.path, entry: entry))
        }
    }
}

extension SourceIndex {
    /// Where the developer edits `image`: a catalog rendition's set entry (the slot of its scale,
    /// idiom and appearance when one matches), or the loose file of the same name and variant
    /// whose folders best match the bundle's. Nil when the tree has nothing for it.
    public func location(of image: BundleImage) -> SourceLocation? {
        switch image.source {
        case .assetCatalog, .sourceCatalog:
            let slots = slotsByName[image.name] ?? []
            // The closest slot first (appearance, then idiom, then scale); the first set on a tie.
            let best = slots.min { a, b in
                let (sa, sb) = (slotScore(a, image), slotScore(b, image))
                return sa != sb ? sa > sb : a.imagePath < b.imagePath
            }
            return best.map(\.entry)
        case .file:
            let fileName = PathText.fileName(image.path)
            let candidates = filesByName[fileName] ?? []
            // The file whose folders match the most trailing folders of the bundle path
            // (`en.lproj/`, a resource bundle's folder); then the shallowest; then by name.
            let best = candidates.min { a, b in
                let (sa, sb) = (sharedTail(a, image.path), sharedTail(b, image.path))
                if sa != sb { return sa > sb }
                let (da, db) = (a.split(separator: "/").count, b.split(separator: "/").count)
                return da != db ? da < db : a < b
            }
            return best.map { SourceLocation(path: $0) }
        case .systemImages:
            return nil
        }
    }

    /// Where an interface document names `name`: documents whose compiled form the bundle
    /// references it from come first (`Main.storyboardc/…` → `Main.storyboard`, `Foo.nib` →
    /// `Foo.xib`), then any document that names it.
    public func interfaceLocation(of name: String, compiledIn references: [ImageReference]) -> SourceLocation? {
        let uses = (interfaceByName[name] ?? []).map { interfaceImages[$0] }
        guard !uses.isEmpty else { return nil }
        let stems = Set(references.filter { $0.name == name && $0.kind == .nib }.compactMap { SourceIndex.interfaceStem(ofCompiled: $0.file) })
        let preferred = uses.first { stems.contains(SourceIndex.stem(of: $0.location.path)) }
        return (preferred ?? uses[0]).location
    }

    /// `Main` for `Base.lproj/Main.storyboardc/UIViewController-x.nib`, `Foo` for `Foo.nib` or `Foo.nib/runtime.nib`.
    static func interfaceStem(ofCompiled path: String) -> String? {
        for component in path.split(separator: "/") {
            for suffix in [".storyboardc", ".nib"] where component.hasSuffix(suffix) {
                return String(component.dropLast(suffix.count))
            }
        }
        return nil
    }

    static func stem(of path: String) -> String {
        let name = PathText.fileName(path)
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }

    /// 2 for an exact match of each trait, 1 for a slot that serves any value, as one number.
    private func slotScore(_ slot: CatalogSlot, _ image: BundleImage) -> Int {
        let scale = slot.scale == image.scale ? 2 : (slot.scale == 0 ? 1 : 0)
        let idiom = slot.idiom == image.idiom ? 2 : (slot.idiom == .universal ? 1 : 0)
        let appearance = slot.appearance == image.appearance ? 2 : (slot.appearance == nil ? 1 : 0)
        return appearance * 9 + idiom * 3 + scale
    }

    /// How many trailing folders two paths share (their file names are equal already).
    private func sharedTail(_ a: String, _ b: String) -> Int {
        let (pa, pb) = (a.split(separator: "/").dropLast().reversed(), b.split(separator: "/").dropLast().reversed())
        return zip(pa, pb).prefix { $0 == $1 }.count
    }
}

/// Some entries of another tree, read through it: one catalog's files without the rest.
private struct ListedTree: FileTree {
    let base: FileTree
    let entries: [TreeEntry]
    var warnings: [String] { [] }
    var readsConcurrently: Bool { base.readsConcurrently }

    func prefix(_ path: String, _ limit: Int) throws -> [UInt8] { try base.prefix(path, limit) }
    func contents(_ path: String, maxBytes: Int) throws -> [UInt8] { try base.contents(path, maxBytes: maxBytes) }
    func sha256(_ path: String) throws -> String { try base.sha256(path) }
    func sha256(ofTwins paths: [String]) -> [Result<String, any Error>] { base.sha256(ofTwins: paths) }
    func size(of path: String, listed: Int) -> Int { base.size(of: path, listed: listed) }
    func withStart<R>(of path: String, listed: Int, _ body: (_ size: Int, _ first: (Int) throws -> [UInt8]) throws -> R) throws -> R {
        try base.withStart(of: path, listed: listed, body)
    }
    func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        try base.forEachChunk(path, maxBytes: maxBytes, body)
    }
}
