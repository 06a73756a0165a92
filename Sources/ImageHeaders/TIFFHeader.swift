import ImgtraceSupport

/// TIFF: the first image file directory, in either byte order.
enum TIFFHeader {
    static func read(_ r: ByteReader) throws -> ImageInfo {
        let little = try r.u8(0) == 0x49
        func u16(_ o: Int) throws -> Int { Int(little ? try r.u16le(o) : try r.u16be(o)) }
        func u32(_ o: Int) throws -> Int { Int(little ? try r.u32le(o) : try r.u32be(o)) }
        let ifd = try u32(4)
        guard ifd >= 8 else { throw malformed(.tiff, 4, "first directory offset \(ifd)") }
        let count = try u16(ifd)
        var width = 0, height = 0, samples = 1, bits = 1, photometric = -1, extraSamples = 0
        for i in 0..<count {
            let entry = ifd + 2 + i * 12
            let tag = try u16(entry)
            let type = try u16(entry + 2)
            let n = try u32(entry + 4)
            // SHORT values sit in the entry itself; LONG too when there is one.
            func value() throws -> Int { type == 3 ? try u16(entry + 8) : try u32(entry + 8) }
            switch tag {
            case 256: width = try value()
            case 257: height = try value()
            case 258:
                // One BitsPerSample per sample; more than two SHORTs live at an offset.
                bits = n * 2 <= 4 ? try u16(entry + 8) : try u16(try u32(entry + 8))
            case 262: photometric = try value()
            case 277: samples = try value()
            case 338: extraSamples = n
            default: break
            }
        }
        let (w, h) = try checkedSize(.tiff, width, height, at: ifd)
        let model: ColorModel
        switch photometric {
        case 0, 1, 4: model = .gray
        case 3: model = .indexed
        case 5: model = .cmyk
        case 6: model = .ycbcr
        default: model = .rgb
        }
        let colorSamples = model == .gray || model == .indexed ? 1 : model == .cmyk ? 4 : 3
        let alpha = extraSamples > 0 || samples > colorSamples
        return ImageInfo(
            format: .tiff, pixelWidth: w, pixelHeight: h, bitsPerComponent: bits, channels: samples,
            hasAlpha: alpha, colorModel: model)
    }
}
