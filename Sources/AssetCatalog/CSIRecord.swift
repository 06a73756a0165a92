import ImgtraceSupport

/// The CSI record of a rendition: 184-byte header, TLVs, payload header. Little-endian.
enum CSIRecord {
    /// Fills `rendition` from the CSI record in `block`. Lengths that overrun the block are
    /// clamped to it (effect records in system catalogs do that).
    static func decode(_ r: ByteReader, block: BOMStore.Block, into rendition: inout Rendition) throws {
        let o = block.offset
        let end = block.offset + block.length
        rendition.csiFlags = try r.u32le(o + 8)
        let width = Int(try r.u32le(o + 12))
        let height = Int(try r.u32le(o + 16))
        rendition.csiScaleFactor = Int(try r.u32le(o + 20))
        rendition.pixelFormat = fourCC(try r.u32le(o + 24))
        rendition.layoutRaw = Int(try r.u16le(o + 36))
        rendition.name = try r.paddedString(o + 40, 128)
        let tlvLength = Int(try r.u32le(o + 168))
        let payloadLength = Int(try r.u32le(o + 180))
        if width > 0 || height > 0 {
            rendition.pixelWidth = width
            rendition.pixelHeight = height
            rendition.sizeSource = "csi"
        }
        var metrics: (Int, Int)?
        var at = o + 184
        let tlvEnd = min(end, o + 184 + tlvLength)
        while at + 8 <= tlvEnd {
            let tag = try r.u32le(at)
            let length = Int(try r.u32le(at + 4))
            let data = at + 8
            guard length <= tlvEnd - data else { break }
            switch tag {
            case 1003 where length >= 28:
                metrics = (Int(try r.u32le(data + 20)), Int(try r.u32le(data + 24)))
            case 1005 where length >= 8:
                let count = min(Int(try r.u32le(data)), length - 8)
                rendition.uti = try r.paddedString(data + 8, count)
            case 1010 where length >= 26 && r.matches(data, "KLNI"):
                var frame = AtlasFrame(
                    x: Int(try r.u32le(data + 8)), y: Int(try r.u32le(data + 12)),
                    width: Int(try r.u32le(data + 16)), height: Int(try r.u32le(data + 20)), atlasKey: [])
                var p = data + 30
                while p + 4 <= data + length {
                    let attribute = try r.u16le(p)
                    let value = try r.u16le(p + 2)
                    if attribute == 0 && value == 0 { break }
                    frame.atlasKey.append((attribute, value))
                    p += 4
                }
                rendition.atlasFrame = frame
            default:
                break
            }
            at = data + length
        }
        if rendition.sizeSource == nil, let (w, h) = metrics, w > 0 || h > 0, isBitmapLike(rendition.pixelFormat) {
            rendition.pixelWidth = w
            rendition.pixelHeight = h
            rendition.sizeSource = "tlv1003"
        }
        let payload = o + 184 + tlvLength
        guard payloadLength > 0, payload + 12 <= end else { return }
        if r.matches(payload, "MLEC") {
            rendition.bitmapFlags = try r.u32le(payload + 4)
            rendition.compression = Rendition.compressionName(try r.u32le(payload + 8))
        } else if r.matches(payload, "DWAR") {
            let flags = try r.u32le(payload + 4)
            rendition.compression = flags & 1 != 0 ? "lzfse(rawd)" : "none(rawd)"
            rendition.dataLength = Int(try r.u32le(payload + 8))
        } else if r.matches(payload, "SISM") {
            // The count is the file's claim; the block's bytes bound the loop.
            let count = min(Int(try r.u32le(payload + 8)), max(0, (end - payload - 12) / 12))
            var p = payload + 12
            for _ in 0..<count {
                rendition.multisize.append(
                    MultisizeEntry(
                        width: Int(try r.u32le(p)), height: Int(try r.u32le(p + 4)),
                        index: Int(try r.u16le(p + 8)), idiom: Int(try r.u16le(p + 10))))
                p += 12
            }
        }
    }

    /// A FourCC stored little-endian: bytes `BGRA` on disk read `ARGB`. Zero means none.
    static func fourCC(_ value: UInt32) -> String? {
        guard value != 0 else { return nil }
        // Four bytes fit a small string: no array and no heap object per rendition.
        var length = 4
        while length > 0, (value >> (32 - 8 * UInt32(length))) & 0xFF == UInt32(UInt8(ascii: " ")) { length -= 1 }
        let text = String(unsafeUninitializedCapacity: 4) { buffer in
            for i in 0..<length { buffer[i] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(i))) }
            return length
        }
        // Bytes that are not UTF-8 are repaired by the initializer, as `String(decoding:)` would.
        return text
    }

    static func isBitmapLike(_ format: String?) -> Bool {
        switch format {
        case nil, "PDF"?, "SVG"?, "DATA"?: return false
        default: return true
        }
    }
}
