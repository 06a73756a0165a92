import ImgtraceSupport

/// HEIF, HEIC and AVIF: the primary item's `ispe` (image spatial extent) property.
enum HEIFHeader {
    /// The format named by the `ftyp` brands, or `nil` for other ISO-BMFF files (MP4, MOV).
    static func brand(_ r: ByteReader) -> ImageFormat? {
        guard let size = try? Int(r.u32be(0)), size >= 16 else { return nil }
        var brands: [String] = []
        if let major = try? r.paddedString(8, 4) { brands.append(major) }
        var offset = 16
        while offset + 4 <= min(size, r.count) {
            if let b = try? r.paddedString(offset, 4) { brands.append(b) }
            offset += 4
        }
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        if brands.contains(where: { ["heic", "heix", "heim", "heis", "hevc", "hevx"].contains($0) }) { return .heic }
        if brands.contains(where: { $0 == "mif1" || $0 == "msf1" }) { return .heif }
        return nil
    }

    static func read(_ r: ByteReader, format: ImageFormat) throws -> ImageInfo {
        let meta = try findBox("meta", in: r, from: 0, to: r.count, required: true)!
        let metaBody = (start: meta.start + 4, end: meta.end)  // full box: version and flags
        var primary: UInt32?
        if let pitm = try findBox("pitm", in: r, from: metaBody.start, to: metaBody.end, required: false) {
            let version = try r.u8(pitm.start)
            primary = version == 0 ? UInt32(try r.u16be(pitm.start + 4)) : try r.u32be(pitm.start + 4)
        }
        let iprp = try findBox("iprp", in: r, from: metaBody.start, to: metaBody.end, required: true)!
        let ipco = try findBox("ipco", in: r, from: iprp.start, to: iprp.end, required: true)!
        // Properties are numbered from 1 in ipco order.
        var extents: [Int: (Int, Int)] = [:]
        var bitDepth: [Int: Int] = [:]
        var index = 0
        var offset = ipco.start
        while offset + 8 <= ipco.end {
            let (type, start, end) = try box(at: offset, in: r, limit: ipco.end)
            index += 1
            if type == "ispe" { extents[index] = (Int(try r.u32be(start + 4)), Int(try r.u32be(start + 8))) }
            if type == "pixi", try r.u8(start + 4) > 0 { bitDepth[index] = Int(try r.u8(start + 5)) }
            offset = end
        }
        var chosen: [Int] = []
        if let primary, let ipma = try findBox("ipma", in: r, from: iprp.start, to: iprp.end, required: false) {
            chosen = try associations(of: primary, ipma: ipma, in: r)
        }
        // Without a primary association, the largest extent is the full image (tiles are smaller).
        let extent =
            chosen.compactMap { extents[$0] }.first
            ?? extents.values.max { UInt64($0.0) * UInt64($0.1) < UInt64($1.0) * UInt64($1.1) }
        guard let extent else { throw malformed(format, ipco.start, "no ispe property") }
        let (w, h) = try checkedSize(format, extent.0, extent.1, at: ipco.start)
        let depth = chosen.compactMap { bitDepth[$0] }.first ?? bitDepth.values.first ?? 8
        return ImageInfo(format: format, pixelWidth: w, pixelHeight: h, bitsPerComponent: depth, colorModel: .ycbcr)
    }

    private static func box(at offset: Int, in r: ByteReader, limit: Int) throws -> (String, Int, Int) {
        var size = Int(try r.u32be(offset))
        let type = try r.paddedString(offset + 4, 4)
        var header = 8
        if size == 1 {
            let high = Int(try r.u32be(offset + 8)), low = Int(try r.u32be(offset + 12))
            guard high == 0 else { throw malformed(.heif, offset, "box `\(type)` larger than 4 GiB") }
            size = low
            header = 16
        } else if size == 0 {
            size = limit - offset
        }
        guard size >= header, offset + size <= max(limit, offset + header) else {
            throw malformed(.heif, offset, "box `\(type)` size \(size) runs past its parent")
        }
        return (type, offset + header, offset + size)
    }

    private static func findBox(_ wanted: String, in r: ByteReader, from: Int, to: Int, required: Bool) throws -> (start: Int, end: Int)? {
        var offset = from
        while offset + 8 <= to {
            let (type, start, end) = try box(at: offset, in: r, limit: to)
            if type == wanted { return (start, end) }
            offset = end
        }
        if offset + 8 > r.count, to > r.count { try r.check(offset, 8, "box `\(wanted)`") }
        if required { throw malformed(.heif, from, "no `\(wanted)` box") }
        return nil
    }

    /// Property indexes associated with `item` in an `ipma` box.
    private static func associations(of item: UInt32, ipma: (start: Int, end: Int), in r: ByteReader) throws -> [Int] {
        let version = try r.u8(ipma.start)
        let flags = try r.u32be(ipma.start) & 0xFFFFFF
        let count = Int(try r.u32be(ipma.start + 4))
        var offset = ipma.start + 8
        for _ in 0..<min(count, 1 << 16) {
            let id = version < 1 ? UInt32(try r.u16be(offset)) : try r.u32be(offset)
            offset += version < 1 ? 2 : 4
            let n = Int(try r.u8(offset))
            offset += 1
            var props: [Int] = []
            for _ in 0..<n {
                if flags & 1 != 0 {
                    props.append(Int(try r.u16be(offset) & 0x7FFF))
                    offset += 2
                } else {
                    props.append(Int(try r.u8(offset) & 0x7F))
                    offset += 1
                }
            }
            if id == item { return props }
        }
        return []
    }
}
