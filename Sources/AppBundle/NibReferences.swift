import ImgtraceSupport

/// Image names referenced by a compiled nib: the `UIResourceName` of each `UIImageNibPlaceholder`
/// (and AppKit's `NSImage` resource names), from the NIBArchive format or a keyed-archive plist.
public enum NibReferences {
    /// Keys that hold an image's resource name in UIKit and AppKit archives.
    static let resourceKeys: Set<String> = ["UIResourceName", "NSResourceName"]
    static let placeholderClasses: Set<String> = ["UIImageNibPlaceholder", "NSCustomResource"]

    /// The names in a compiled nib, sorted and unique; `nil` when the bytes are no nib format we know.
    public static func imageNames(in bytes: [UInt8]) throws -> [String]? {
        if bytes.starts(with: Array("NIBArchive".utf8)) {
            return try bytes.withUnsafeBytes { try NIBArchive(ByteReader($0)).imageNames() }
        }
        if bytes.starts(with: Array("bplist00".utf8)) {
            return keyedArchiveNames(try PropertyList.parse(bytes))
        }
        return nil
    }

    /// NSKeyedArchiver: `$objects` entries whose `$class` is a placeholder, their resource key a UID of a string.
    static func keyedArchiveNames(_ plist: PlistValue) -> [String]? {
        guard let objects = plist["$objects"]?.array else { return nil }
        // A UID may point at an object that points back (a hostile file): follow a bounded chain.
        func string(_ value: PlistValue?) -> String? {
            var current = value
            for _ in 0..<8 {
                guard let value = current else { return nil }
                if let s = value.string { return s }
                guard let uid = value.uid, objects.indices.contains(uid) else { return nil }
                current = objects[uid]["NS.string"] ?? objects[uid]
            }
            return nil
        }
        var names = Set<String>()
        for object in objects {
            guard let dict = object.dictionary, let classRef = dict["$class"]?.uid, objects.indices.contains(classRef),
                let className = objects[classRef]["$classname"]?.string, placeholderClasses.contains(className)
            else { continue }
            for key in resourceKeys {
                if let name = string(dict[key]), !name.isEmpty { names.insert(name) }
            }
        }
        return names.sorted()
    }
}

/// The NIBArchive container: four tables (objects, keys, values, classes) with varint-packed records.
struct NIBArchive {
    let r: ByteReader

    init(_ r: ByteReader) { self.r = r }

    /// NIBArchive varints end at the byte whose high bit is set.
    private func varint(_ offset: inout Int) throws -> Int {
        var result = 0, shift = 0
        while true {
            let byte = try r.u8(offset)
            offset += 1
            result |= Int(byte & 0x7F) << shift
            if byte & 0x80 != 0 { return result }
            shift += 7
            guard shift < 56 else { throw FormatError(offset: offset, reason: "varint longer than 8 bytes") }
        }
    }

    private enum Value { case object(Int), data([UInt8]), other }

    func imageNames() throws -> [String] {
        let base = 10 + 8
        func table(_ i: Int) throws -> (count: Int, offset: Int) {
            (Int(try r.u32le(base + i * 8)), Int(try r.u32le(base + i * 8 + 4)))
        }
        let objects = try table(0), keys = try table(1), values = try table(2), classes = try table(3)
        for t in [objects, keys, values, classes] where t.count > r.count || t.offset > r.count {
            throw FormatError(offset: base, reason: "table of \(t.count) records at \(t.offset) does not fit the file")
        }
        var offset = keys.offset
        var keyNames: [String] = []
        for _ in 0..<keys.count {
            let n = try varint(&offset)
            keyNames.append(String(decoding: try r.slice(offset, n), as: UTF8.self))
            offset += n
        }
        offset = classes.offset
        var classNames: [String] = []
        for _ in 0..<classes.count {
            let n = try varint(&offset)
            let extra = try varint(&offset)
            offset += extra * 4
            let raw = try r.slice(offset, n)
            classNames.append(String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self))
            offset += n
        }
        offset = values.offset
        var valueList: [(key: Int, value: Value)] = []
        valueList.reserveCapacity(values.count)
        for _ in 0..<values.count {
            let key = try varint(&offset)
            let type = try r.u8(offset)
            offset += 1
            var value = Value.other
            switch type {
            case 0: offset += 1
            case 1: offset += 2
            case 2, 6: offset += 4
            case 3, 7: offset += 8
            case 4, 5, 9: break
            case 8:
                let n = try varint(&offset)
                value = .data(Array(try r.slice(offset, n)))
                offset += n
            case 10:
                value = .object(Int(try r.u32le(offset)))
                offset += 4
            default:
                throw FormatError(offset: offset - 1, reason: "unknown value type \(type)")
            }
            valueList.append((key, value))
        }
        offset = objects.offset
        var objectList: [(cls: Int, first: Int, count: Int)] = []
        for _ in 0..<objects.count {
            objectList.append((try varint(&offset), try varint(&offset), try varint(&offset)))
        }
        func fields(_ object: Int) -> ArraySlice<(key: Int, value: Value)> {
            guard object < objectList.count else { return [] }
            let o = objectList[object]
            guard o.first <= valueList.count, o.count <= valueList.count - o.first else { return [] }
            return valueList[o.first..<(o.first + o.count)]
        }
        func string(_ object: Int) -> String? {
            for field in fields(object) where field.key < keyNames.count && keyNames[field.key] == "NS.bytes" {
                if case let .data(bytes) = field.value { return String(decoding: bytes, as: UTF8.self) }
            }
            return nil
        }
        var names = Set<String>()
        for (index, object) in objectList.enumerated() where object.cls < classNames.count {
            guard NibReferences.placeholderClasses.contains(classNames[object.cls]) else { continue }
            for field in fields(index) where field.key < keyNames.count && NibReferences.resourceKeys.contains(keyNames[field.key]) {
                if case let .object(target) = field.value, let name = string(target), !name.isEmpty { names.insert(name) }
            }
        }
        return names.sorted()
    }
}
