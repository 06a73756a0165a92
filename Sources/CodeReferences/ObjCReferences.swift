/// Image references in Objective-C (`.m`, `.mm`, `.h`), from a small lexer of its own: comments
/// are skipped, every string literal (`@"…"` and `"…"`) is read with its escapes, and one that is
/// the argument of `imageNamed:` (any receiver: `[UIImage imageNamed:@"tab"]`, `[NSImage
/// imageNamed:…]`) is a named reference, of `systemImageNamed:` an SF Symbol; any other is weak.
/// `[NSString stringWithFormat:@"flag_%@", code]` gives the pattern `flag_*`, and so does
/// `[@"flag_" stringByAppendingString:code]`.
public enum ObjCReferences {
    public static func scan(_ bytes: [UInt8], file: String) -> [CodeReference] {
        var references: [CodeReference] = []
        var k = 0
        var line = 1
        var lineStart = 0
        func next() { if bytes[k] == 0x0A { line += 1; lineStart = k + 1 }; k += 1 }
        while k < bytes.count {
            let b = bytes[k]
            if b == UInt8(ascii: "/"), k + 1 < bytes.count, bytes[k + 1] == UInt8(ascii: "/") {
                while k < bytes.count, bytes[k] != 0x0A { k += 1 }
                continue
            }
            if b == UInt8(ascii: "/"), k + 1 < bytes.count, bytes[k + 1] == UInt8(ascii: "*") {
                k += 2
                while k + 1 < bytes.count, !(bytes[k] == UInt8(ascii: "*") && bytes[k + 1] == UInt8(ascii: "/")) { next() }
                k += 2
                continue
            }
            if b == UInt8(ascii: "'") {
                // A character literal: `'"'` is not the start of a string.
                k += 1
                while k < bytes.count, bytes[k] != UInt8(ascii: "'"), bytes[k] != 0x0A {
                    if bytes[k] == UInt8(ascii: "\\") { k += 1 }
                    k += 1
                }
                k += 1
                continue
            }
            guard b == UInt8(ascii: "\"") else {
                next()
                continue
            }
            let objc = k > 0 && bytes[k - 1] == UInt8(ascii: "@")
            let start = objc ? k - 1 : k
            let column = start - lineStart + 1, startLine = line
            var text: [UInt8] = []
            k += 1
            while k < bytes.count, bytes[k] != UInt8(ascii: "\""), bytes[k] != 0x0A {
                if bytes[k] == UInt8(ascii: "\\"), k + 1 < bytes.count {
                    k += 1
                    switch bytes[k] {
                    case UInt8(ascii: "n"): text.append(0x0A)
                    case UInt8(ascii: "t"): text.append(0x09)
                    default: text.append(bytes[k])
                    }
                } else {
                    text.append(bytes[k])
                }
                k += 1
            }
            k += 1
            let literal = String(decoding: text, as: UTF8.self)
            let before = selectorBefore(bytes, start)
            var kind: CodeReference.Kind = before == "imageNamed:" ? .named : before == "systemImageNamed:" ? .system : .weak
            var name = literal
            // A format with holes names a family of images.
            if literal.contains("%") {
                name = pattern(literal)
                guard CodeReference.isNamingPattern(name) else { continue }
                kind = .dynamic
            }
            // `[prefix stringByAppendingString:@"_dark"]` → `*_dark`, `[@"flag_" stringByAppendingString:code]` → `flag_*`.
            var joined: String?
            if Self.appending.contains(before) {
                joined = "*" + name
            } else if Self.appending.contains(selectorAfter(bytes, k)) {
                joined = name + "*"
            }
            if let joined {
                name = joined.replacingOccurrences(of: "**", with: "*")
                guard CodeReference.isNamingPattern(name) else { continue }
                kind = .dynamic
            }
            guard !name.isEmpty else { continue }
            references.append(
                CodeReference(
                    file: file, line: startLine, column: column, kind: kind, name: name,
                    api: kind == .named || kind == .system ? before : nil))
        }
        return references
    }

    /// The selector part just before a literal (`imageNamed:`), skipping spaces.
    private static func selectorBefore(_ bytes: [UInt8], _ start: Int) -> String {
        var end = start
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A { end -= 1 }
        guard end > 0, bytes[end - 1] == UInt8(ascii: ":") else { return "" }
        var begin = end - 1
        while begin > 0, bytes[begin - 1].isIdentifierByte { begin -= 1 }
        return String(decoding: bytes[begin..<end], as: UTF8.self)
    }

    /// The selectors that join a literal to a string built at run time.
    static let appending: Set<String> = ["stringByAppendingString:", "stringByAppendingFormat:"]

    /// The selector part just after a literal (`stringByAppendingString:`), skipping spaces.
    private static func selectorAfter(_ bytes: [UInt8], _ end: Int) -> String {
        var begin = end
        while begin < bytes.count, bytes[begin] == 0x20 || bytes[begin] == 0x09 || bytes[begin] == 0x0A { begin += 1 }
        var stop = begin
        while stop < bytes.count, bytes[stop].isIdentifierByte { stop += 1 }
        guard stop < bytes.count, stop > begin, bytes[stop] == UInt8(ascii: ":") else { return "" }
        return String(decoding: bytes[begin...stop], as: UTF8.self)
    }

    /// `flag_%@.png` → `flag_*.png`: each conversion becomes a hole.
    public static func pattern(_ format: String) -> String {
        var out = ""
        var chars = format.makeIterator()
        while let c = chars.next() {
            guard c == "%" else {
                out.append(c)
                continue
            }
            // Flags, width, precision and length, then the conversion letter or `@`.
            while let d = chars.next() {
                if d == "%" {
                    out.append("%")
                    break
                }
                // Length modifiers (`l`, `ll`, `h`, `z`, `j`, `t`, `q`, `L`) are letters too: only a conversion ends it.
                if "diouxXfFeEgGaAcsSpCDOU@".contains(d) {
                    if out.last != "*" { out.append("*") }
                    break
                }
            }
        }
        return out
    }
}

extension UInt8 {
    fileprivate var isIdentifierByte: Bool {
        (self >= 0x30 && self <= 0x39) || (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || self == 0x5F
    }
}
