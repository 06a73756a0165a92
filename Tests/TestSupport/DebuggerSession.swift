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
