import ArgumentParser
import Foundation
import ImgtraceSupport

/// Where the in-process agent library is: beside the imgtrace executable, or IMGTRACE_AGENT_PATH.
enum AgentLibrary {
    #if os(macOS)
        static let fileName = "libImgtraceAgent.dylib"
    #else
        static let fileName = "libImgtraceAgent.so"
    #endif

    /// The library's path; an `InputError` when it is not there.
    static func path() throws -> String {
        if let explicit = ProcessInfo.processInfo.environment["IMGTRACE_AGENT_PATH"], !explicit.isEmpty {
            guard FileManager.default.isReadableFile(atPath: explicit) else {
                throw InputError(path: explicit, reason: "IMGTRACE_AGENT_PATH names no readable file")
            }
            return explicit
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let candidate =
            Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(fileName).path
            ?? executable.deletingLastPathComponent().appendingPathComponent(fileName).path
        guard FileManager.default.isReadableFile(atPath: candidate) else {
            throw InputError(path: candidate, reason: "the agent library is not built: run `swift build --product ImgtraceAgent` (or set IMGTRACE_AGENT_PATH)")
        }
        return candidate
    }
}

/// `imgtrace agent-path`: prints where the agent library is, for DYLD_INSERT_LIBRARIES or a scheme.
struct AgentPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent-path",
        abstract: "Print the path of the in-process agent library (libImgtraceAgent), to preload it yourself.",
        discussion: """
            On Linux `imgtrace record --agent` preloads it. On macOS and the iOS Simulator, set \
            DYLD_INSERT_LIBRARIES to this path (or SIMCTL_CHILD_DYLD_INSERT_LIBRARIES with `xcrun simctl launch`), \
            with IMGTRACE_AGENT_FD and IMGTRACE_AGENT_APIS as docs/agent.md describes.
            """
    )

    func run() throws {
        print(try AgentLibrary.path())
    }
}
