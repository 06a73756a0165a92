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
                "imgtrace agent-path --env",
                "imgtrace agent-path --env ~/launches/first.agent",
            ])
    )

    @Flag(
        help: ArgumentHelp(
            "Print the environment that makes the agent record into a file by itself (for a scheme or simctl), one VARIABLE=value a line, quoted so that a POSIX shell can source it (in an Xcode scheme, type the value without the quotes). The file is FILE, or launch.agent in a new folder of your own (under $XDG_RUNTIME_DIR, else the temporary folder), named on a first comment line. The agent records only into a file it creates."
        ))
    var env = false

    @Argument(help: "With --env: the file the agent creates (it must not exist yet).", completion: .file())
    var file: String?

    func validate() throws {
        if file != nil, !env { throw ValidationError("FILE is the recording's file: give it after --env") }
    }

    func run() throws {
        let path = try AgentLibrary.path()
        guard env else {
            print(path)
            return
        }
        let recording = try file ?? Self.freshRecordingFile()
        if file == nil { print("# after the app quits: imgtrace agent-log \(Self.shellWord(recording))") }
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
        print("\(preload)=\(Self.shellWord(path))\nIMGTRACE_AGENT_FILE=\(Self.shellWord(recording))\nIMGTRACE_AGENT_APIS=\(Self.shellWord(apis))")
    }

    /// `launch.agent` in a folder made now, readable by this user alone: under $XDG_RUNTIME_DIR
    /// (the user's own, when it is a folder this user owns), else the temporary folder. Never a
    /// fixed name in a shared folder, where another user could have put a file first.
    static func freshRecordingFile() throws -> String {
        let environment = ProcessInfo.processInfo.environment
        var base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            var info = stat()
            if stat(runtime, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR, info.st_uid == getuid() { base = runtime }
        }
        var template = Array((base + "/imgtrace-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw InputError(path: base, reason: "cannot make a folder for the recording: \(String(cString: strerror(errno)))")
        }
        return String(cString: made) + "/launch.agent"
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
            "For an app started without imgtrace beside it (DYLD_INSERT_LIBRARIES from an Xcode scheme, or SIMCTL_CHILD_DYLD_INSERT_LIBRARIES with `xcrun simctl launch`) with the variables `imgtrace agent-path --env` prints (its first line names the file). Run it once the app has quit. A file another user owns is read only with --trust-owner.",
            examples: [
                "imgtrace agent-log \"$IMGTRACE_AGENT_FILE\" --output launch.log",
                "imgtrace agent-log first.agent | imgtrace analyze - --bundle App.app",
            ])
    )

    @Argument(help: "The file IMGTRACE_AGENT_FILE named.", completion: .file())
    var file: String

    @Option(help: "The log file to write (default: standard output).", completion: .file())
    var output: String?

    @Flag(help: "Read a file another user owns (refused by default: anyone can leave a file in a shared folder).")
    var trustOwner = false

    func run() throws {
        #if os(Linux)
            try ReportFile.write(to: output, for: .terminal) { sink in
                let end = try AgentRecorder.log(
                    fromFile: file, trustOwner: trustOwner, warning: { PlatformIO.writeStandardError("imgtrace: warning: " + $0 + "\n") }
                ) { line in sink.write(line + "\n") }
                PlatformIO.writeStandardError("imgtrace: " + RecordCommand.summary(end, duration: nil) + "\n")
            }
        #else
            throw InputError(path: file, reason: "reading an agent's file is implemented on Linux only in this build")
        #endif
    }
}
