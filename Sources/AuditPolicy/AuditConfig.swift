import AuditModel
import ImgtraceSupport
import LaunchTrace

/// Everything a team can tune: read from `.imgtrace.yml`, overridden by flags.
public struct AuditConfig: Sendable, Equatable {
    /// A device profile id or model name (`imgtrace devices`).
    public var device: String?
    /// A regular expression; the first matching log line ends the launch window.
    public var launchEnd: LaunchEndPattern?
    /// The app's source tree: findings point at the catalog entry, image file or interface
    /// document there (`--source-root`; in the config, relative to the config file).
    public var sourceRoot: String?
    /// The lowest severity that fails the run (`never` = nil).
    public var failOn: Severity? = .error
    /// Whether every bare line of a console without echoes is a name (`--names-only`), or one
    /// that does not resolve must look like one (`NameShape`) to be a missing image.
    public var namesOnly = false
    public var thresholds = Thresholds()
    public var budgets = Budgets()
    /// The name of the file these settings came from, for fixes that point at it; nil for the defaults.
    public var configFile: String?
    /// What a capture must show to be judged (`no-evidence`'s setting).
    public var evidence = Evidence()
    public var ignore = Ignores()
    /// Severity per rule id, replacing the rule's default.
    public var severities: [String: Severity] = [:]
    /// How much a metric may grow over the baseline before it fails the run.
    public var baselineTolerance = BaselineTolerance()
    /// How many recent builds of a branch the history gate takes the median of (`history.window`).
    public var historyWindow = 10
    /// What tells the toolkit's loads from the app's when a log has no backtraces.
    public var toolkit = Toolkit()

    public init() {}

    /// The team's say over a finding, the same in every command: its rule's severity as the
    /// config sets it, a note whatever the rule when the toolkit's own code asked (it never
    /// fails the app), and whether the ignores keep it out of the report (false: drop it).
    public func judge(_ finding: inout Finding) -> Bool {
        if let severity = severities[finding.rule] { finding.severity = severity }
        if !finding.gates { finding.severity = .note }
        return !ignore.covers(finding)
    }

    // The defaults are declared here once; each rule's `RuleSetting` names its key and reads its
    // default from here, so `imgtrace rules --verbose`, the README and the reader agree.

    /// The limits rules measure against.
    public struct Thresholds: Sendable, Equatable {
        /// `repeated-load` becomes a warning at this many lookups of one name in one launch.
        public var repeatedLoadWarning: Int = 10
        /// `oversized-pixels` allows an image this fraction larger than the screen (0.1 = 10%).
        public var oversizedTolerance: Double = 0
        /// `oversized-memory` fires above this many decoded bytes; nil = one full screen of the device.
        public var oversizedMemoryBytes: Int?
        /// `large-file` fires above this many bytes on disk.
        public var largeFileBytes: Int = 512 * 1024
        /// `slow-image` fires when one request holds the main thread longer than this.
        public var slowImageMilliseconds: Int = 16

        public init() {}
    }

    /// Limits on the launch as a whole; exceeding one fails the run.
    public struct Budgets: Sendable, Equatable {
        public var maxLaunchLoads: Int?
        public var maxLaunchImages: Int?
        public var maxLaunchDecodedBytes: Int?
        public var maxLaunchBytesOnDisk: Int?
        public var maxImageDecodedBytes: Int?
        public var maxMissingImages: Int?
        /// The most milliseconds the main thread may spend in image lookups and decodes at launch.
        public var maxMainThreadImageMilliseconds: Int?

        public init() {}
    }

    /// What a capture must show before the audit judges it (`no-evidence`). Its one key is
    /// written `budgets.minLaunchLoads` in the config file, where teams set it beside the budgets.
    public struct Evidence: Sendable, Equatable {
        /// The fewest readable loads a real launch has; fewer means the capture saw too little.
        public var minLaunchLoads: Int?

        public init() {}
    }

    /// What the audit does not report.
    public struct Ignores: Sendable, Equatable {
        /// Exact image names.
        public var names: Set<String> = []
        /// Shell globs matched against names and asset paths (`Onboarding/*`, `*.jpg`).
        public var globs: [String] = []
        /// Rule ids.
        public var rules: Set<String> = []

        public init() {}

        /// Whether a name loaded is ignored: an ignored name, a glob that fits it, or
        /// `missing-image` ignored as a whole (used for the figures that count missing names).
        public func coversName(_ name: String?) -> Bool {
            if rules.contains("missing-image") { return true }
            guard let name else { return false }
            return names.contains(name) || globs.contains { fnmatch($0, name, 0) == 0 }
        }

        /// Whether the finding is not reported: its rule is ignored, it names an ignored name, or
        /// a glob matches one of its names, asset paths or asset ids.
        public func covers(_ finding: Finding) -> Bool {
            if rules.contains(finding.rule) || finding.names.contains(where: names.contains) { return true }
            let subjects = finding.names + finding.paths + finding.assets
            return globs.contains { glob in subjects.contains { fnmatch(glob, $0, 0) == 0 } }
        }
    }

    /// Names the toolkit asks for by itself (`toolkit.names`): without a backtrace, a load of
    /// one of them is the toolkit's, and its missing or repeated lookups never fail the app.
    public struct Toolkit: Sendable, Equatable {
        /// Shell globs. The defaults: GNUstep's own images (`GS*` cursors and icons, `NS*`
        /// standard names such as `NSMenuArrow`, `common_*` theme tiles) and UIKit's bar-button
        /// artwork (`UIButtonBar*`).
        public static let defaultNames = ["GS*", "NS*", "common_*", "UIButtonBar*"]
        public var names: [String] = Toolkit.defaultNames

        public init() {}

        /// The globs compiled for asking many names: a glob `prefix*` becomes a byte-prefix test.
        public var matcher: Matcher { Matcher(names) }

        /// Tells names in the list from others.
        public struct Matcher: Sendable {
            private var prefixes: [[UInt8]] = []
            private var globs: [String] = []

            init(_ names: [String]) {
                for glob in names {
                    let stem = glob.dropLast()
                    if glob.hasSuffix("*"), !stem.contains(where: { "*?[\\".contains($0) }) { prefixes.append(Array(stem.utf8)) } else { globs.append(glob) }
                }
            }

            /// Whether `name` matches one of the globs.
            public func contains(_ name: String) -> Bool {
                var name = name
                let prefixed = name.withUTF8 { bytes in prefixes.contains { bytes.starts(with: $0) } }
                return prefixed || globs.contains { fnmatch($0, name, 0) == 0 }
            }
        }
    }

    /// Growth allowed over a baseline, as fractions (0.05 = 5%) or counts.
    public struct BaselineTolerance: Sendable, Equatable {
        public var launchDecodedBytes: Double = 0.05
        public var launchBytesOnDisk: Double = 0.05
        public var launchImages: Int = 0
        public var launchLoads: Int = 2
        public var launchImageTime: Double = 0.5

        public init() {}
    }
}
