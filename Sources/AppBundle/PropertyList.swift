import Foundation
import ImgtraceSupport

/// A property-list value. Binary plists are parsed here (they carry keyed-archive UIDs and
/// need offsets in errors); XML and OpenStep text go through Foundation.
public indirect enum PlistValue: Equatable, Sendable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    case date(Double)
    case uid(Int)
    case array([PlistValue])
    case dictionary([String: PlistValue])

    public var string: String? { if case let .string(s) = self { return s }; return nil }
    public var array: [PlistValue]? { if case let .array(a) = self { return a }; return nil }
    public var dictionary: [String: PlistValue]? { if case let .dictionary(d) = self { return d }; return nil }
    public var uid: Int? { if case let .uid(u) = self { return u }; return nil }
    public var integer: Int? { if case let .integer(i) = self { return i }; return nil }

    public subscript(key: String) -> PlistValue? { dictionary?[key] }

    /// Strings of an array value, or the value itself when it is one string.
    public var strings: [String] {
        if let s = string { return [s] }
        return array?.compactMap(\.string) ?? []
    }
}

/// Reads binary (`bplist00`), XML and OpenStep property lists.
public enum PropertyList {
    /// Parses `bytes`; errors carry the byte offset for binary plists.
    public static func parse(_ bytes: [UInt8]) throws -> PlistValue {
        if bytes.starts(with: Array("bplist".utf8)) {
            // Only version 00 is read, by us: Foundation's own binary reader crashes on hostile
            // bytes behind other version digits (fuzzing found `bplist0/…`), so it never sees them.
            guard bytes.starts(with: Array("bplist00".utf8)) else {
                let version = String(decoding: bytes.dropFirst(6).prefix(2), as: UTF8.self)
                throw FormatError(offset: 6, reason: "binary plist version \(SafeText.quoted(version)) is not supported (only bplist00)")
            }
            return try bytes.withUnsafeBytes { try BinaryPlistParser(ByteReader($0)).parse() }
        }
        // Foundation leaks about 600 bytes on every input it fails to parse (measured: 30,000
        // failures grow a process by 17 MB), so only what can be a text plist goes to it.
        guard looksLikeTextPlist(bytes) else {
            throw FormatError(offset: 0, reason: "not a property list (neither bplist00, XML nor OpenStep text)")
        }
        let value: Any
        do {
            value = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            throw FormatError(offset: 0, reason: "not a property list (\(String(describing: error).prefix(120)))")
        }
        guard let converted = convert(value, depth: 0) else {
            throw FormatError(offset: 0, reason: "property list holds an unsupported value")
        }
        return converted
    }

    /// XML (`<`, also UTF-16 with a byte-order mark) or OpenStep (`{`, `(`), after a UTF-8
    /// byte-order mark, white space and comments.
    static func looksLikeTextPlist(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return true }
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
            case 0x2F where i + 1 < bytes.count && bytes[i + 1] == 0x2A:  // /* … */
                i += 2
                while i + 1 < bytes.count, !(bytes[i] == 0x2A && bytes[i + 1] == 0x2F) { i += 1 }
                i += 2
            case 0x2F where i + 1 < bytes.count && bytes[i + 1] == 0x2F:  // // …
                while i < bytes.count, bytes[i] != 0x0A { i += 1 }
            default:
                return bytes[i] == 0x3C || bytes[i] == 0x7B || bytes[i] == 0x28
            }
        }
        return false
    }

    private static func convert(_ value: Any, depth: Int) -> PlistValue? {
        guard depth < 512 else { return nil }
        switch value {
        case let s as String: return .string(s)
        case let b as Bool: return .bool(b)
        case let i as Int: return .integer(i)
        case let d as Double: return .real(d)
        case let d as Data: return .data([UInt8](d))
        case let d as Date: return .date(d.timeIntervalSinceReferenceDate)
        case let a as [Any]: return .array(a.compactMap { convert($0, depth: depth + 1) })
        case let d as [AnyHashable: Any]:
            var out: [String: PlistValue] = [:]
            for (k, v) in d {
                if let key = k.base as? String, let v = convert(v, depth: depth + 1) { out[key] = v }
            }
            return .dictionary(out)
        default: return nil
        }
    }
}

/// The `bplist00` format: a trailer with the offset table, objects addressed by index.
final class BinaryPlistParser {
    let r: ByteReader
    var offsetSize = 0, refSize = 0, objectCount = 0, tableOffset = 0
    /// Objects may be shared; this bounds the work a file of shared references can cause.
    var visits = 0

    init(_ r: ByteReader) { self.r = r }

