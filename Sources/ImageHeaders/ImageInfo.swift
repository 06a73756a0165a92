/// File formats `ImageHeaders` recognises by their magic bytes.
public enum ImageFormat: String, Sendable, CaseIterable, Comparable {
    case png, jpeg, gif, webp, heic, heif, avif, tiff, bmp, ico, icns, pdf, svg

    /// Vector formats have a size in points, not pixels.
    public var isVector: Bool { self == .pdf || self == .svg }

    public static func < (a: ImageFormat, b: ImageFormat) -> Bool { a.rawValue < b.rawValue }
}

/// How the colour of each pixel is stored.
public enum ColorModel: String, Sendable {
    case gray, rgb, indexed, cmyk, ycbcr
}

/// What an image's header says: format, size and pixel layout, read without decoding pixels.
public struct ImageInfo: Equatable, Sendable {
    public var format: ImageFormat
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// Size in points for vector formats (PDF MediaBox, SVG width/height or viewBox).
    public var pointWidth: Double?
    public var pointHeight: Double?
    public var bitsPerComponent: Int?
    /// Colour channels including alpha, when the header says.
    public var channels: Int?
    /// Whether pixels carry alpha; `nil` when the header cannot tell (GIF, HEIF).
    public var hasAlpha: Bool?
    public var colorModel: ColorModel?
    /// Apple's crushed PNG (a `CgBI` chunk before `IHDR`).
    public var cgbi: Bool

    public init(
        format: ImageFormat, pixelWidth: Int? = nil, pixelHeight: Int? = nil, pointWidth: Double? = nil,
        pointHeight: Double? = nil, bitsPerComponent: Int? = nil, channels: Int? = nil, hasAlpha: Bool? = nil,
        colorModel: ColorModel? = nil, cgbi: Bool = false
    ) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.pointWidth = pointWidth
        self.pointHeight = pointHeight
        self.bitsPerComponent = bitsPerComponent
        self.channels = channels
        self.hasAlpha = hasAlpha
        self.colorModel = colorModel
        self.cgbi = cgbi
    }

    /// Bytes per decoded pixel as iOS stores it (docs/images.md §2): 8 for 16-bit components,
    /// 1 for grey, 2 for grey with alpha, otherwise 4 (RGB is padded to RGBX).
    public var bytesPerPixel: Int? {
        if format.isVector { return nil }
        if let bits = bitsPerComponent, bits > 8 { return 8 }
        if colorModel == .gray { return hasAlpha == true ? 2 : 1 }
        return 4
    }

    /// Decoded memory in bytes (width × height × bytes per pixel), or `nil` when unknown or too large to count.
    public var decodedBytes: Int? {
        guard let w = pixelWidth, let h = pixelHeight, let bpp = bytesPerPixel else { return nil }
        return ImageInfo.decodedBytes(width: w, height: h, bytesPerPixel: bpp)
    }

    /// Overflow-checked width × height × bytes per pixel.
    public static func decodedBytes(width: Int, height: Int, bytesPerPixel: Int) -> Int? {
        let (area, o1) = width.multipliedReportingOverflow(by: height)
        let (total, o2) = area.multipliedReportingOverflow(by: bytesPerPixel)
        return o1 || o2 || width < 0 || height < 0 ? nil : total
    }
}

/// Why a header could not be read.
public enum ImageHeaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The header is malformed at this offset.
    case malformed(format: ImageFormat, offset: Int, reason: String)
    /// The header continues past the bytes given; read at least this many bytes and try again.
    case needMoreBytes(Int)

    public var description: String {
        switch self {
        case let .malformed(format, offset, reason): return "offset \(offset): \(format.rawValue) header: \(reason)"
        case let .needMoreBytes(n): return "header continues past the bytes read (needs \(n))"
        }
    }
}
