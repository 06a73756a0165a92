import ImgtraceSupport

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

    /// Whether `ext` (no dot) names an image format, in any case. Asked several times of every
    /// file of a bundle: an ASCII extension is compared as packed bytes (every image extension is
    /// at most four ASCII letters), anything else as lowercased text.
    public static func isImageExtension<Text: StringProtocol>(_ ext: Text) -> Bool {
        var packed: UInt64 = 0
        var length: UInt64 = 0
        for byte in ext.utf8 {
            guard byte < 0x80 else { return imageExtensions.contains(ext.lowercased()) }
            length += 1
            guard length <= 4 else { return false }
            packed = packed << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        return packedImageExtensions.contains(packed | length << 32)
    }

    /// Whether the extension of `path`'s last component names an image format (`isImageExtension`
    /// of `PathText.fileExtension(PathText.fileName(path))`), read in place: asked of every file
    /// of a bundle before any is read.
    public static func hasImageExtension(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { bytes in
            var dot = -1
            var index = bytes.count - 1
            while index >= 0, bytes[index] != UInt8(ascii: "/") {
                if dot < 0, bytes[index] == UInt8(ascii: ".") { dot = index }
                index -= 1
            }
            // No dot, or only a leading one: no extension.
            guard dot > index + 1 else { return false }
            let ext = UnsafeBufferPointer(rebasing: bytes[(dot + 1)...])
            var packed: UInt64 = 0
            for byte in ext {
                guard byte < 0x80 else { return imageExtensions.contains(String(decoding: ext, as: UTF8.self).lowercased()) }
                packed = packed << 8 | UInt64(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
            }
            return ext.count <= 4 && packedImageExtensions.contains(packed | UInt64(ext.count) << 32)
        }
    }

    /// `imageExtensions` as `isImageExtension` packs them: the bytes, and the length above them.
    private static let packedImageExtensions: [UInt64] = imageExtensions.map { ext in
        ext.utf8.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } | UInt64(ext.utf8.count) << 32
    }

    /// Parses a file name (the last path component only: an `@` in a folder is not a scale).
    public init(fileName: String) {
        var stem = Substring(fileName)
        fileExtension = ""
        // Searched by UTF-8 byte: a hostile name of megabytes costs one pass, not one per Character.
        if let dot = PathText.lastIndex(of: UInt8(ascii: "."), in: stem), dot != stem.startIndex {
            let ext = stem[stem.utf8.index(after: dot)...]
            if ext.utf8.count <= 5, LooseImageName.isImageExtension(ext) {
                fileExtension = String(ext)
                stem = stem[..<dot]
            }
        }
        idiom = .universal
        // The bytes first: text comparison (the same answer, grapheme by grapheme) only where they end alike.
        if stem.utf8.hasBytesSuffix("~ipad"), stem.hasSuffix("~ipad") {
            idiom = .pad
            stem = stem.dropLast(5)
        } else if stem.utf8.hasBytesSuffix("~iphone"), stem.hasSuffix("~iphone") {
            idiom = .phone
            stem = stem.dropLast(7)
        }
        scale = 1
        if stem.utf8.count > 3, stem.utf8.last == UInt8(ascii: "x"), stem.hasSuffix("x"), let at = PathText.lastIndex(of: UInt8(ascii: "@"), in: stem),
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
