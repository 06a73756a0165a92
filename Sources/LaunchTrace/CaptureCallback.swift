import Foundation

/// The Python the `requests` capture style runs in the debugger (lldb's and gdb's): at each hit
/// it walks the thread's stack and prints only at the outermost image API, one line per request:
/// `[thread] (kind) api: "name"` (docs/capture.md). The API table it carries is `ImageAPIs`,
/// written out, so the script and the reader agree on the call graph. The Python itself is in
/// `Python/*.py`, compiled into the binary (`.embedInCode`) and checked by Python's own parser
/// (CapturePythonTests).
enum CaptureCallback {
    /// The shared part: the tables, what a frame's function is, and how a name is quoted.
    static func common(_ options: CaptureOptions) -> String {
        let exact = ImageAPIs.table.filter { !$0.prefix }.map { "\(literal($0.symbol)): \(literal($0.kind.rawValue))" }
        let prefixes = ImageAPIs.table.filter(\.prefix).map { "(\(literal($0.symbol)), \(literal($0.kind.rawValue)))" }
        let breaks = options.apis.filter { $0.prefixes.isEmpty }.flatMap(\.symbols) + options.symbols
        let breakPrefixes = options.apis.flatMap(\.prefixes)
        // GCC's symbols for the same methods (GNUstep on Linux), turned back into the table's names.
        let gccNames = ImageAPIs.table.filter { !$0.prefix }.compactMap { api in
            ImageAPIs.gccSymbol(api.symbol).map { "\(literal($0)): \(literal(api.symbol))" }
        }
        let gccPrefixes = ImageAPIs.table.filter(\.prefix).compactMap { api in
            ImageAPIs.gccSymbol(api.symbol).map { "(\(literal($0)), \(literal(api.symbol)))" }
        }
        return """
            import datetime
            import sys
            IMGTRACE_KINDS = {\(exact.joined(separator: ", "))}
            IMGTRACE_KIND_PREFIXES = (\(prefixes.map { $0 + ", " }.joined()))
            IMGTRACE_BREAKS = set([\(breaks.map(literal).joined(separator: ", "))])
            IMGTRACE_BREAK_PREFIXES = (\(breakPrefixes.map { literal($0) + ", " }.joined()))
            IMGTRACE_C_STRINGS = {\(options.symbols.map { "\(literal($0)): \(literal(String(options.nameRegister(of: $0).dropFirst())))" }.joined(separator: ", "))}
            IMGTRACE_REGISTER = \(literal(String(options.arch.register.dropFirst())))
            IMGTRACE_TIMESTAMPS = \(options.timestamps ? "True" : "False")
            IMGTRACE_BACKTRACE = \(options.backtraceFrames)
            IMGTRACE_GCC_NAMES = {\(gccNames.joined(separator: ", "))}
            IMGTRACE_GCC_PREFIXES = (\(gccPrefixes.map { $0 + ", " }.joined()))
            IMGTRACE_LAUNCH_END = \(options.launchEndSymbol.map(literal) ?? "None")

            """ + commonFunctions
    }

    private static let commonFunctions = pythonSource(PackageResources.capture_common_py)

    /// lldb: `imgtrace_request` is every breakpoint's callback (`breakpoint command add -F`).
    ///
    /// When several threads stop at image breakpoints at once, lldb runs the commands of the
    /// first and, once an expression has run, skips the others' with `warning: hit breakpoint
    /// while running function, skipping commands`. So the first callback reports every thread
    /// stopped at one of them, evaluates with the other threads held (nothing else runs, nothing
    /// else stops), and says first how many of the warnings to come it covers (`imgtrace-covered N`).
    static func lldb(_ options: CaptureOptions) -> String { common(options) + runtimeMethods + lldbRuntimeMethods + lldbFunctions }

    private static let lldbFunctions = pythonSource(PackageResources.capture_lldb_py)

    /// gdb: `imgtrace_request()` runs from every breakpoint's `commands`. A GNUstep string is read
    /// from memory; any other object is asked for its text, the only case where code runs in the
    /// app, with the scheduler locked to the stopped thread so no other thread stops meanwhile
    /// (gdb 13's Objective-C expressions crashed gdb itself on a two-thread GNUstep program).
    static func gdb(_ options: CaptureOptions) -> String { common(options) + runtimeMethods + gdbRuntimeMethods + gdbFunctions }

    /// lldb's launch end, at the launch-end function's return (its first): the breakpoint at its
    /// entry reads the return address from the caller's frame (a tail call's frame is gone, so
    /// the caller's caller: where control returns) and puts a one-shot breakpoint there, on that
    /// thread, that prints the marker. Every capture ends the launch at the same moment.
    static let lldbLaunchEnd = withLaunchMarker(PackageResources.launch_end_lldb_py)

    /// gdb's launch end, at the launch-end function's first return, as lldb's.
    static let gdbLaunchEnd = withLaunchMarker(PackageResources.launch_end_gdb_py)

    private static let gdbFunctions = pythonSource(PackageResources.capture_gdb_py)

    /// An embedded `.py` file's text, without the line break that ends the file (the parts are
    /// joined as they were written in one script).
    static func pythonSource(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// A launch-end part, the marker the reader looks for written where the file holds its place.
    private static func withLaunchMarker(_ bytes: [UInt8]) -> String {
        pythonSource(bytes).replacingOccurrences(of: "@IMGTRACE_LAUNCH_MARKER@", with: LaunchMarker.text)
    }

    /// A Python string literal in single quotes. The symbols it holds are checked
    /// (`CaptureScript.unsafeSymbol`) or the table's own.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
