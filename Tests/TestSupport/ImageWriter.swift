/// Minimal image files for tests: real headers, placeholder pixel data.
public enum ImageWriter {
    /// CRC-32 as PNG chunks use it, so written PNGs are valid for other tools too.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    public static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typed + be32(crc32(typed))
    }

    /// A PNG with the given header fields; `cgbi` puts Apple's chunk before IHDR; `extra` chunks follow IHDR.
    public static func png(
        width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6, cgbi: Bool = false,
        extra: [[UInt8]] = []
    ) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if cgbi { out += pngChunk("CgBI", [0x50, 0x00, 0x20, 0x02]) }
        out += pngChunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, 0])
        for chunk in extra { out += chunk }
        out += pngChunk("IDAT", [0x78, 0x9C, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        out += pngChunk("IEND", [])
        return out
    }

    /// A baseline JPEG header: SOI, an APP1 block of `app1Bytes`, then SOF0 and EOI.
    public static func jpeg(width: UInt16, height: UInt16, components: UInt8 = 3, app1Bytes: Int = 16) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += [0xFF, 0xE1] + be16(UInt16(app1Bytes + 2)) + [UInt8](repeating: 0x41, count: app1Bytes)
        var sof: [UInt8] = [8] + be16(height) + be16(width) + [components]
        for c in 0..<components { sof += [c + 1, 0x11, 0] }
        out += [0xFF, 0xC0] + be16(UInt16(sof.count + 2)) + sof
        out += [0xFF, 0xD9]
        return out
    }

    public static func gif(width: UInt16, height: UInt16) -> [UInt8] {
        Array("GIF89a".utf8) + le16(width) + le16(height) + [0, 0, 0, 0x3B]
    }

    public static func tiff(width: UInt32, height: UInt32, bigEndian: Bool, samples: UInt16 = 4) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { bigEndian ? be16(v) : le16(v) }
        func u32(_ v: UInt32) -> [UInt8] { bigEndian ? be32(v) : le32(v) }
        var out: [UInt8] = bigEndian ? Array("MM".utf8) + [0, 42] : Array("II".utf8) + [42, 0]
        out += u32(8)
        let entries: [(UInt16, UInt16, UInt32)] = [(256, 4, width), (257, 4, height), (262, 3, 2), (277, 3, UInt32(samples)), (338, 3, 1)]
        out += u16(UInt16(entries.count))
        for (tag, type, value) in entries {
            out += u16(tag) + u16(type) + u32(1)
            out += type == 3 ? u16(UInt16(value)) + [0, 0] : u32(value)
        }
        out += u32(0)
        return out
    }

    /// An ISO-BMFF box.
    public static func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(UInt32(8 + body.count)) + Array(type.utf8) + body }

    /// A HEIC with a primary item whose ispe is `width`×`height`, after a smaller tile-sized ispe.
    public static func heic(width: UInt32, height: UInt32) -> [UInt8] {
        let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))
        let pitm = box("pitm", [0, 0, 0, 0] + be16(1))
        let tile = box("ispe", [0, 0, 0, 0] + be32(512) + be32(512))
        let full = box("ispe", [0, 0, 0, 0] + be32(width) + be32(height))
        let ipco = box("ipco", tile + full)
        // item 1 → property 2 (the full extent); item 2 → property 1.
        let ipma = box("ipma", [0, 0, 0, 0] + be32(2) + be16(1) + [1, 0x82] + be16(2) + [1, 0x81])
        let iprp = box("iprp", ipco + ipma)
        let meta = box("meta", [0, 0, 0, 0] + box("hdlr", [UInt8](repeating: 0, count: 20)) + pitm + iprp)
        return ftyp + meta
    }
}
