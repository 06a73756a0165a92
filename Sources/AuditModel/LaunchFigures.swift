import LaunchTrace

/// Every load of one requested name (or of a nil or empty name), across all logs.
public struct NameUse: Sendable {
    // An audit keeps one per distinct name (a million in a large log): the stored fields are
    // ordered and sized so the whole is 144 bytes, not 232. Counts are kept in 32 bits (a log
    // of 2^31 hits is beyond any reader's input cap), the time is boxed (most names are untimed).

    /// The name as the app passed it; nil for nil-name hits.
    package var name: String?
    package var resolution: Resolution
    /// APIs it was loaded through, sorted.
    package var apis: [String]
    /// The first load (launch window first, then after launch).
    package var firstLine: LogLine
    /// Launch-window lines after the first. Most names load once: they hold no array at all.
    private var laterLaunchLines: [LogLine] = []
    /// Its main-thread time (lookups and decodes) in each timed launch that asked for it, in log order: the spread
    /// between launches of one build (`record --agent --runs N`).
    package var mainThreadMicrosecondsPerLaunch: [Int] = []
    private var timeBox: TimeBox?
    private var storedLaunchLoads: Int32 = 0
    /// Of `launchLoads`, those a nib or storyboard made (`UIImageNibPlaceholder`).
    package var nibLaunchLoads: Int32 = 0
    /// Of `launchLoads`, those the toolkit's own code made: a backtrace with no frame of the
    /// app's modules, or, without a backtrace, a name in `toolkit.names`.
    package var toolkitLaunchLoads: Int32 = 0
    private var storedAfterLaunchLoads: Int32 = 0
    private var storedMaxLaunchLoadsPerLog: Int32 = 0
    /// `ok`, `nil` or `empty`.
    package var status: LoadStatus
    package var kind: RequestKind
    /// Whether its first launch request was the process's first image request, which carries
    /// the toolkit's one-time set-up (its image caches, theme and cursors): its time is no
    /// measure of the image itself.
    package var includesFirstRequest = false

    private final class TimeBox: @unchecked Sendable {
        var time: ImageTime
        init(_ time: ImageTime) { self.time = time }
    }

    package var launchLoads: Int {
        get { Int(storedLaunchLoads) }
        set { storedLaunchLoads = Int32(clamping: newValue) }
    }
    package var afterLaunchLoads: Int {
        get { Int(storedAfterLaunchLoads) }
        set { storedAfterLaunchLoads = Int32(clamping: newValue) }
    }
    /// The most launch loads in any one log: repeats are judged per launch.
    package var maxLaunchLoadsPerLog: Int {
        get { Int(storedMaxLaunchLoadsPerLog) }
        set { storedMaxLaunchLoadsPerLog = Int32(clamping: newValue) }
    }

    /// How long its launch requests ran, when the capture timed them.
    package var launchTime: ImageTime {
        get { timeBox?.time ?? ImageTime() }
        set {
            // The box is this use's alone once written: a copy of the use never sees the change.
            // No binding of the box first: a second reference would make it look shared every time.
            if timeBox != nil, isKnownUniquelyReferenced(&timeBox!) { timeBox!.time = newValue } else { timeBox = TimeBox(newValue) }
        }
    }

    /// The median of `mainThreadMicrosecondsPerLaunch` (`LaunchMedian`), or the whole
    /// main-thread time when no launch was timed apart.
    package var typicalMainThreadMicroseconds: Int {
        LaunchMedian.of(mainThreadMicrosecondsPerLaunch) ?? launchTime.mainThreadMicroseconds
    }

    /// Launch-window lines, at most `Finding.maxLines`.
    package var launchLines: [LogLine] {
        get { launchLoads == 0 ? [] : [firstLine] + laterLaunchLines }
        set {
            if let first = newValue.first { firstLine = first }
            laterLaunchLines = Array(newValue.dropFirst())
        }
    }

    /// Counts a launch load at `line`, the first of them becoming `firstLine`.
    package mutating func addLaunchLoad(at line: LogLine) {
        if launchLoads == 0 {
            firstLine = line
        } else if laterLaunchLines.count < Finding.maxLines - 1 {
            laterLaunchLines.append(line)
        }
        launchLoads += 1
    }

