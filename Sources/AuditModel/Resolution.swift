import AppBundle
import LaunchTrace

/// How a load names its image and where it may be found: by name (`imageNamed:`), by file path
/// (`imageWithContentsOfFile:`), in asset catalogs only (CoreUI), or not at all (SF Symbols, data).
package enum RequestKind: String, Sendable, Hashable {
    case name, path
    /// An SF Symbol: system artwork, never the app's to ship.
    case symbol
    /// `NSDataAsset(name:)`: data, not an image.
    case data
    /// A CoreUI lookup with no UIKit or AppKit method above it (SwiftUI's `Image("x")`): asset catalogs only.
    case catalog
    /// A re-decode of an image already loaded, on a trait change: asset catalogs only.
    case trait

    /// Its place among the kinds, for a slot per (name, kind).
    package var ordinal: Int {
        switch self {
        case .name: return 0
        case .path: return 1
        case .symbol: return 2
        case .data: return 3
        case .catalog: return 4
        case .trait: return 5
        }
    }

    /// CoreUI looks in asset catalogs, never at loose files.
    package var catalogsOnly: Bool { self == .catalog || self == .trait }

    /// From the reader's kind of request when the log told it, else from the API and the name.
    package static func of(_ kind: LoadKind?, api: String?, name: String) -> RequestKind {
        switch kind {
        case .symbol?: return .symbol
        case .data?: return .data
        case .swiftui?: return .catalog
        case .trait?: return .trait
        case .file?: return .path
        case .code?, .nib?, nil: return of(api: api, name: name)
        }
    }

    /// Path APIs take a file path; everything else (including an unknown API) takes a name,
    /// unless the value is an absolute path.
    package static func of(api: String?, name: String) -> RequestKind {
        if let api { return api.contains("ContentsOfFile") ? .path : .name }
        return name.hasPrefix("/") ? .path : .name
    }
}

/// Why a name resolved to nothing.
package enum MissingCause: String, Sendable {
    case nilName, emptyName, caseDiffers, needsExtension, scaleInName, otherIdiom, namespace, outsideBundle, notFound
    /// CoreUI looks in asset catalogs only, and the image is a loose file.
    case notInCatalog
    /// An SF Symbol: the system's, not missing from the app.
    case systemArtwork
    /// A data asset: not an image.
    case dataAsset

    /// The app does not lack this image: it is not the app's (outside the bundle, the system's) or not an image.
    package var isNotTheApps: Bool { self == .outsideBundle || self == .systemArtwork || self == .dataAsset }
}

/// What a requested name loads on the device, and how the lookup got there.
public struct Resolution: Sendable, Equatable {
    /// The image loaded; nil when nothing matches.
    package var image: BundleImage? {
        get { stored?.image }
        set { stored = newValue.map(ImageBox.init) }
    }
    /// The image behind one reference: an audit keeps a resolution per distinct name, and a
    /// `BundleImage` inline would cost hundreds of bytes for each, found or not.
    private var stored: ImageBox?

    private final class ImageBox: Sendable, Equatable {
        let image: BundleImage
        init(_ image: BundleImage) { self.image = image }
        static func == (a: ImageBox, b: ImageBox) -> Bool { a === b || a.image == b.image }
    }
    /// One phrase a person reads: "catalog `Assets.car` facet `logo`, phone @3x".
    package var how: Phrase
    /// Set when `image` is nil.
    package var cause: MissingCause?
    /// The name the system caches the image under, when not the name asked for (a mapped alias).
    package var cacheName: String?

    package init(image: BundleImage?, how: Phrase, cause: MissingCause? = nil, cacheName: String? = nil) {
        stored = image.map(ImageBox.init)
        self.how = how
        self.cause = cause
        self.cacheName = cacheName
    }
}
