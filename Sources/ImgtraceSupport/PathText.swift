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
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The extension of a name, without its dot: `App.app` → `app`, `Makefile` → ``, `.DS_Store`
    /// → `` (a leading dot is no extension). By UTF-8 byte, as `fileName`.
    package static func fileExtension(_ name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.startIndex else { return "" }
        return String(name[name.utf8.index(after: dot)...])
    }

    /// The part before the last `/`, empty without one (a name's folder inside a bundle).
    package static func folder(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }
}
