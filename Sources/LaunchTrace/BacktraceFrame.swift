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
    /// The app's own code called the image API, or the backtrace cannot tell.
    case app
    /// Toolkit code called the image API: for itself, or (with an app frame further up) on the
    /// app's behalf, as GNUstep's `NSMenuItem` asks for its checkmark while the app builds a menu.
    case toolkit
    /// No backtrace was printed.
    case unknown

    /// Which frames decide.
    public enum Rule: Sendable {
        /// The code that called the outermost image API: its first caller frame that is not an
        /// image API itself (a funnel's hit under a public method, at -O0, shows that method).
        case immediateCaller
        /// Any frame of the app's: a nib, a SwiftUI view or a trait change names the app's own
        /// image, whatever toolkit code ran in between.
        case anyAppFrame
    }

    /// The owner of a load whose printed backtrace is `frames` (innermost first), given the
    /// app's module names (its executables and frameworks). The innermost frame is the image API
    /// itself, so its callers decide. A frame whose module the line does not name counts as the
    /// app's. A stop report's lone frame names no caller: unknown.
    public static func of(_ frames: [String], appModules: Set<String>, rule: Rule = .immediateCaller) -> LoadOwner {
        var sawFrame = false
        for line in frames.dropFirst() {
            switch BacktraceFrame(line) {
            case .notAFrame: continue
            case .unknownModule: return .app
            case .module(let module):
                if appModules.contains(module) { return .app }
                if rule == .immediateCaller, !BacktraceFrame.isImageAPI(line) { return .toolkit }
                sawFrame = true
            }
        }
        return sawFrame ? .toolkit : .unknown
    }
}

extension BacktraceFrame {
    /// Whether the frame's function is one of the image APIs (`ImageAPIs`): `` module`+[UIImage
    /// imageNamed:] `` as lldb and `record` print it, `in +[UIImage imageNamed:] ()` as gdb does.
    static func isImageAPI(_ line: String) -> Bool {
        var function = Substring(line)
        if let tick = function.firstIndex(of: "`") {
            function = function[function.index(after: tick)...]
        } else if let range = function.range(of: " in ") {
            function = function[range.upperBound...]
        } else {
            return false
        }
        // lldb's ` + 44 at file:line`, gdb's ` () from …`: the name ends at the method's `]`, or
        // a C function's first blank or parenthesis.
        if function.hasPrefix("+[") || function.hasPrefix("-["), let close = function.firstIndex(of: "]") {
            function = function[...close]
        } else if let end = function.firstIndex(where: { $0 == " " || $0 == "(" }) {
            function = function[..<end]
        }
        return ImageAPIs.index(of: String(function)) != nil
    }
}