    package init(
        name: String?, status: LoadStatus, kind: RequestKind, resolution: Resolution, apis: [String] = [],
        launchLoads: Int = 0, afterLaunchLoads: Int = 0, maxLaunchLoadsPerLog: Int = 0, firstLine: LogLine, launchLines: [LogLine] = []
    ) {
        self.name = name
        self.status = status
        self.kind = kind
        self.resolution = resolution
        self.apis = apis
        self.firstLine = firstLine
        self.launchLoads = launchLoads
        self.afterLaunchLoads = afterLaunchLoads
        self.maxLaunchLoadsPerLog = maxLaunchLoadsPerLog
        if !launchLines.isEmpty { self.launchLines = launchLines }
    }

    /// Whether only the toolkit's own code asked for this name at launch: its missing or
    /// repeated lookups are the toolkit's, never the app's fault.
    package var isToolkits: Bool { launchLoads > 0 && Int(toolkitLaunchLoads) == launchLoads }

    /// A finding's identity for this use: the name shown, and for CoreUI lookups their kind, so
    /// that a name asked for by code and by SwiftUI or a trait change gives two identities.
    package var findingIdentity: String {
        switch kind {
        case .catalog: return displayName + " (SwiftUI)"
        case .trait: return displayName + " (trait change)"
        default: return displayName
        }
    }

    /// How the name is shown: the name, or `(nil)` / `(empty)`.
    package var displayName: String {
        switch status {
        case .nil: return "(nil)"
        case .empty: return "(empty)"
        default: return name ?? "(nil)"
        }
    }
}

/// Hits that printed no readable name, by status.
public struct UnreadableHits: Sendable, Equatable {
    package var status: LoadStatus
    package var count: Int
    package var lines: [LogLine]

    package init(status: LoadStatus, count: Int, lines: [LogLine]) {
        self.status = status
        self.count = count
        self.lines = lines
    }
}

/// Figures for one phase (launch or after launch) of one log or of all logs together.
public struct PhaseMetrics: Sendable, Equatable {
    /// Every hit, readable or not.
    public package(set) var loads = 0
    /// Distinct names asked for (nil and empty count as one name each).
    public package(set) var names = 0
    /// Distinct images resolved to.
    public package(set) var images = 0
    /// Sum over those images of decoded bytes.
    public package(set) var decodedBytes = 0
    /// Sum over those images of bytes on disk.
    public package(set) var bytesOnDisk = 0
    /// Distinct names that resolved to nothing (paths outside the bundle excluded).
    public package(set) var missing = 0
    /// Loads beyond the first of each name.
    public package(set) var repeated = 0
    /// Hits that printed no readable name.
    public package(set) var unreadable = 0
    /// The largest decoded size of one image.
    public package(set) var largestImageDecodedBytes = 0
    /// Of `images` and `decodedBytes`, the part in `--system-images` folders: the toolkit's, not the app's.
    public package(set) var systemImages = 0
    public package(set) var systemDecodedBytes = 0
    /// Distinct SF Symbols asked for (system artwork: in `loads` and `names`, never missing).
    package var symbols = 0
    /// `NSDataAsset` loads: data, not images, so in no other figure.
    public package(set) var dataLoads = 0
    /// How long the image requests ran (launch phase only; zero timed loads for captures that do not time).
    package var time = ImageTime()
    /// Main-thread image time: the main thread's image lookups **and** the decodes of their
    /// images at first use, what holds the first frame back — the one figure every format,
    /// budget (`maxMainThreadImageMilliseconds`) and baseline gives as image time on the main
    /// thread. Nil when the launch was not timed.
    public package(set) var typicalMainThreadImageMicroseconds: Int?
    /// How long the launch itself ran, from the program's start to the launch end, when the
    /// recording measured it (`record`); nil otherwise.
    public package(set) var lengthMilliseconds: Int?

    package init() {}
}

/// Launch and after-launch figures: of one launch, or of several launches of one build, where
/// each figure is the median launch's (`LaunchMedian`) with its range over the launches.
public struct AuditMetrics: Sendable, Equatable {
    /// The launch window's figures over the launches.
    public package(set) var launchSpread = PhaseSpread(single: PhaseMetrics())
    /// After the launch end, over the launches whose end was found; nil when none was.
    public package(set) var afterLaunchSpread: PhaseSpread?

