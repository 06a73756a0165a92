import ImgtraceSupport

/// Everything an app ships that a name can load: its bundles, images, interface references and warnings.
public struct BundleInventory: Sendable {
    /// The top bundle first, then nested bundles sorted by path, then system image folders.
    public var bundles: [BundleInfo]
    /// Every image, sorted by id.
    public var images: [BundleImage]
    /// Image names that nibs, storyboards and Info.plist refer to.
    public var references: [ImageReference]
    /// Files that should not ship (`.DS_Store`, `__MACOSX/`, `Thumbs.db`, AppleDouble `._*`).
    public var junk: [String]
    /// Problems that did not stop the inventory, each naming a path.
    public var warnings: [String]
    /// Names that a system image folder's mapping file sends to another file, sorted by folder and name.
    public var aliases: [ImageAlias]
    /// The strings of the app's executables and JavaScript bundles, when the reader was asked
    /// for them (`BundleReader.inventory(of:systemImages:readingCodeStrings:)`), sorted by file.
    public var codeStrings: [CodeStrings] = []
    /// Compiled catalogs cut for one device (their `ThinningParameters`), by catalog path.
    public var thinning: [CatalogThinning] = []

    public init(
        bundles: [BundleInfo] = [], images: [BundleImage] = [], references: [ImageReference] = [],
        junk: [String] = [], warnings: [String] = [], aliases: [ImageAlias] = []
    ) {
        self.bundles = bundles
        self.images = images
        self.references = references
        self.junk = junk
        self.warnings = warnings
        self.aliases = aliases
    }
}

/// What kind of bundle or folder holds images.
public enum BundleKind: String, Sendable, Comparable {
    case app, appex, framework, bundle, xctest, sourceCatalog, systemImages, folder

    public static func < (a: BundleKind, b: BundleKind) -> Bool { a.rawValue < b.rawValue }
}

/// Bundle ids: the top bundle's, and the rest are paths relative to the top bundle's root.
public enum BundleID {
    /// The id of the top bundle (the app, the archive's app, the folder or catalog given).
    public static let top = "."

    /// The id of the `index`th bundle given (`--bundle`, from 0) at `path`: the first is the
    /// top; a later one is filed under its folder's name.
    public static func ofGiven(_ index: Int, path: String) -> String { index == 0 ? top : PathText.lastComponent(path) }

    /// What the inventory's paths of the `index`th bundle given start with: nothing for the
    /// first, `Name/` for a later one. Every reader of those paths goes through here.
    public static func pathPrefix(ofGiven index: Int, path: String) -> String { index == 0 ? "" : PathText.lastComponent(path) + "/" }
}

/// One bundle: the app itself, a nested framework, extension or resource bundle, or an image folder.
public struct BundleInfo: Equatable, Sendable {
    /// `BundleID.top` for the top bundle; otherwise its path relative to the top bundle's root (or the folder's name).
    public var id: String
    public var kind: BundleKind
    /// The folder name, e.g. `UICatalog.app`.
    public var name: String
    /// Where resources live relative to the top root: `` (iOS, flat), `Contents/Resources`, `Resources`.
    public var resourceRoot: String
    /// The Info.plist's path relative to the top root, when there is one.
    public var infoPlistPath: String?
    public var info: InfoPlistFacts?
    /// Localisations present (`en`, `Base`, …), sorted.
    public var localizations: [String]
    /// A folder of sources (code, a project), read as Xcode copies it: loose images under flat
    /// names, `.xib` and `.storyboard` files as the nibs they become.
    public var isSourceTree = false

    public init(
        id: String, kind: BundleKind, name: String, resourceRoot: String, infoPlistPath: String? = nil,
        info: InfoPlistFacts? = nil, localizations: [String] = []
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.resourceRoot = resourceRoot
        self.infoPlistPath = infoPlistPath
        self.info = info
        self.localizations = localizations
    }
}

extension BundleInfo {
    /// macOS and GNUstep bundles look names up the AppKit way (`NSImage`): any image extension
    /// may be left off, and device and scale variants are representations of one image.
    public var usesAppKitNames: Bool {
        if kind == .systemImages { return true }
        if let platform = info?.platform?.lowercased(), platform.contains("mac") || platform == "gnustep" { return true }
        return resourceRoot.hasSuffix("Resources") && resourceRoot != id
    }
}

/// Where an image comes from.
public enum ImageSource: String, Sendable, Comparable {
    /// A loose file in the bundle.
    case file
    /// A rendition in a compiled `Assets.car`.
    case assetCatalog
    /// A file in a source `.xcassets` folder.
    case sourceCatalog
    /// A file in a `--system-images` folder (framework or OS images).
    case systemImages

    public static func < (a: ImageSource, b: ImageSource) -> Bool { a.rawValue < b.rawValue }
}

