import Foundation

/// Runs a debugger (lldb or gdb) in batch mode with its console captured to a file, so a test can
/// read what a capture script printed the way a user's saved log would hold it.
public enum DebuggerSession {
    /// Runs `tool` with `arguments`, stdin closed, stdout and stderr both written to `console`.
    /// `environment` is added to this process's own.
    public static func run(_ tool: String, _ arguments: [String], console: URL, environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        _ = FileManager.default.createFile(atPath: console.path, contents: nil)
        let handle = try FileHandle(forWritingTo: console)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }
}

extension DebuggerSession {
    /// lldb's commands for an Xcode breakpoint list (`Breakpoints_v2.xcbkptlist`): a symbolic
    /// breakpoint per entry, continuing after its debugger-command actions, as Xcode runs them.
    public static func lldbCommands(forXcodeList xml: String) -> String {
        var commands = ""
        for entry in xml.components(separatedBy: "symbolName = \"").dropFirst() {
            let symbol = String(entry.prefix { $0 != "\"" })
            guard let start = entry.range(of: "consoleCommand = \"")?.upperBound else { continue }
            let action = String(entry[start...].prefix { $0 != "\"" })
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
            commands += "breakpoint set -n \"\(symbol)\" -G true\nbreakpoint command add\n\(action)\nDONE\n"
        }
        return commands
    }
}
