/// What one backtrace frame, as a log printed it, says about where the code runs.
///
/// lldb (and `imgtrace record`) print `frame #2: 0x00007f… libgnustep-gui.so.0.29.0`+[NSCursor initialize]`,
/// which the reader keeps from the address on: the module is before the backtick. gdb prints
/// `#2  0x00007f… in +[NSCursor initialize] () from /usr/lib/libgnustep-gui.so.0.29`: the file
/// after ` from `. A gdb frame without ` from ` is in the main program or in a library with debug
/// information, which the line does not tell apart: its module is unknown.
public enum BacktraceFrame: Equatable, Sendable {
    /// A frame in this module (an executable's or a library's file name).
    case module(String)
    /// A frame whose module the line does not name.
    case unknownModule
    /// An empty line.
    case notAFrame

    /// Reads one frame as the trace reader keeps it, or as lldb or gdb print it.
    public init(_ line: String) {
        let bytes = Array(line.utf8)
        func skip(_ k: inout Int, while test: (UInt8) -> Bool) { while k < bytes.count, test(bytes[k]) { k += 1 } }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D }
        var k = 0
        skip(&k) { isSpace($0) || $0 == UInt8(ascii: "*") }
        if bytes[k...].starts(with: "frame #".utf8), let colon = bytes[k...].firstIndex(of: UInt8(ascii: ":")) {
            k = colon + 1
        } else if k < bytes.count, bytes[k] == UInt8(ascii: "#") {
            k += 1
            skip(&k) { $0 >= 0x30 && $0 <= 0x39 }
        }
        skip(&k, while: isSpace)
        if bytes[k...].starts(with: "0x".utf8) {
            skip(&k) { !isSpace($0) }
            skip(&k, while: isSpace)
        }
        var end = bytes.count
        while end > k, isSpace(bytes[end - 1]) { end -= 1 }
        guard k < end else {
            self = .notAFrame
            return
        }
        let from = Array(" from ".utf8)
        if end - k >= from.count, let at = stride(from: end - from.count, through: k, by: -1).first(where: { bytes[$0..<$0 + from.count].elementsEqual(from) }) {
            // gdb: the file after the last ` from `, by its last path component.
            let path = bytes[(at + from.count)..<end]
            let name = path.lastIndex(of: UInt8(ascii: "/")).map { path[($0 + 1)...] } ?? path
            self = name.isEmpty ? .unknownModule : .module(String(decoding: name, as: UTF8.self))
        } else if let tick = bytes[k..<end].firstIndex(of: UInt8(ascii: "`")), tick > k, !bytes[k..<tick].contains(0x20) {
            // lldb: the module before the backtick.
            self = .module(String(decoding: bytes[k..<tick], as: UTF8.self))
        } else {
            self = .unknownModule
        }
    }
}

/// Whose code asked for an image: the app's, or only the toolkit's (UIKit, AppKit, GNUstep).
public enum LoadOwner: Sendable, Equatable {
    /// A frame of the app's own modules called, or the backtrace cannot tell.
    case app
    /// Every frame the backtrace shows is in a module the app does not ship.
    case toolkit
    /// No backtrace was printed.
    case unknown

    /// The owner of a load whose printed backtrace is `frames` (innermost first), given the
    /// app's module names (its executables and frameworks). The innermost frame is the image API
    /// itself, so its callers decide: a frame whose module the line does not name counts as the
    /// app's, and a load is the toolkit's only when every caller frame says so. A stop report's
    /// lone frame names no caller: unknown.
    public static func of(_ frames: [String], appModules: Set<String>) -> LoadOwner {
        var sawFrame = false
        for line in frames.dropFirst() {
            switch BacktraceFrame(line) {
            case .notAFrame: continue
            case .unknownModule: return .app
            case .module(let module):
                if appModules.contains(module) { return .app }
                sawFrame = true
            }
        }
        return sawFrame ? .toolkit : .unknown
    }
}
