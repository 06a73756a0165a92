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
        if path.hasPrefix("/") || directory == "." || directory.isEmpty { return path }
        return (directory.hasSuffix("/") ? directory : directory + "/") + path
    }

    /// The part after the last `/`, the whole path without one. By UTF-8 byte, as the file
    /// system splits paths (a `/` before a combining mark still separates folders), and at
    /// memory speed on a name of megabytes; a trailing slash is not trimmed.
    package static func fileName(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(path[path.utf8.index(after: slash)...])
    }

    /// The extension of a name, without its dot: `App.app` → `app`, `Makefile` → ``.
    package static func fileExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }

    /// The part before the last `/`, empty without one (a name's folder inside a bundle).
    package static func folder(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(path[..<slash])
    }
}
