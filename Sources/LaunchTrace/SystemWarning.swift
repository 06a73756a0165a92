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

    /// The warning `line` holds, if any; cheap on every other line (three byte searches).
    static func parse(_ line: ByteLine) -> SystemWarning? {
        if let start = line.range(of: "No image named '") {
            return quoted(line, after: start + 16, close: 0x27, trailer: "' found in asset catalog").map {
                SystemWarning(name: $0, kind: .swiftui, source: "SwiftUI (console warning)")
            }
        }
        if let start = line.range(of: "No symbol named '") {
            return quoted(line, after: start + 17, close: 0x27, trailer: "' found in system symbol set").map {
                SystemWarning(name: $0, kind: .symbol, source: "SwiftUI (console warning)")
            }
        }
        if let start = line.range(of: "Could not load the \"") {
            return quoted(line, after: start + 20, close: 0x22, trailer: "\" image referenced from a nib").map {
                SystemWarning(name: $0, kind: .nib, source: "UIKit nib (console warning)")
            }
        }
        if let start = line.range(of: "Invalid asset name supplied: '"), let name = quoted(line, after: start + 30, close: 0x27, trailer: "'") {
            let isNull = name.count == 6 && name.hasPrefix("(null)")
            return SystemWarning(name: isNull ? nil : name, kind: .code, source: "CoreUI (console warning)")
        }
        return nil
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
