import ArgumentParser
import Foundation
import ImgtraceSupport
import LaunchTrace
import NativeTrace

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
        discussion: CommandHelp.discussion(
            "On Linux `imgtrace record --agent` preloads it. On macOS and the iOS Simulator, set DYLD_INSERT_LIBRARIES to this path (SIMCTL_CHILD_DYLD_INSERT_LIBRARIES with `xcrun simctl launch`), with the variables --env prints; docs/agent.md has the steps.",
            examples: [
                "imgtrace agent-path",
                "imgtrace agent-path --env /tmp/launch.agent",
            ])
    )

    @Option(
        help: ArgumentHelp(
            "Print the environment that makes the agent record into FILE by itself (for a scheme or simctl), one VARIABLE=value a line, quoted so that a POSIX shell can source it (in an Xcode scheme, type the value without the quotes).",
            valueName: "file"), completion: .file())
    var env: String?

    func run() throws {
        let path = try AgentLibrary.path()
        guard let env else {
            print(path)
            return
        }
        #if os(macOS)
            let preload = "DYLD_INSERT_LIBRARIES"
        #else
            let preload = "LD_PRELOAD"
        #endif
        let targets = CaptureAPI.agentTargets
        let entries: [AgentAPIList.Entry] =
            targets.names.map { .method($0) } + targets.contexts.map { .context($0) } + CaptureAPI.agentDecoders.map { .decode($0) }
            + [.launchEnd(RecordCommand.defaultLaunchEnd)]
        // `;` ends each target: an environment variable in an Xcode scheme is one line.
        let apis = AgentAPIList(entries).text(separator: ";")
        print("\(preload)=\(Self.shellWord(path))\nIMGTRACE_AGENT_FILE=\(Self.shellWord(env))\nIMGTRACE_AGENT_APIS=\(Self.shellWord(apis))")
    }

    /// `text` as one word of a POSIX shell: as it is when every character is inert, else in single
    /// quotes (a quote inside written `'\''`).
    static func shellWord(_ text: String) -> String {
        let inert = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-")
        if !text.isEmpty, text.allSatisfy({ inert.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// `imgtrace agent-log FILE`: the log of a launch the agent recorded into a file by itself.
struct AgentLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agent-log",
        abstract: "Turn the file an agent wrote by itself (IMGTRACE_AGENT_FILE) into a launch log.",
        discussion: CommandHelp.discussion(
            "For an app started without imgtrace beside it (DYLD_INSERT_LIBRARIES from an Xcode scheme, or SIMCTL_CHILD_DYLD_INSERT_LIBRARIES with `xcrun simctl launch`) with the variables `imgtrace agent-path --env FILE` prints. Run it once the app has quit.",
            examples: [
                "imgtrace agent-log /tmp/launch.agent --output launch.log",
                "imgtrace agent-log /tmp/launch.agent | imgtrace analyze - --bundle App.app",
            ])
    )

    @Argument(help: "The file IMGTRACE_AGENT_FILE named.", completion: .file())
    var file: String

    @Option(help: "The log file to write (default: standard output).", completion: .file())
    var output: String?

    func run() throws {
        #if os(Linux)
            try ReportFile.write(to: output, for: .terminal) { sink in
                let end = try AgentRecorder.log(fromFile: file) { line in sink.write(line + "\n") }
                PlatformIO.writeStandardError("imgtrace: " + RecordCommand.summary(end, duration: nil) + "\n")
            }
        #else
            throw InputError(path: file, reason: "reading an agent's file is implemented on Linux only in this build")
        #endif
    }
}
