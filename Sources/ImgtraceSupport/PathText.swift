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
}
