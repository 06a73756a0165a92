import Foundation

/// Runs the built `imgtrace` executable, for end-to-end tests.
public enum BinaryRunner {
    public struct Result {
        public var status: Int32
        public var stdout: Data
        public var stderr: String
        public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        /// The run was stopped for taking longer than its `timeout`.
        public var timedOut = false
    }

    /// The executable beside the test bundle (SwiftPM puts both in one products folder).
    public static let executable: URL = {
        if let env = ProcessInfo.processInfo.environment["IMGTRACE_BIN"] { return URL(fileURLWithPath: env) }
        var candidates: [URL] = []
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("imgtrace"))
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("imgtrace"))
        candidates.append(Corpus.packageRoot.appendingPathComponent(".build/debug/imgtrace"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    /// Runs `imgtrace` (or `program`, a test's own) with `arguments` in `directory`, with `NO_COLOR`
    /// set and no terminal.
    /// A run longer than `timeout` seconds is stopped and marked `timedOut` (a hang is a failure,
    /// not a stuck test suite).
    public static func run(
        _ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:],
        timeout: TimeInterval = 300, unprivileged: Bool = false, program: URL? = nil
    ) throws -> Result {
        let process = Process()
        let executable = program ?? Self.executable
        process.executableURL = executable
        process.arguments = arguments
        if unprivileged, getuid() == 0 {
            guard FileManager.default.isExecutableFile(atPath: setpriv) else { throw Unavailable(description: "running as root without setpriv") }
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", executable.path] + arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        process.environment = env
        // Files rather than pipes: a large output can never block the child.
        let scratch = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                process.waitUntilExit()
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self), timedOut: timedOut)
    }

    /// Root reads every file: `unprivileged` runs as `nobody` through util-linux's `setpriv`, as a
    /// user would whose input is not theirs to read. The files it reads must be reachable by all.
    static let setpriv = "/usr/bin/setpriv"

    /// A run that cannot be made here (no `setpriv` while running as root).
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// A fresh temporary folder.
    /// The in-process agent library beside the built imgtrace; nil when it was not built.
    public static var agentLibrary: URL? {
        let library = executable.deletingLastPathComponent().appendingPathComponent("libImgtraceAgent.so")
        return FileManager.default.fileExists(atPath: library.path) ? library : nil
    }

    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
