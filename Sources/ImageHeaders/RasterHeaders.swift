import ImgtraceSupport

/// The small fixed-layout raster formats: GIF, WebP, BMP, ICO and ICNS.
enum RasterHeaders {
    static func gif(_ r: ByteReader) throws -> ImageInfo {
        let (w, h) = try checkedSize(.gif, Int(try r.u16le(6)), Int(try r.u16le(8)), at: 6)
        // GIF transparency lives in per-frame extensions; decoded as RGBA either way.
        return ImageInfo(format: .gif, pixelWidth: w, pixelHeight: h, bitsPerComponent: 8, colorModel: .indexed)
    }

    static func webp(_ r: ByteReader) throws -> ImageInfo {
        let chunk = try r.paddedString(12, 4)
        switch chunk {
        case "VP8 ":
            guard try r.u8(23) == 0x9D, try r.u8(24) == 0x01, try r.u8(25) == 0x2A else {
                throw malformed(.webp, 23, "VP8 start code missing")
            }
            let (w, h) = try checkedSize(.webp, Int(try r.u16le(26) & 0x3FFF), Int(try r.u16le(28) & 0x3FFF), at: 26)
            return ImageInfo(
                format: .webp, pixelWidth: w, pixelHeight: h, bitsPerComponent: 8, channels: 3,
                hasAlpha: false, colorModel: .rgb)
        case "VP8L":
            guard try r.u8(20) == 0x2F else { throw malformed(.webp, 20, "VP8L signature missing") }
            let bits = try r.u32le(21)
            let w = Int(bits & 0x3FFF) + 1
            let h = Int((bits >> 14) & 0x3FFF) + 1
            let alpha = (bits >> 28) & 1 == 1
            return ImageInfo(
                format: .webp, pixelWidth: w, pixelHeight: h, bitsPerComponent: 8, channels: alpha ? 4 : 3,
                hasAlpha: alpha, colorModel: .rgb)
        case "VP8X":
            let flags = try r.u8(20)
            func u24(_ o: Int) throws -> Int { Int(try r.u8(o)) | Int(try r.u8(o + 1)) << 8 | Int(try r.u8(o + 2)) << 16 }
            let w = try u24(24) + 1
            let h = try u24(27) + 1
            let alpha = flags & 0x10 != 0
            return ImageInfo(
                format: .webp, pixelWidth: w, pixelHeight: h, bitsPerComponent: 8, channels: alpha ? 4 : 3,
                hasAlpha: alpha, colorModel: .rgb)
        default:
            throw malformed(.webp, 12, "unknown first chunk `\(chunk)`")
        }
    }

    static func bmp(_ r: ByteReader) throws -> ImageInfo {
        let dibSize = Int(try r.u32le(14))
        let width: Int, height: Int, bits: Int
        if dibSize == 12 {
            width = Int(try r.u16le(18))
            height = Int(try r.u16le(20))
            bits = Int(try r.u16le(24))
        } else if dibSize >= 40 {
            width = Int(Int32(bitPattern: try r.u32le(18)))
            height = abs(Int(Int32(bitPattern: try r.u32le(22))))  // negative height = top-down rows
            bits = Int(try r.u16le(28))
        } else {
            throw malformed(.bmp, 14, "unknown DIB header size \(dibSize)")
        }
        let (w, h) = try checkedSize(.bmp, width, height, at: 18)
        return ImageInfo(
            format: .bmp, pixelWidth: w, pixelHeight: h, bitsPerComponent: min(8, bits),
            channels: bits == 32 ? 4 : 3, hasAlpha: bits == 32, colorModel: bits <= 8 ? .indexed : .rgb)
    }

    /// ICO: the largest entry of the directory.
    static func ico(_ r: ByteReader) throws -> ImageInfo {
        let count = Int(try r.u16le(4))
        var best: (w: Int, h: Int, bits: Int)?
        for i in 0..<count {
            let entry = 6 + i * 16
            let w = Int(try r.u8(entry)) == 0 ? 256 : Int(try r.u8(entry))
            let h = Int(try r.u8(entry + 1)) == 0 ? 256 : Int(try r.u8(entry + 1))
            let bits = Int(try r.u16le(entry + 6))
            if best.map({ w * h > $0.w * $0.h }) ?? true { best = (w, h, bits) }
        }
        guard let best else { throw malformed(.ico, 4, "no images in the directory") }
        return ImageInfo(
            format: .ico, pixelWidth: best.w, pixelHeight: best.h, bitsPerComponent: 8,
            hasAlpha: best.bits == 32 ? true : nil, colorModel: .rgb)
    }

    /// Pixel edge of each ICNS element type that holds one square image.
    private static let icnsEdges: [String: Int] = [
        "ICON": 32, "ICN#": 32, "icm#": 16, "icm4": 16, "icm8": 16, "ics#": 16, "ics4": 16, "ics8": 16,
        "is32": 16, "s8mk": 16, "icl4": 32, "icl8": 32, "il32": 32, "l8mk": 32, "ich#": 48, "ich4": 48,
        "ich8": 48, "ih32": 48, "h8mk": 48, "it32": 128, "t8mk": 128, "icp4": 16, "icp5": 32, "icp6": 64,
        "ic07": 128, "ic08": 256, "ic09": 512, "ic10": 1024, "ic11": 32, "ic12": 64, "ic13": 256, "ic14": 512,
        "ic04": 16, "ic05": 32, "icsb": 18, "icsB": 36, "sb24": 24, "SB24": 48,
    ]

    /// ICNS: the largest element listed in the container.
    static func icns(_ r: ByteReader, fileSize: Int) throws -> ImageInfo {
        let total = min(Int(try r.u32be(4)), fileSize)
        var offset = 8
        var edge = 0
        while offset + 8 <= total {
            let type = try r.paddedString(offset, 4)
            let length = Int(try r.u32be(offset + 4))
            guard length >= 8 else { throw malformed(.icns, offset + 4, "element length \(length)") }
            edge = max(edge, icnsEdges[type] ?? 0)
            offset += length
        }
        guard edge > 0 else { throw malformed(.icns, 8, "no image elements") }
        return ImageInfo(
            format: .icns, pixelWidth: edge, pixelHeight: edge, bitsPerComponent: 8, channels: 4,
            hasAlpha: true, colorModel: .rgb)
    }
}
