/// Writes binary property lists (`bplist00`) for tests and fuzz seeds, including the malformed
/// ones a reader must refuse: references of any width and value, counts that lie, cycles.
public enum BinaryPlistWriter {
    /// One object of the object table. Containers hold references (indexes into the table),
    /// so a test can point them anywhere, itself included.
    public enum Object {
        case string(String)
        case int(Int64)
        case uid(UInt64)
        case array([UInt64])
        case dict([(key: UInt64, value: UInt64)])
        /// An array whose length field claims `count` while only `refs` follow.
        case lyingArray(count: UInt64, refs: [UInt64])
        /// Exact object bytes, marker included.
        case raw([UInt8])
    }

    /// A value tree, written with every object once.
    public indirect enum Value {
        case string(String)
        case int(Int)
        case uid(Int)
        case array([Value])
        case dict([(String, Value)])
    }

    /// The file for `objects`, with `top` as the root object and references `refSize` bytes wide.
    public static func build(_ objects: [Object], top: UInt64 = 0, refSize: Int = 1) -> [UInt8] {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        func ref(_ value: UInt64) -> [UInt8] { (0..<refSize).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) } }
        func length(_ marker: UInt8, _ count: UInt64) -> [UInt8] {
            if count < 15 { return [marker | UInt8(count)] }
            return [marker | 0x0F, 0x13] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: count >> (8 * UInt64($0))) }
        }
        for object in objects {
            offsets.append(out.count)
            switch object {
            case let .string(text):
                let bytes = Array(text.utf8)
                out += length(0x50, UInt64(bytes.count)) + bytes
            case let .int(value):
                out += [0x13] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * Int64($0))) }
            case let .uid(value):
                out += [0x87] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
            case let .array(refs):
                out += length(0xA0, UInt64(refs.count)) + refs.flatMap(ref)
            case let .dict(pairs):
                out += length(0xD0, UInt64(pairs.count)) + pairs.flatMap { ref($0.key) } + pairs.flatMap { ref($0.value) }
            case let .lyingArray(count, refs):
                out += length(0xA0, count) + refs.flatMap(ref)
            case let .raw(bytes):
                out += bytes
            }
        }
        let tableOffset = out.count
        for offset in offsets { out += (0..<4).reversed().map { UInt8(truncatingIfNeeded: offset >> (8 * $0)) } }
        out += [0, 0, 0, 0, 0, 0, 4, UInt8(refSize)]
        out += be64(UInt64(objects.count)) + be64(top) + be64(UInt64(tableOffset))
        return out
    }

    /// The file for a value tree.
    public static func build(_ value: Value) -> [UInt8] {
        var objects: [Object] = []
        @discardableResult
        func add(_ value: Value) -> UInt64 {
            let index = UInt64(objects.count)
            objects.append(.raw([]))
            switch value {
            case let .string(text): objects[Int(index)] = .string(text)
            case let .int(n): objects[Int(index)] = .int(Int64(n))
            case let .uid(n): objects[Int(index)] = .uid(UInt64(bitPattern: Int64(n)))
            case let .array(items): objects[Int(index)] = .array(items.map { add($0) })
            case let .dict(pairs):
                let refs = pairs.map { (key: add(.string($0.0)), value: add($0.1)) }
                objects[Int(index)] = .dict(refs)
            }
            return index
        }
        add(value)
        return build(objects, top: 0, refSize: objects.count > 255 ? 2 : 1)
    }

    /// A keyed-archive nib (NSKeyedArchiver) whose placeholders name `images`.
    public static func keyedNib(images: [String]) -> [UInt8] {
        var objects: [Value] = [.string("$null"), .dict([("$classname", .string("UIImageNibPlaceholder"))])]
        for name in images {
            objects.append(.dict([("$class", .uid(1)), ("UIResourceName", .uid(objects.count + 1))]))
            objects.append(.string(name))
        }
        return build(.dict([("$archiver", .string("NSKeyedArchiver")), ("$objects", .array(objects)), ("$version", .int(100000))]))
    }
}

public func be64(_ v: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
