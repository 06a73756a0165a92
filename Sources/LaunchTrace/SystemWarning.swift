/// A missing image the system itself logged, in any console or debugger log: the request it
/// failed, read as a load (a console with no breakpoint at all already names what is missing).
///
/// - SwiftUI, `Image("logo")` with no such catalog image: `No image named 'logo' found in asset
///   catalog for /private/var/…/App.app` (or `… for main bundle`); `Image(systemName:)`:
///   `No symbol named 'x' found in system symbol set`.
/// - UIKit, an image a nib or storyboard names that the app lacks: `Could not load the "banner"
///   image referenced from a nib in the bundle with identifier "com.example.App"`.
/// - CoreUI, a nil or empty name: `CUICatalog: Invalid asset name supplied: '(null)'` (or `''`).
struct SystemWarning {
    /// The name the request asked for, as bytes; empty for `''`; nil for `(null)`.
    var name: ByteLine?
    /// Which API made it: the reader's kind of request (SwiftUI's look in catalogs only).
    var kind: LoadKind
    /// What logged it, for the load's API column.
    var source: StaticString

    /// The warning `line` holds, if any. Each shape opens its name with a quote, so a line is
    /// searched for quotes only (two `memchr`s on a line without one), and only the text before
    /// a quote is compared: this runs on every console line a log holds.
    static func parse(_ line: ByteLine) -> SystemWarning? {
        var from = 0
        while let quote = line.index(of: 0x27, from: from) {
            if line.hasPrefix("No image named '", at: quote - 15) {
                return named(line, quote, trailer: "' found in asset catalog", kind: .swiftui, source: "SwiftUI (console warning)")
            }
            if line.hasPrefix("No symbol named '", at: quote - 16) {
                return named(line, quote, trailer: "' found in system symbol set", kind: .symbol, source: "SwiftUI (console warning)")
            }
            if line.hasPrefix("Invalid asset name supplied: '", at: quote - 29), let name = quoted(line, after: quote + 1, close: 0x27, trailer: "'") {
                let isNull = name.count == 6 && name.hasPrefix("(null)")
                return SystemWarning(name: isNull ? nil : name, kind: .code, source: "CoreUI (console warning)")
            }
            from = quote + 1
        }
        from = 0
        while let quote = line.index(of: 0x22, from: from) {
            if line.hasPrefix("Could not load the \"", at: quote - 19) {
                return named(line, quote, trailer: "\" image referenced from a nib", kind: .nib, source: "UIKit nib (console warning)")
            }
            from = quote + 1
        }
        return nil
    }

    private static func named(_ line: ByteLine, _ quote: Int, trailer: StaticString, kind: LoadKind, source: StaticString) -> SystemWarning? {
        quoted(line, after: quote + 1, close: line[quote], trailer: trailer).map { SystemWarning(name: $0, kind: kind, source: source) }
    }

    /// The bytes from `start` up to the last `close` byte that begins `trailer`; nil without one.
    private static func quoted(_ line: ByteLine, after start: Int, close: UInt8, trailer: StaticString) -> ByteLine? {
        guard start <= line.count else { return nil }
        // The name may hold the quote itself: the trailer that follows it decides where it ends.
        var end: Int?
        var from = start
        while let next = line.index(of: close, from: from) {
            if line.hasPrefix(trailer, at: next) { end = next }
            from = next + 1
        }
        return end.map { line.slice(start, $0) }
    }
}
