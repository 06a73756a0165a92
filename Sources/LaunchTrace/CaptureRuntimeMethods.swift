/// Breakpoints on Objective-C methods that have no symbol. A stripped library (Debian's
/// libgnustep-gui) keeps no name for its methods, so a breakpoint by name stays pending and
/// the capture logs nothing. At `main` every class of the linked libraries is registered:
/// the Objective-C runtime gives each method's implementation, and a breakpoint there runs
/// the same callback, its frame named back by address. Only a method no symbol names is
/// looked up (on Apple platforms none is), so a symbolled library sees no call at all.
extension CaptureCallback {
    /// Shared by both debuggers: which methods to look up, and the expressions that do it.
    static let runtimeMethods = pythonSource(PackageResources.runtime_methods_py)

    /// lldb: `imgtrace_find_methods(frame)` from a one-shot breakpoint at `main`.
    static let lldbRuntimeMethods = pythonSource(PackageResources.runtime_methods_lldb_py)

    /// gdb: `imgtrace_find_methods()` from a temporary breakpoint at `main`.
    static let gdbRuntimeMethods = pythonSource(PackageResources.runtime_methods_gdb_py)
}