    func parse() throws -> PlistValue {
        let trailer = r.count - 32
        guard trailer >= 8 else { throw FormatError(offset: 0, reason: "binary plist shorter than its trailer") }
        offsetSize = Int(try r.u8(trailer + 6))
        refSize = Int(try r.u8(trailer + 7))
        let count = try u64(trailer + 8), top = try u64(trailer + 16), table = try u64(trailer + 24)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw FormatError(offset: trailer + 6, reason: "offset size \(offsetSize) / reference size \(refSize)")
        }
        guard count > 0, count <= r.count, top < count, table < r.count, table + count * offsetSize <= trailer else {
            throw FormatError(offset: trailer + 8, reason: "object table does not fit the file")
        }
        objectCount = count
        tableOffset = table
        var visiting = Set<Int>()
        return try object(top, visiting: &visiting)
    }

    private func u64(_ offset: Int) throws -> Int {
        let high = try r.u32be(offset), low = try r.u32be(offset + 4)
        guard high < 0x7FFF_FFFF else { throw FormatError(offset: offset, reason: "64-bit value out of range") }
        return Int(high) << 32 | Int(low)
    }

    /// A big-endian unsigned field of `size` bytes; one that does not fit an `Int` is an error
    /// (references and offsets of 0x8000000000000000 and up would turn negative).
    private func sized(_ offset: Int, _ size: Int) throws -> Int {
        try r.check(offset, size, "an integer")
        var v: UInt64 = 0
        for i in 0..<size { v = v << 8 | UInt64(r.bytes[offset + i]) }
        guard v <= UInt64(Int.max) else { throw FormatError(offset: offset, reason: "value 0x\(String(v, radix: 16)) out of range") }
        return Int(v)
    }

    /// `count × size` bytes of references starting at `start`, checked against the file:
    /// a count that claims more than the file holds is an error, not an allocation.
    private func checkReferences(_ start: Int, count: Int, size: Int, _ what: String) throws {
        let (total, overflow) = count.multipliedReportingOverflow(by: size)
        guard !overflow else { throw FormatError(offset: start, reason: "\(what): count \(count) is too large") }
        try r.check(start, total, what)
    }

    private func object(_ index: Int, visiting: inout Set<Int>) throws -> PlistValue {
        guard index >= 0, index < objectCount else { throw FormatError(offset: tableOffset, reason: "object reference \(index) out of range") }
        // A container that contains itself would recurse forever.
        guard visiting.insert(index).inserted, visiting.count < 512 else {
            throw FormatError(offset: tableOffset + index * offsetSize, reason: "object \(index) contains itself")
        }
        defer { visiting.remove(index) }
        visits += 1
        // Each visit stands for a reference in the file; more visits than bytes means shared
        // containers are being expanded over and over.
        guard visits <= max(r.count, 4096) else { throw FormatError(offset: tableOffset, reason: "too many shared objects") }
        let at = try sized(tableOffset + index * offsetSize, offsetSize)
        guard at < r.count else { throw FormatError(offset: tableOffset + index * offsetSize, reason: "object offset \(at) is past the end") }
        let marker = try r.u8(at)
        let high = marker >> 4, low = Int(marker & 0x0F)
        func length() throws -> (Int, Int) {
            guard low == 0x0F else { return (low, at + 1) }
            let intMarker = try r.u8(at + 1)
            guard intMarker >> 4 == 1 else { throw FormatError(offset: at + 1, reason: "bad length marker") }
            let size = 1 << Int(intMarker & 0x0F)
            guard size <= 8 else { throw FormatError(offset: at + 1, reason: "length of \(size) bytes") }
            return (try sized(at + 2, size), at + 2 + size)
        }
        switch high {
        case 0x0:
            switch low {
            case 8: return .bool(false)
            case 9: return .bool(true)
            default: return .string("")  // null / fill
            }
        case 0x1:
            let size = 1 << low
            guard size <= 16 else { throw FormatError(offset: at, reason: "integer of \(size) bytes") }
            return .integer(size == 16 ? try sized(at + 9, 8) : size == 8 ? Int(bitPattern: UInt(try u64raw(at + 1))) : try sized(at + 1, size))
        case 0x2:
            let size = 1 << low
            if size == 4 { return .real(Double(Float(bitPattern: UInt32(try sized(at + 1, 4))))) }
            guard size == 8 else { throw FormatError(offset: at, reason: "real of \(size) bytes") }
            return .real(Double(bitPattern: try u64raw(at + 1)))
        case 0x3:
            return .date(Double(bitPattern: try u64raw(at + 1)))
        case 0x4:
            let (n, start) = try length()
            return .data(Array(try r.slice(start, n)))
        case 0x5:
            let (n, start) = try length()
            return .string(String(decoding: try r.slice(start, n), as: UTF8.self))
        case 0x6:
            let (n, start) = try length()
            try checkReferences(start, count: n, size: 2, "a UTF-16 string")
            let raw = try r.slice(start, n * 2)
            var units: [UInt16] = []
            units.reserveCapacity(n)
            for i in 0..<n { units.append(UInt16(raw[2 * i]) << 8 | UInt16(raw[2 * i + 1])) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            return .uid(try sized(at + 1, low + 1))
        case 0xA, 0xC:
            let (n, start) = try length()
            try checkReferences(start, count: n, size: refSize, "array references")
            var items: [PlistValue] = []
            for i in 0..<n { items.append(try object(try sized(start + i * refSize, refSize), visiting: &visiting)) }
            return .array(items)
        case 0xD:
            let (n, start) = try length()
            try checkReferences(start, count: n, size: 2 * refSize, "dictionary references")
            var dict: [String: PlistValue] = [:]
            for i in 0..<n {
                let key = try object(try sized(start + i * refSize, refSize), visiting: &visiting)
                let value = try object(try sized(start + (n + i) * refSize, refSize), visiting: &visiting)
                guard let k = key.string else { throw FormatError(offset: at, reason: "dictionary key is not a string") }
                dict[k] = value
            }
            return .dictionary(dict)
        default:
            throw FormatError(offset: at, reason: "unknown object marker 0x\(String(marker, radix: 16))")
        }
    }

    private func u64raw(_ offset: Int) throws -> UInt64 {
        UInt64(try r.u32be(offset)) << 32 | UInt64(try r.u32be(offset + 4))
    }
}
