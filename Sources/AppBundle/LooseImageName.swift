/// A loose image file name taken apart the way UIKit matches it: `base` `@Nx` `~device` `.ext`.
public struct LooseImageName: Equatable, Sendable {
    /// The name without scale, device or (for PNG) extension, e.g. `AppIcon76x76`.
    public var base: String
    /// 1 when the name has no `@Nx`.
    public var scale: Int
    /// `phone` for `~iphone`, `pad` for `~ipad`, `universal` otherwise.
    public var idiom: ImageIdiom
    /// The extension as written, empty for none.
    public var fileExtension: String

    /// Extensions UIKit/AppKit load as images; anything else after a dot is part of the name (`AppIcon83.5x83.5`).
    public static let imageExtensions: Set<String> = [
        "png", "jpg", "jpeg", "gif", "tif", "tiff", "bmp", "bmpf", "ico", "cur", "xbm", "heic", "heif", "webp",
        "pdf", "svg", "icns", "avif",
    ]

    /// The scale factors a file name or an imageset slot may carry (`@2x`, `"scale": "3x"`).
    public static let scales = 1...9

    /// Parses a file name (the last path component only: an `@` in a folder is not a scale).
    public init(fileName: String) {
        var stem = Substring(fileName)
        fileExtension = ""
        // Searched by UTF-8 byte: a hostile name of megabytes costs one pass, not one per Character.
        if let dot = stem.utf8.lastIndex(of: UInt8(ascii: ".")), dot != stem.startIndex {
            let ext = stem[stem.utf8.index(after: dot)...]
            if ext.utf8.count <= 5, LooseImageName.imageExtensions.contains(ext.lowercased()) {
                fileExtension = String(ext)
                stem = stem[..<dot]
            }
        }
        idiom = .universal
        if stem.hasSuffix("~ipad") {
            idiom = .pad
            stem = stem.dropLast(5)
        } else if stem.hasSuffix("~iphone") {
            idiom = .phone
            stem = stem.dropLast(7)
        }
        scale = 1
        if stem.utf8.count > 3, stem.hasSuffix("x"), let at = stem.utf8.lastIndex(of: UInt8(ascii: "@")),
            stem.utf8.distance(from: at, to: stem.utf8.endIndex) <= 4,
            let n = Int(stem[stem.utf8.index(after: at)..<stem.index(before: stem.endIndex)]), LooseImageName.scales.contains(n)
        {
            scale = n
            stem = stem[..<at]
        }
        base = String(stem)
    }

    /// The lookup name: PNG may be asked for without its extension, every other format needs it.
    public var lookupName: String {
        fileExtension.isEmpty || fileExtension.lowercased() == "png" ? base : base + "." + fileExtension
    }
}
