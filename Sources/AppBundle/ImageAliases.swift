import ImgtraceSupport

/// A name that a system image folder maps to a file of another name.
///
/// GNUstep's `nsmapping.strings` maps file names and old OpenStep names (`NSMenuArrow`) to theme
/// names (`GSMenuArrow`); `+[NSImage imageNamed:]` consults it, so every name that maps to the same
/// theme name loads the one file that exists (`common_3DArrowRight.tiff`).
public struct ImageAlias: Equatable, Sendable {
    /// The system image folder's bundle id.
    public var bundle: String
    /// The name an app asks for.
    public var name: String
    /// The lookup name of the file it loads (the name itself when that file exists).
    public var target: String
    /// The shared name both map to (the theme name).
    public var via: String
    /// The mapping file, relative to the folder.
    public var file: String

    public init(bundle: String, name: String, target: String, via: String, file: String) {
        self.bundle = bundle
        self.name = name
        self.target = target
        self.via = via
        self.file = file
    }
}

package enum ImageAliases {
    /// The mapping file GNUstep ships beside its images.
    static let mappingFile = "nsmapping.strings"

    /// Every alias `mapping` implies for a folder whose images have the lookup names `existing`.
    static func aliases(mapping: [(key: String, value: String)], existing: Set<String>, bundle: String) -> [ImageAlias] {
        var theme: [String: String] = [:]
        for (key, value) in mapping { theme[key] = value }  // later lines win, as in a strings file
        var files: [String: [String]] = [:]
        for (key, value) in theme where existing.contains(key) { files[value, default: []].append(key) }
        var aliases: [ImageAlias] = []
        let asked = Set(theme.keys).union(theme.values)
        for name in asked.sorted() {
            let via = theme[name] ?? name
            // A file that maps to a theme name is cached under that name: it is its own alias.
            let target = existing.contains(name) ? name : files[via]?.sorted().first
            guard let target, !(target == name && via == name) else { continue }
            aliases.append(ImageAlias(bundle: bundle, name: name, target: target, via: via, file: mappingFile))
        }
        return aliases
    }

    /// Parses the `key = value;` pairs of an old-style strings file; quoted or bare tokens,
    /// `/* */` and `//` comments. Returns nil when the text is not of that shape.
    package static func parseStrings(_ raw: [UInt8]) -> [(key: String, value: String)]? {
        // UTF-16 with a byte-order mark is read as its UTF-8, as Apple's tools read it.
        let bytes = TextEncoding.utf8(raw)
        var pairs: [(key: String, value: String)] = []
        var i = 0
        func skipSpace() {
            while i < bytes.count {
                let c = bytes[i]
                if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D { i += 1; continue }
                if c == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2A {  // /* … */
                    i += 2
                    while i + 1 < bytes.count, !(bytes[i] == 0x2A && bytes[i + 1] == 0x2F) { i += 1 }
                    i += 2
                    continue
                }
                if c == 0x2F, i + 1 < bytes.count, bytes[i + 1] == 0x2F {  // // …
                    while i < bytes.count, bytes[i] != 0x0A { i += 1 }
                    continue
                }
                return
            }
        }
        func token() -> String? {
            guard i < bytes.count else { return nil }
            if bytes[i] == 0x22 {
                var out: [UInt8] = []
                i += 1
                while i < bytes.count, bytes[i] != 0x22 {
                    if bytes[i] == 0x5C, i + 1 < bytes.count { i += 1 }
                    out.append(bytes[i])
                    i += 1
                }
                guard i < bytes.count else { return nil }
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            let start = i
            while i < bytes.count, isBare(bytes[i]) { i += 1 }
            return i > start ? String(decoding: bytes[start..<i], as: UTF8.self) : nil
        }
        while true {
            skipSpace()
            if i >= bytes.count { return pairs }
            guard let key = token() else { return nil }
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3D else { return nil }
            i += 1
            skipSpace()
            guard let value = token() else { return nil }
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x3B else { return nil }
            i += 1
            pairs.append((key, value))
        }
    }

    private static func isBare(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            || c == 0x5F || c == 0x2E || c == 0x2D || c == 0x24 || c == 0x2F || c == 0x3A
    }
}
