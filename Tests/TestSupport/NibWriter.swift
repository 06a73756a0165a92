/// Writes a minimal NIBArchive whose `UIImageNibPlaceholder`s name the given images, the way
/// ibtool's compiled nibs do: each placeholder's `UIResourceName` points at an `NSString`
/// whose `NS.bytes` holds the name.
public enum NibWriter {
    public static func nib(imageNames: [String]) -> [UInt8] {
        let keys = ["UIResourceName", "NS.bytes"]
        let classes = ["UIImageNibPlaceholder", "NSString"]
        var objects: [(cls: Int, first: Int, count: Int)] = []
        var values: [[UInt8]] = []
        for (i, name) in imageNames.enumerated() {
            let placeholder = 2 * i, string = 2 * i + 1
            objects.append((0, values.count, 1))
            values.append(varint(0) + [10] + le32(UInt32(string)))
            objects.append((1, values.count, 1))
            values.append(varint(1) + [8] + varint(name.utf8.count) + Array(name.utf8))
            _ = placeholder
        }
        var objectTable: [UInt8] = []
        for o in objects { objectTable += varint(o.cls) + varint(o.first) + varint(o.count) }
        var keyTable: [UInt8] = []
        for k in keys { keyTable += varint(k.utf8.count) + Array(k.utf8) }
        let valueTable = values.flatMap { $0 }
        var classTable: [UInt8] = []
        for c in classes {
            let bytes = Array(c.utf8) + [0]
            classTable += varint(bytes.count) + varint(0) + bytes
        }
        let headerSize = 10 + 8 + 4 * 8
        var offset = headerSize
        var header = Array("NIBArchive".utf8) + le32(1) + le32(10)
        for (count, table) in [(objects.count, objectTable), (keys.count, keyTable), (values.count, valueTable), (classes.count, classTable)] {
            header += le32(UInt32(count)) + le32(UInt32(offset))
            offset += table.count
        }
        return header + objectTable + keyTable + valueTable + classTable
    }

    /// NIBArchive varints: 7 bits per byte, the last byte has the high bit set.
    static func varint(_ value: Int) -> [UInt8] {
        var v = value
        var out: [UInt8] = []
        while true {
            let low = UInt8(v & 0x7F)
            v >>= 7
            if v == 0 {
                out.append(low | 0x80)
                return out
            }
            out.append(low)
        }
    }
}
