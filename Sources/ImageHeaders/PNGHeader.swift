import ImgtraceSupport

/// PNG and Apple's CgBI variant: walks chunks, so an IHDR after `CgBI` is found at byte 24.
enum PNGHeader {
    static func read(_ r: ByteReader) throws -> ImageInfo {
        var offset = 8
        var cgbi = false
        var info: ImageInfo?
        // Walk until IDAT: CgBI precedes IHDR; tRNS (alpha for palette/grey/RGB) follows it.
        for _ in 0..<64 {
            guard offset + 8 <= r.count else { break }
            let length = Int(try r.u32be(offset))
            let type = try r.paddedString(offset + 4, 4)
            if type == "CgBI" {
                cgbi = true
            } else if type == "IHDR" {
                guard length >= 13 else { throw malformed(.png, offset, "IHDR is \(length) bytes, not 13") }
                let (w, h) = try checkedSize(.png, Int(try r.u32be(offset + 8)), Int(try r.u32be(offset + 12)), at: offset + 8)
                let depth = Int(try r.u8(offset + 16))
                let colorType = try r.u8(offset + 17)
                let model: ColorModel
                let channels: Int
                switch colorType {
                case 0: (model, channels) = (.gray, 1)
                case 2: (model, channels) = (.rgb, 3)
                case 3: (model, channels) = (.indexed, 1)
                case 4: (model, channels) = (.gray, 2)
                case 6: (model, channels) = (.rgb, 4)
                default: throw malformed(.png, offset + 17, "unknown colour type \(colorType)")
                }
                info = ImageInfo(
                    format: .png, pixelWidth: w, pixelHeight: h, bitsPerComponent: depth, channels: channels,
                    hasAlpha: colorType == 4 || colorType == 6, colorModel: model, cgbi: cgbi)
            } else if type == "tRNS" {
                info?.hasAlpha = true
            } else if type == "IDAT" || type == "IEND" {
                break
            } else if info == nil && type != "CgBI" && offset == 8 {
                throw malformed(.png, offset + 4, "first chunk is `\(type)`, not IHDR")
            }
            let (next, overflow) = offset.addingReportingOverflow(12 + length)
            guard !overflow, length < Int(Int32.max) else { throw malformed(.png, offset, "chunk length \(length) is too large") }
            offset = next
        }
        guard let info else {
            if offset > r.count { try r.check(offset, 8, "the next chunk") }
            throw malformed(.png, offset, "no IHDR chunk")
        }
        return info
    }
}
