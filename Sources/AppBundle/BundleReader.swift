import AssetCatalog
import Foundation
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
    /// The largest executable or JavaScript bundle read for its strings.
    static let maxCodeBytes = 1 << 30

    /// Inventories `path` and the given system image folders; with `readingCodeStrings`, also the
    /// strings of every bundle's executable and JavaScript bundle (``BundleInventory/codeStrings``).
    ///
    /// Throws ``ImgtraceSupport/InputError`` when the input itself cannot be read (missing, not a
    /// bundle, a corrupt zip or top-level catalog); problems inside it become warnings.
    public static func inventory(of path: String, systemImages: [String] = [], readingCodeStrings: Bool = false) throws -> BundleInventory {
        var builder = InventoryBuilder()
        builder.readsCodeStrings = readingCodeStrings
        try builder.addTop(path)
        for folder in systemImages { try builder.addSystemImages(folder) }
        return try builder.finish()
    }

    /// Inventories a tree already in memory (tests and fuzzing build bundles without a disk).
    package static func inventory(ofTree tree: FileTree, name: String, readingCodeStrings: Bool = false) throws -> BundleInventory {
        var builder = InventoryBuilder()
        builder.readsCodeStrings = readingCodeStrings
        builder.addTree(tree, name: name)
        return try builder.finish()
    }
}

/// Where one image's bytes live, for the digest pass.
enum StoredBytes {
    /// A loose file.
    case file(tree: Int, path: String)
    case rendition(car: String, offset: Int, length: Int)
}

/// A hash of the first 4 KiB: a cheap first filter, as duplicate finders hash a prefix before the
/// whole file (two files share a digest only where size and this hash agree; any collision only
/// costs a digest). Eight bytes at a time, each word mixed in by a multiply and a shift, the
/// result by a 64-bit finaliser: a tenth of `Hasher`'s SipHash work on the same bytes, and
/// the same in every run.
func prefixHash(_ bytes: [UInt8]) -> Int {
    bytes.withUnsafeBytes { raw in
        let prefix = UnsafeRawBufferPointer(rebasing: raw.prefix(4096))
        // The length mixed in before the bytes: XORed in beside the last bytes, [0x01] hashed as [].
        var hash = (0x9E37_79B9_7F4A_7C15 ^ UInt64(prefix.count)) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        let words = prefix.count / 8
        for index in 0..<words {
            hash = (hash ^ prefix.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
        }
        var tail: UInt64 = 0
        for byte in prefix[(words * 8)...].reversed() { tail = tail << 8 | UInt64(byte) }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }
}

/// Builds one inventory from a top input and everything nested in it. Its parts: opening the
/// input (here), walking a bundle (`+Walk`), images and catalogs (`+Images`), system image
/// folders and the final pass (`+Finish`).
struct InventoryBuilder {
    var inventory = BundleInventory()
    var trees: [FileTree] = []
    /// Where each image's bytes live, by its index in `inventory.images` (nil for an image whose
    /// bytes are not compared): an array beside the images, not a table keyed by their ids, which
    /// cost a hash of every id three times over.
    var stored: [(StoredBytes, size: Int, prefix: Int)?] = []
    var carBytes: [String: [UInt8]] = [:]
    /// Whether executables and JavaScript bundles are read for their strings (only `unused` needs them).
    var readsCodeStrings = false

    // MARK: Opening the input

    mutating func addTop(_ path: String) throws {
        let name = PathText.lastComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(path: path, reason: "no such file or folder")
        }
        if isDirectory.boolValue {
            // Sizes are learnt as files are opened: a bundle's reader opens every image anyway.
            let tree = try DirectoryTree(root: path, sizes: .whenRead)
            if name.hasSuffix(".xcarchive") {
                let app = try archivedApp(tree, path: path)
                addBundleTree(SubTree(tree, folder: app), name: PathText.lastComponent(app))
            } else if name.hasSuffix(".xcassets") {
                let index = register(tree)
                inventory.bundles.append(BundleInfo(id: BundleID.top, kind: .sourceCatalog, name: name, resourceRoot: ""))
                addSourceCatalog(tree, treeIndex: index, root: "", bundle: BundleID.top)
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
                if isJunk(entry.path) && !isJunk(PathText.folder(entry.path)) { inventory.junk.append(entry.path) }
            }
            let appName = app.isEmpty ? name : PathText.lastComponent(app)
            addBundleTree(app.isEmpty ? zip : SubTree(zip, folder: app), name: appName)
        } else if n == 8, magic == Array("BOMStore".utf8) {
            // A lone compiled catalog: its renditions are the inventory.
            let catalog = try CarCatalog.read(contentsOf: path)
            let bytes = try MappedFile(path: path).withBytes { [UInt8]($0) }
            inventory.bundles.append(BundleInfo(id: BundleID.top, kind: .folder, name: name, resourceRoot: ""))
            addRenditions(catalog, bytes: bytes, carPath: name, bundle: BundleID.top)
        } else {
            throw InputError(path: path, reason: "not an app bundle, .ipa, .xcarchive, .xcassets or .car")
        }
    }

    /// The app inside an `.xcarchive`: `ApplicationProperties.ApplicationPath`, else the first `Products/Applications/*.app`.
    func archivedApp(_ tree: DirectoryTree, path: String) throws -> String {
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
    func zipAppFolder(_ zip: ZipTree) -> String {
        let folders = zip.entries.filter { $0.kind == .directory }.map(\.path)
        if let app = folders.first(where: { $0.hasPrefix("Payload/") && $0.hasSuffix(".app") && $0.split(separator: "/").count == 2 }) {
            return app
        }
        return folders.first { $0.hasSuffix(".app") && !$0.contains("/") } ?? ""
    }

    mutating func register(_ tree: FileTree) -> Int {
        trees.append(tree)
        return trees.count - 1
    }
}
