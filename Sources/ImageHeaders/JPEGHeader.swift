import ImgtraceSupport

/// JPEG: walks segment markers to the first start-of-frame.
enum JPEGHeader {
    static func read(_ r: ByteReader) throws -> ImageInfo {
        var offset = 2
        for _ in 0..<100_000 {
            guard try r.u8(offset) == 0xFF else { throw malformed(.jpeg, offset, "expected a marker (0xFF)") }
            var marker = try r.u8(offset + 1)
            while marker == 0xFF {  // fill bytes
                offset += 1
                marker = try r.u8(offset + 1)
            }
            offset += 2
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // standalone markers
            if marker == 0xD9 || marker == 0xDA { throw malformed(.jpeg, offset - 2, "image data before any frame header") }
            let length = Int(try r.u16be(offset))
            guard length >= 2 else { throw malformed(.jpeg, offset, "segment length \(length)") }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                let precision = Int(try r.u8(offset + 2))
                let height = Int(try r.u16be(offset + 3))
                let width = Int(try r.u16be(offset + 5))
                let components = Int(try r.u8(offset + 7))
                let (w, h) = try checkedSize(.jpeg, width, height, at: offset + 3)
                let model: ColorModel = components == 1 ? .gray : components == 4 ? .cmyk : .ycbcr
                return ImageInfo(
                    format: .jpeg, pixelWidth: w, pixelHeight: h, bitsPerComponent: precision,
                    channels: components, hasAlpha: false, colorModel: model)
            }
            offset += length
        }
        throw malformed(.jpeg, offset, "too many segments before the frame header")
    }
}
