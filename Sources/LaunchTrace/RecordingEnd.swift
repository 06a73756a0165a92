/// How a recording by `imgtrace record` ended, as its last log line says:
/// `imgtrace-recording-end hits=192 launch-end=reached program=exit:0`.
///
/// A recording that stopped before the launch ended, or whose program died before any load,
/// must not be audited as if it were a whole launch: `analyze` warns about the first and the
/// gate fails with `no-evidence` on the second.
public struct RecordingEnd: Sendable, Equatable {
    /// Whether the launch-end function returned while recording.
    public enum LaunchEndState: String, Sendable, Equatable {
        case reached
        case notReached = "not-reached"
        /// `--no-launch-end`: every hit is launch.
        case notWatched = "not-watched"
    }

    /// How the program's recording ended.
    public enum ProgramEnd: Sendable, Equatable {
        /// It exited by itself with this status.
        case exited(Int)
        /// A signal ended it (a crash, or a kill from outside).
        case signaled(Int)
        /// `--duration` ran out; imgtrace then ended the program.
        case duration
        /// `--after-launch` seconds passed after the launch end; imgtrace then ended the program.
        case afterLaunch
        /// imgtrace was interrupted (SIGINT, SIGTERM) and ended the program.
        case interrupted
        /// `--pid`: imgtrace let go of the program, which keeps running.
        case detached
        /// A value this version does not know, kept as written.
        case other(String)

        /// As written after `program=`.
        public var text: String {
            switch self {
            case .exited(let status): return "exit:\(status)"
            case .signaled(let signal): return "signal:\(signal)"
            case .duration: return "duration"
            case .afterLaunch: return "after-launch"
            case .interrupted: return "interrupted"
            case .detached: return "detached"
            case .other(let raw): return raw
            }
        }

        init(text: String) {
            if let status = text.removingPrefix("exit:").flatMap({ Int($0) }) {
                self = .exited(status)
            } else if let signal = text.removingPrefix("signal:").flatMap({ Int($0) }) {
                self = .signaled(signal)
            } else {
                switch text {
                case "duration": self = .duration
                case "after-launch": self = .afterLaunch
                case "interrupted": self = .interrupted
                case "detached": self = .detached
                default: self = .other(text)
                }
            }
        }

        /// Whether the program ended by itself (an exit or a signal), not because recording stopped.
        public var endedByItself: Bool {
            switch self {
            case .exited, .signaled: return true
            default: return false
            }
        }

        /// In words: `exited with status 1`, `was killed by signal 11 (SIGSEGV)`.
        public var sentence: String {
            switch self {
            case .exited(let status): return "exited with status \(status)"
            case .signaled(let signal): return "was killed by signal \(signal)\(Self.signalNames[signal].map { " (\($0))" } ?? "")"
            case .duration: return "was stopped when --duration ran out"
            case .afterLaunch: return "was stopped --after-launch seconds after the launch end"
            case .interrupted: return "was stopped when recording was interrupted"
            case .detached: return "was let go (--pid) and kept running"
            case .other(let raw): return "ended (\(raw))"
            }
        }

        /// Linux's numbers for the signals that end programs.
        static let signalNames: [Int: String] = [
            1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
            11: "SIGSEGV", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM",
        ]
    }

    /// The line it was read from (0 before it is read).
    public var line: Int
    /// Hits the recorder wrote.
    public var hits: Int
    public var launchEnd: LaunchEndState
    public var program: ProgramEnd
    /// Requests the in-process agent could not record (a full ring, or more threads than rings).
    public var lost: Int
    /// Names longer than the recorder's limit (4,096 bytes for the agent), recorded cut.
    public var cutNames = 0
    /// Milliseconds from the program's start to the launch end, when both were seen.
    public var launchMilliseconds: Int?

    public init(line: Int = 0, hits: Int, launchEnd: LaunchEndState, program: ProgramEnd, lost: Int = 0) {
        self.line = line
        self.hits = hits
        self.launchEnd = launchEnd
        self.program = program
        self.lost = lost
    }

    /// The line's first word.
    public static let marker = "imgtrace-recording-end"

    /// The log line that records it.
    public var text: String {
        "\(Self.marker) hits=\(hits) launch-end=\(launchEnd.rawValue) program=\(program.text)" + (lost > 0 ? " lost=\(lost)" : "")
            + (cutNames > 0 ? " cut=\(cutNames)" : "")
            + (launchMilliseconds.map { " launch-ms=\($0)" } ?? "")
    }

    /// What a reader of the log must be told about how the recording went: requests the agent
    /// could not record, names cut, a launch end never reached.
    public var warnings: [String] {
        var out: [String] = []
        if lost > 0 {
            out.append(
                "\(lost == 1 ? "1 request was" : "\(lost) requests were") not recorded (the agent's ring was full, or more threads loaded images than it has rings): the audit is incomplete"
            )
        }
        if cutNames > 0 {
            out.append(
                "\(cutNames == 1 ? "1 name was" : "\(cutNames) names were") longer than the recorder keeps (4,096 bytes) and recorded cut: those requests are counted, their names are only a prefix"
            )
        }
        if launchEnd == .notReached, hits > 0 {
            out.append(
                "the recording ended before the launch did (the program \(program.sentence) before the launch-end function returned): the audit covers only the part of the launch it saw"
            )
        }
        return out
    }

    /// Reads the words after the marker; nil when a required one is missing or malformed.
    public init?(fields: String, line: Int) {
        var values: [String: String] = [:]
        for word in fields.split(separator: " ") {
            guard let equals = word.firstIndex(of: "=") else { continue }
            values[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        guard let hits = values["hits"].flatMap({ Int($0) }), hits >= 0, let state = values["launch-end"].flatMap(LaunchEndState.init(rawValue:)),
            let program = values["program"], !program.isEmpty
        else { return nil }
        let lost = values["lost"].flatMap { Int($0) }.map { max(0, $0) } ?? 0
        self.init(line: line, hits: hits, launchEnd: state, program: ProgramEnd(text: program), lost: lost)
        cutNames = values["cut"].flatMap { Int($0) }.map { max(0, $0) } ?? 0
        launchMilliseconds = values["launch-ms"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}

extension String {
    fileprivate func removingPrefix(_ prefix: String) -> Substring? { hasPrefix(prefix) ? dropFirst(prefix.count) : nil }
}
