/// Text files Apple's tools write in UTF-16: Xcode saved `.strings` tables so for years, and
/// property lists may be. Readers that work on UTF-8 bytes take them through here.
package enum TextEncoding {
    /// `bytes` as UTF-8: UTF-16 with a byte-order mark (either order) is transcoded, a lone
    /// surrogate becoming U+FFFD and an odd last byte dropped; anything else is returned as it is.
    package static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        let littleEndian: Bool
        if bytes.starts(with: [0xFF, 0xFE]) {
            littleEndian = true
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            littleEndian = false
        } else {
            return bytes
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var k = 2
        while k + 1 < bytes.count {
            let (low, high) = littleEndian ? (bytes[k], bytes[k + 1]) : (bytes[k + 1], bytes[k])
            units.append(UInt16(high) << 8 | UInt16(low))
            k += 2
        }
        var out: [UInt8] = []
        out.reserveCapacity(units.count)
        for scalar in String(decoding: units, as: UTF16.self).unicodeScalars { out += Array(String(scalar).utf8) }
        return out
    }
}