/// One image a name can resolve to.
public struct BundleImage: Equatable, Sendable {
    /// Stable id: the path for files, `path#facet[idiom,scale,appearance,…]` for catalog renditions.
    public var id: String
    /// Id of the bundle that holds it.
    public var bundle: String
    /// Path relative to the top bundle's root (for a rendition, the `.car` file's path).
    public var path: String
    public var source: ImageSource
    /// The lookup name UIKit matches: scale and device suffixes removed, `.png` removed,
    /// other extensions kept; the facet name for catalogs; a namespace prefix where one applies.
    public var name: String
    /// Format from the magic bytes (or the catalog's pixel format); `nil` when unknown.
    public var format: String?
    public var cgbi: Bool
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// Size in points for vector images.
    public var pointWidth: Double?
    public var pointHeight: Double?
    /// 1, 2, 3; 0 when the image has no scale (a vector or a multi-scale container).
    public var scale: Int
    /// `universal`, `phone`, `pad`, `mac`, `tv`, `watch`, `car`, `vision`, `marketing`.
    public var idiom: ImageIdiom
    /// `dark`, `light`, `tinted`, or the catalog's appearance name; `nil` for any appearance.
    public var appearance: String?
    /// The `.lproj` localisation, when the file sits in one.
    public var localization: String?
    /// The file's extension as written (`png`, `jpg`), empty for none.
    public var fileExtension: String
    public var bytesOnDisk: Int
    /// Pixel width × height × bytes per pixel; `nil` for vectors and unknown sizes.
    public var decodedBytes: Int?
    /// SHA-256 of the stored bytes, computed only where another image has the same size.
    public var digest: String?
    public var isVector: Bool
    /// Catalog rendition facts (`layout`, `compression`, `template`, …) kept for reports.
    public var details: [String: String]

    public init(
        id: String, bundle: String, path: String, source: ImageSource, name: String, format: String? = nil,
        cgbi: Bool = false, pixelWidth: Int? = nil, pixelHeight: Int? = nil, pointWidth: Double? = nil,
        pointHeight: Double? = nil, scale: Int = 1, idiom: ImageIdiom = .universal, appearance: String? = nil,
        localization: String? = nil, fileExtension: String = "", bytesOnDisk: Int = 0,
        decodedBytes: Int? = nil, digest: String? = nil, isVector: Bool = false, details: [String: String] = [:]
    ) {
        self.id = id
        self.bundle = bundle
        self.path = path
        self.source = source
        self.name = name
        self.format = format
        self.cgbi = cgbi
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.pointWidth = pointWidth
        self.pointHeight = pointHeight
        self.scale = scale
        self.idiom = idiom
        self.appearance = appearance
        self.localization = localization
        self.fileExtension = fileExtension
        self.bytesOnDisk = bytesOnDisk
        self.decodedBytes = decodedBytes
        self.digest = digest
        self.isVector = isVector
        self.details = details
    }
}

/// Why a file or plist names an image.
public enum ReferenceKind: String, Sendable, Comparable {
    /// A `UIImageNibPlaceholder` (`UIResourceName`) in a compiled nib or storyboard.
    case nib
    /// An app icon named by Info.plist.
    case appIcon
    /// A launch image named by Info.plist (or the implicit `Default` family).
    case launchImage
    /// The image of a `UILaunchScreen` dictionary.
    case launchScreen

    public static func < (a: ReferenceKind, b: ReferenceKind) -> Bool { a.rawValue < b.rawValue }
}

/// An image name that an interface file or Info.plist refers to.
public struct ImageReference: Equatable, Sendable {
    public var bundle: String
    /// The nib or plist path relative to the top root.
    public var file: String
    public var name: String
    public var kind: ReferenceKind

    public init(bundle: String, file: String, name: String, kind: ReferenceKind) {
        self.bundle = bundle
        self.file = file
        self.name = name
        self.kind = kind
    }
}

extension BundleInventory {
    /// Adds the inventory of another input (a second `--bundle`), its bundle ids, image ids and
    /// paths prefixed with `label` so they stay unique. The first input stays the top bundle.
    public mutating func append(_ other: BundleInventory, as label: String) {
        func bundleId(_ id: String) -> String { id == BundleID.top ? label : label + "/" + id }
        func path(_ p: String) -> String { label + "/" + p }
        bundles += other.bundles.map { bundle in
            var copy = bundle
            copy.id = bundleId(bundle.id)
            copy.infoPlistPath = bundle.infoPlistPath.map(path)
            return copy
        }
        images += other.images.map { image in
            var copy = image
            copy.id = path(image.id)
            copy.bundle = bundleId(image.bundle)
            copy.path = path(image.path)
            return copy
        }
        images.sort { $0.id < $1.id }
        references += other.references.map {
            ImageReference(bundle: bundleId($0.bundle), file: path($0.file), name: $0.name, kind: $0.kind)
        }
        junk += other.junk.map(path)
        warnings += other.warnings.map(path)
        aliases += other.aliases.map {
            ImageAlias(bundle: bundleId($0.bundle), name: $0.name, target: $0.target, via: $0.via, file: $0.file)
        }
        codeStrings += other.codeStrings.map { CodeStrings(bundle: bundleId($0.bundle), file: path($0.file), strings: $0.strings) }
        thinning += other.thinning.map { CatalogThinning(file: path($0.file), scale: $0.scale, idiom: $0.idiom) }
    }
}

/// A compiled catalog thinned for one kind of device: its other variants were removed.
public struct CatalogThinning: Sendable, Equatable {
    /// The `.car`'s path in the bundle.
    public var file: String
    public var scale: Int
    /// Nil when the parameters name no idiom.
    public var idiom: ImageIdiom?

    public init(file: String, scale: Int, idiom: ImageIdiom?) {
        self.file = file
        self.scale = scale
        self.idiom = idiom
    }

    /// `@2x phone`.
    public var description: String { "@\(scale)x" + (idiom.map { " \($0.name)" } ?? "") }
}
