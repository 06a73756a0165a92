/// What a breakpoint hit yielded.
public enum LoadStatus: String, Sendable, CaseIterable, Comparable {
    /// A non-empty name was printed.
    case ok
    /// The argument was nil / NULL.
    case `nil`
    /// The argument was an empty string.
    case empty
    /// The action failed (wrong register, expression error, no memory).
    case error
    /// Only a number or pointer was printed, not the string it points to.
    case addressOnly
    /// The debugger skipped the action for this hit (recursion guard, other thread stopped).
    case skipped

    /// Its place in `allCases`, for counting in an array and for a one-byte code.
    @inline(__always) package var ordinal: Int {
        switch self {
        case .ok: return 0
        case .nil: return 1
        case .empty: return 2
        case .error: return 3
        case .addressOnly: return 4
        case .skipped: return 5
        }
    }

    public static func < (lhs: LoadStatus, rhs: LoadStatus) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Whether a load happened before or after the launch-end marker.
public enum LaunchPhase: String, Sendable {
    case launch
    case afterLaunch
}

/// One hit of an image-loading breakpoint, as recovered from a debugger log.
public struct ImageLoad: Sendable, Equatable {
    /// 1-based position among all hits of the log.
    public var seq: Int
    /// 1-based line of the original file where the value (or the failure) was printed.
    public var line: Int
    /// The name exactly as the app passed it, C-unescaped; `nil` unless `status` is `ok`.
    public var name: String?
    /// What the hit yielded.
    public var status: LoadStatus
    /// Why a hit has no name (the debugger's error, the skip reason); `nil` for `ok`.
    public var detail: String?
    /// The API the breakpoint sits on, e.g. `+[UIImage imageNamed:]`, when the log tells.
    public var api: String?
    /// The breakpoint id, e.g. `1.1`, or `1` when only the breakpoint is known.
    public var breakpoint: String?
    /// Thread name (or `#N` / LWP) when the log tells.
    public var thread: String?
    /// Timestamp printed by the action, or of the nearest app log line before the hit.
    public var timestamp: LogTimestamp?
    /// Backtrace frames printed for this hit, innermost first.
    public var backtrace: [String]
    /// `launch` unless the hit comes after the launch-end marker.
    public var phase: LaunchPhase
    /// Equal for equal names within one read of one log (the reader interns names), so a
    /// consumer can count per name without hashing the string; nil when there is no name.
    public var nameID: Int?
    /// The kind of request, from its outermost image API; nil when the log does not say which
    /// API a hit came from.
    public var kind: LoadKind?
    /// Breakpoint hits this one request made: its outermost API and the image APIs it called
    /// (`+imageNamed:` → `+imageNamed:inBundle:withConfiguration:` → …), merged into one load.
    public var hits = 1
    /// Whether its name is a bare line of a console without echoes: one the app may have printed
    /// itself (`NameShape`).
    public var fromBareLine = false
    /// Read from the system's own warning that the image is missing (SwiftUI's `No image named`,
    /// UIKit's `Could not load the … image referenced from a nib`, CoreUI's `Invalid asset name`).
    public var fromSystemWarning = false
    /// How long the request's outermost API ran, from its entry to its return (nested image
    /// calls included), in microseconds; nil when the capture does not time calls (debuggers and
    /// ptrace stop the program, which would distort every duration: only `record --agent` times).
    public var microseconds: Int?
    /// Of `microseconds`, the outermost API's own time, outside the image APIs it called; nil when
    /// it called none (its own time is all of it) or the capture does not time.
    public var ownMicroseconds: Int?

    public init(
        seq: Int, line: Int, name: String?, status: LoadStatus, detail: String? = nil,
        api: String? = nil, breakpoint: String? = nil, thread: String? = nil,
        timestamp: LogTimestamp? = nil, backtrace: [String] = [], phase: LaunchPhase = .launch, nameID: Int? = nil
    ) {
        self.seq = seq
        self.line = line
        self.name = name
        self.status = status
        self.detail = detail
        self.api = api
        self.breakpoint = breakpoint
        self.thread = thread
        self.timestamp = timestamp
        self.backtrace = backtrace
        self.phase = phase
        self.nameID = nameID
    }
}

extension ImageLoad {
    /// Whether the hit ran on the program's main thread, as its capture names threads
    /// (`ThreadLabel`): unknown threads count as main, a log that names none is one thread's.
    public var isOnMainThread: Bool { Self.isMainThread(thread) }

    /// Whether a thread label names the main thread (`ThreadLabel.isMain`).
    public static func isMainThread(_ thread: String?) -> Bool { ThreadLabel.isMain(thread) }
}
