import ImgtraceSupport

/// Image names an app may read from its own data files at run time: every string value of an
/// XML property list (`.plist`, `.intentdefinition`, `.stringsdict`), a JSON file, a String Catalog
/// (`.xcstrings`, Xcode's default: JSON, every language and plural variant) and a `.strings` table is a
/// weak reference (a theme plist or a JSON menu that names its icons keeps them alive; static
/// tools that skip such files report them unused). Binary property lists are not read: in a
/// source tree they are rare, and in a built app `Info.plist` is read by the bundle reader.
public enum DataReferences {
    /// Values longer than this are prose or data, never an image's name.
    static let maxNameBytes = 256

    /// The files it reads, by their extension.
    public static func reads(_ fileName: String) -> Bool {
        fileName.hasSuffix(".plist") || fileName.hasSuffix(".intentdefinition") || fileName.hasSuffix(".json")
            || fileName.hasSuffix(".strings") || fileName.hasSuffix(".xcstrings") || fileName.hasSuffix(".stringsdict")
    }

    /// Every string value of one data file as a weak reference, with its line and column (in
    /// UTF-8 bytes; a UTF-16 file, as Xcode wrote `.strings` for years, is read as its UTF-8).
    public static func scan(_ bytes: [UInt8], file: String) -> [CodeReference] {
        let text = TextEncoding.utf8(bytes)
        return isXMLPropertyList(text) ? xmlStrings(text, file: file) : quotedStrings(text, file: file)
    }

    /// `<?xml` or `<plist` before any other content (after a byte-order mark and spaces).
    static func isXMLPropertyList(_ bytes: [UInt8]) -> Bool {
        var k = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while k < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[k]) { k += 1 }
        return bytes[k...].starts(with: Array("<?xml".utf8)) || bytes[k...].starts(with: Array("<plist".utf8))
    }

    /// The text of every `<string>` element, its five XML entities and numeric references decoded.
    static func xmlStrings(_ bytes: [UInt8], file: String) -> [CodeReference] {
        let open = Array("<string>".utf8), close = Array("</string>".utf8)
        var references: [CodeReference] = []
        var line = 1, lineStart = 0, k = 0
        while k < bytes.count {
            if bytes[k] == 0x0A {
                line += 1
                lineStart = k + 1
                k += 1
                continue
            }
            guard bytes[k] == UInt8(ascii: "<"), bytes[k...].starts(with: open) else {
                k += 1
                continue
            }
            let column = k - lineStart + 1
            let start = k + open.count
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "<"), bytes[end] != 0x0A, end - start <= maxNameBytes * 8 { end += 1 }
            k = end
            guard end < bytes.count, bytes[end...].starts(with: close), let text = decodedXML(bytes[start..<end]) else { continue }
            add(text, line: line, column: column, file: file, to: &references)
        }
        return references
    }

    /// Every `"…"` with its backslash escapes (JSON's and the `.strings` format's), one line long.
    /// `.strings` comments are skipped; in JSON a `/` never starts one, and skipping is harmless.
    static func quotedStrings(_ bytes: [UInt8], file: String) -> [CodeReference] {
        var references: [CodeReference] = []
        var line = 1, lineStart = 0, k = 0
        while k < bytes.count {
            let b = bytes[k]
            if b == 0x0A {
                line += 1
                lineStart = k + 1
                k += 1
                continue
            }
            if b == UInt8(ascii: "/"), k + 1 < bytes.count, bytes[k + 1] == UInt8(ascii: "*") {
                k += 2
                while k + 1 < bytes.count, !(bytes[k] == UInt8(ascii: "*") && bytes[k + 1] == UInt8(ascii: "/")) {
                    if bytes[k] == 0x0A {
                        line += 1
                        lineStart = k + 1
                    }
                    k += 1
                }
                k += 2
                continue
            }
            guard b == UInt8(ascii: "\"") else {
                k += 1
                continue
            }
            let column = k - lineStart + 1
            var text: [UInt8] = []
            k += 1
            while k < bytes.count, bytes[k] != UInt8(ascii: "\""), bytes[k] != 0x0A {
                if bytes[k] == UInt8(ascii: "\\"), k + 1 < bytes.count, bytes[k + 1] != 0x0A {
                    k += 1
                    switch bytes[k] {
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "t"): text.append(0x09)
                    case UInt8(ascii: "u"):
                        // \uXXXX: a name with one is rare; kept as the scalar when it is one.
                        let hex = bytes[(k + 1)..<min(k + 5, bytes.count)]
                        if hex.count == 4, let value = UInt32(String(decoding: hex, as: UTF8.self), radix: 16), let scalar = Unicode.Scalar(value) {
                            text += Array(String(Character(scalar)).utf8)
                            k += 4
                        }
                    default: text.append(bytes[k])
                    }
                } else {
                    text.append(bytes[k])
                }
                k += 1
            }
            if k < bytes.count, bytes[k] == UInt8(ascii: "\"") {
                add(String(decoding: text, as: UTF8.self), line: line, column: column, file: file, to: &references)
            }
            k += 1
        }
        return references
    }

    private static func add(_ text: String, line: Int, column: Int, file: String, to references: inout [CodeReference]) {
        guard !text.isEmpty, text.utf8.count <= maxNameBytes, !text.contains("\n") else { return }
        references.append(CodeReference(file: file, line: line, column: column, kind: .weak, name: text))
    }

    /// An element's text with its character references decoded; nil when an `&` starts nothing
    /// XML knows (not a well-formed value).
    static func decodedXML(_ raw: ArraySlice<UInt8>) -> String? {
        XMLEntities.decoded(String(decoding: raw, as: UTF8.self), strict: true)
    }
}