    /// The median launch's figures (one launch's own, for one launch).
    public var launch: PhaseMetrics {
        get { launchSpread.median }
        set { launchSpread = PhaseSpread(single: newValue) }
    }
    /// After the launch end: the median launch's figures; present when a launch-end marker was found.
    package var afterLaunch: PhaseMetrics? {
        get { afterLaunchSpread?.median }
        set { afterLaunchSpread = newValue.map(PhaseSpread.init(single:)) }
    }
    /// How many launches the figures are taken over.
    package var launches: Int { launchSpread.launches }

    package init() {}
}

/// Bare lines of a console without echoes that were not taken as image names: the app's own
/// output by their shape (`NameShape.output`, and sentences the reader set aside), and lines
/// that resolve to nothing and could be either (`NameShape.unsure`), each said with its line.
package struct SetAsideLines: Sendable, Equatable {
    /// Lines that read as the app's output, and the first of them.
    package var output = 0
    package var firstOutputLine: Int?
    /// The first few of them, as printed: what the report shows.
    package var examples: [String] = []
    /// A bare line and where it is.
    package struct Line: Sendable, Equatable {
        package var line: Int
        package var text: String
    }
    /// Lines that may be a missing image's name or the app's output: not judged.
    package var unsure: [Line] = []
    /// How many unsure lines there were in all (`unsure` keeps the first few).
    package var unsureCount = 0

    package init() {}

    /// The most lines of each kind a report quotes.
    package static let quoted = 3

    package mutating func addOutput(_ text: String, line: Int) {
        output += 1
        if firstOutputLine.map({ line < $0 }) ?? true { firstOutputLine = line }
        if examples.count < Self.quoted { examples.append(text) }
    }

    package mutating func addUnsure(_ text: String, line: Int) {
        unsureCount += 1
        if unsure.count < Self.quoted { unsure.append(Line(line: line, text: text)) }
    }
}

/// One analysed log.
public struct LogReport: Sendable {
    /// The path as given.
    public package(set) var path: String
    package var summary: TraceSummary
    public package(set) var metrics: AuditMetrics
    /// Bare lines not taken as names (`AuditConfig.namesOnly` takes them all).
    package var setAside = SetAsideLines()

    package init(path: String, summary: TraceSummary, metrics: AuditMetrics) {
        self.path = path
        self.summary = summary
        self.metrics = metrics
    }
}

/// Something an input made imgtrace notice that is not a finding: a file in the bundle it could
/// not read, a link it did not follow, a log line it could not make sense of. Every report shows them.
public struct AuditWarning: Sendable, Equatable {
    /// Which input it is about.
    package var origin: WarningOrigin
    /// The log line, for log warnings that have one.
    public package(set) var line: Int?
    public package(set) var message: String

    package init(origin: WarningOrigin, line: Int? = nil, message: String) {
        self.origin = origin
        self.line = line
        self.message = message
    }

    /// `bundle: Info.plist: …`, `launch.log: line 12: …`.
    public var text: String { "\(origin.label): " + (line.map { "line \($0): " } ?? "") + message }

    /// What reading the bundles noticed, each a warning about the bundle.
    package static func ofBundle(_ messages: [String]) -> [AuditWarning] { messages.map { AuditWarning(origin: .bundle, message: $0) } }

    /// What reading log `index` noticed, each at its line.
    package static func ofLog(_ log: LogReport, index: Int) -> [AuditWarning] {
        log.summary.warnings.map { AuditWarning(origin: .log(index: index, path: log.path), line: $0.line, message: $0.message) }
    }
}

/// The input a warning is about.
package enum WarningOrigin: Sendable, Equatable {
    /// The app's inputs: `--bundle` and `--system-images`.
    case bundle
    /// Log `index` (0-based, in the order given), at `path` as given.
    case log(index: Int, path: String)
    /// The `--source-root` tree, at `path` as given.
    case sourceRoot(path: String)
    /// The `--baseline` file, at `path` as given.
    case baseline(path: String)

    /// How reports name it: `bundle`, else the path as given (the JSON contract's `source`).
    package var label: String {
        switch self {
        case .bundle: return "bundle"
        case .log(_, let path), .sourceRoot(let path), .baseline(let path): return path
        }
    }

    /// The file a code-scanning report attaches it to: `bundlePath` for the bundle, else its own path.
    package func file(bundlePath: String) -> String {
        if case .bundle = self { return bundlePath }
        return label
    }
}
