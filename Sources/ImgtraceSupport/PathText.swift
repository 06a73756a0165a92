/// Path arithmetic on strings, without Foundation's `NSString` path methods (which trap on
/// some short paths on Linux).
package enum PathText {
    /// The last component: `a/b/App.app` → `App.app`; trailing slashes are ignored.
    package static func lastComponent(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed != "/" else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The folder holding `path`: `a/b/out.json` → `a/b`, `out.json` → `.`, `/out.json` → `/`.
    package static func directory(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// `path` as seen from `directory`: unchanged when absolute or when `directory` is `.`.
    package static func resolve(_ path: String, against directory: String) -> String {
        directory == "." ? path : join(directory, path)
    }

    /// `folder/relative`, the one rule every path join follows: `relative` alone when it is
    /// absolute or `folder` is empty, `folder` alone when `relative` is empty, one slash between
    /// however `folder` ends.
    package static func join(_ folder: String, _ relative: String) -> String {
        if relative.hasPrefix("/") || folder.isEmpty { return relative }
        var base = Substring(folder)
        while base.count > 1, base.hasSuffix("/") { base = base.dropLast() }
        if relative.isEmpty { return String(base) }
        return base == "/" ? "/" + relative : base + "/" + relative
    }

    /// The part after the last `/`, the whole path without one. By UTF-8 byte, as the file
    /// system splits paths (a `/` before a combining mark still separates folders), and at
    /// memory speed on a name of megabytes; a trailing slash is not trimmed.
    package static func fileName(_ path: String) -> String {
        guard let slash = lastOffset(of: UInt8(ascii: "/"), in: path) else { return path }
        return suffix(of: path, from: slash + 1)
    }

    /// The extension of a name, without its dot: `App.app` → `app`, `Makefile` → ``, `.DS_Store`
    /// → `` (a leading dot is no extension). By UTF-8 byte, as `fileName`.
    package static func fileExtension(_ name: String) -> String {
        guard let dot = lastOffset(of: UInt8(ascii: "."), in: name), dot != 0 else { return "" }
        return suffix(of: name, from: dot + 1)
    }

    /// The part before the last `/`, empty without one (a name's folder inside a bundle).
    package static func folder(_ path: String) -> String {
        guard let slash = lastOffset(of: UInt8(ascii: "/"), in: path) else { return "" }
        return prefix(of: path, upTo: slash)
    }

    /// The offset of the last `byte` in `text`'s UTF-8: a loop over its bytes where they lie in
    /// one piece (a `String.UTF8View` index step costs a call per byte, and every path of a bundle
    /// is split several times).
    package static func lastOffset<Text: StringProtocol>(of byte: UInt8, in text: Text) -> Int? {
        if let found = text.utf8.withContiguousStorageIfAvailable({ $0.lastIndex(of: byte) }) { return found }
        return Array(text.utf8).lastIndex(of: byte)
    }

    /// The index of the last `byte` in `text`'s UTF-8 (`lastOffset`, as an index of `text`).
    package static func lastIndex(of byte: UInt8, in text: Substring) -> Substring.Index? {
        lastOffset(of: byte, in: text).map { text.utf8.index(text.utf8.startIndex, offsetBy: $0) }
    }

    /// The text from UTF-8 offset `start` (an ASCII byte's neighbour, so a scalar boundary) to the end.
    static func suffix(of text: String, from start: Int) -> String {
        String(text[text.utf8.index(text.utf8.startIndex, offsetBy: start)...])
    }

    /// The text before UTF-8 offset `end` (an ASCII byte, so a scalar boundary).
    static func prefix(of text: String, upTo end: Int) -> String {
        String(text[..<text.utf8.index(text.utf8.startIndex, offsetBy: end)])
    }
}
