import Foundation

/// C programs the tests build at test time (programs to trace, hostile libraries): the source
/// is written beside its binary and compiled by the system's `cc`.
public enum CCompiler {
    /// There is no compiler, or it refused the source: the test that needs it is skipped.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Writes `source` to `folder/NAME.c` and compiles it with `flags` to `folder/NAME`.
    public static func compile(_ source: String, to name: String, in folder: URL, flags: [String]) throws -> URL {
        let file = folder.appendingPathComponent(name + ".c"), output = folder.appendingPathComponent(name)
        try source.write(to: file, atomically: true, encoding: .utf8)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc"] + flags + ["-o", output.path, file.path]
        do { try cc.run() } catch { throw Unavailable(description: "no C compiler: \(error)") }
        cc.waitUntilExit()
        guard cc.terminationStatus == 0 else { throw Unavailable(description: "cc failed on \(name).c") }
        return output
    }
}
