import AuditModel
import ImgtraceSupport
import LaunchTrace

/// Everything a team can tune: read from `.imgtrace.yml`, overridden by flags.
public struct AuditConfig: Sendable, Equatable {
    /// A device profile id or model name (`imgtrace devices`).
    package var device: String?
    /// A regular expression; the first matching log line ends the launch window.
    package var launchEnd: LaunchEndPattern?
    /// The app's source tree: findings point at the catalog entry, image file or interface
    /// document there (`--source-root`; in the config, relative to the config file).
    package var sourceRoot: String?
    /// The lowest severity that fails the run (`never` = nil).
    package var failOn: Severity? = .error
    /// Whether every bare line of a console without echoes is a name (`--names-only`), or one
    /// that does not resolve must look like one (`NameShape`) to be a missing image.
    package var namesOnly = false
    package var thresholds = Thresholds()
    package var budgets = Budgets()
    /// The name of the file these settings came from, for fixes that point at it; nil for the defaults.
    package var configFile: String?
    /// What a capture must show to be judged (`no-evidence`'s setting).
    package var evidence = Evidence()
    package var ignore = Ignores()
    /// Severity per rule id, replacing the rule's default.
    package var severities: [String: Severity] = [:]
    /// How much a metric may grow over the baseline before it fails the run.
    package var baselineTolerance = BaselineTolerance()
    /// How many recent builds of a branch the history gate takes the median of (`history.window`).
    package var historyWindow = 10
    /// What tells the toolkit's loads from the app's when a log has no backtraces.
    package var toolkit = Toolkit()

    public init() {}

    /// The team's say over a finding, the same in every command: its rule's severity as the
    /// config sets it, a note whatever the rule when the toolkit's own code asked (it never
    /// fails the app), and whether the ignores keep it out of the report (false: drop it).
    package func judge(_ finding: inout Finding) -> Bool {
        if let severity = severities[finding.rule] { finding.severity = severity }
        if !finding.gates { finding.severity = .note }
        return !ignore.covers(finding)
    }

    // The defaults are declared here once; each rule's `RuleSetting` names its key and reads its
    // default from here, so `imgtrace rules --verbose`, the README and the reader agree.

    /// The limits rules measure against.
    package struct Thresholds: Sendable, Equatable {
        /// `repeated-load` becomes a warning at this many lookups of one name in one launch.
        package var repeatedLoadWarning: Int = 10
        /// `oversized-pixels` allows an image this fraction larger than the screen (0.1 = 10%).
        package var oversizedTolerance: Double = 0
        /// `oversized-memory` fires above this many decoded bytes; nil = one full screen of the device.
        package var oversizedMemoryBytes: Int?
        /// `large-file` fires above this many bytes on disk.
        package var largeFileBytes: Int = 512 * 1024
        /// `slow-image` fires when one request holds the main thread longer than this.
        package var slowImageMilliseconds: Int = 16

        package init() {}
    }

    /// Limits on the launch as a whole; exceeding one fails the run.
    package struct Budgets: Sendable, Equatable {
        package var maxLaunchLoads: Int?
        package var maxLaunchImages: Int?
        package var maxLaunchDecodedBytes: Int?
        package var maxLaunchBytesOnDisk: Int?
        package var maxImageDecodedBytes: Int?
        package var maxMissingImages: Int?
        /// The most milliseconds the main thread may spend in image lookups and decodes at launch.
        package var maxMainThreadImageMilliseconds: Int?

        package init() {}
    }

    /// What a capture must show before the audit judges it (`no-evidence`). Its one key is
    /// written `budgets.minLaunchLoads` in the config file, where teams set it beside the budgets.
    package struct Evidence: Sendable, Equatable {
        /// The fewest readable loads a real launch has; fewer means the capture saw too little.
        package var minLaunchLoads: Int?

        package init() {}
    }

    /// What the audit does not report.
    package struct Ignores: Sendable, Equatable {
        /// Exact image names.
        package var names: Set<String> = []
        /// Shell globs matched against names and asset paths (`Onboarding/*`, `*.jpg`).
        package var globs: [String] = []
        /// Rule ids.
        package var rules: Set<String> = []

        package init() {}

        /// Whether a name loaded is ignored: an ignored name, a glob that fits it, or
        /// `missing-image` ignored as a whole (used for the figures that count missing names).
        package func coversName(_ name: String?) -> Bool {
            if rules.contains("missing-image") { return true }
            guard let name else { return false }
            return names.contains(name) || globs.contains { fnmatch($0, name, 0) == 0 }
        }

        /// Whether the finding is not reported: its rule is ignored, it names an ignored name, or
        /// a glob matches one of its names, asset paths or asset ids.
        package func covers(_ finding: Finding) -> Bool {
            if rules.contains(finding.rule) || finding.names.contains(where: names.contains) { return true }
            let subjects = finding.names + finding.paths + finding.assets
            return globs.contains { glob in subjects.contains { fnmatch(glob, $0, 0) == 0 } }
        }
    }

    /// Names the toolkit asks for by itself (`toolkit.names`): without a backtrace, a load of
    /// one of them is the toolkit's, and its missing or repeated lookups never fail the app.
    package struct Toolkit: Sendable, Equatable {
        /// Shell globs. The defaults: GNUstep's own images (`GS*` cursors and icons, `NS*`
        /// standard names such as `NSMenuArrow`, `common_*` theme tiles) and UIKit's bar-button
        /// artwork (`UIButtonBar*`).
        package static let defaultNames = ["GS*", "NS*", "common_*", "UIButtonBar*"]
        package var names: [String] = Toolkit.defaultNames

        package init() {}

        /// The globs compiled for asking many names: a glob `prefix*` becomes a byte-prefix test.
        package var matcher: Matcher { Matcher(names) }

        /// Tells names in the list from others.
        package struct Matcher: Sendable {
            private var prefixes: [[UInt8]] = []
            private var globs: [String] = []

            init(_ names: [String]) {
                for glob in names {
                    let stem = glob.dropLast()
                    if glob.hasSuffix("*"), !stem.contains(where: { "*?[\\".contains($0) }) { prefixes.append(Array(stem.utf8)) } else { globs.append(glob) }
                }
            }

            /// Whether `name` matches one of the globs.
            package func contains(_ name: String) -> Bool {
                var name = name
                let prefixed = name.withUTF8 { bytes in prefixes.contains { bytes.starts(with: $0) } }
                return prefixed || globs.contains { fnmatch($0, name, 0) == 0 }
            }
        }
    }

    /// Growth allowed over a baseline, as fractions (0.05 = 5%) or counts.
    public struct BaselineTolerance: Sendable, Equatable {
        package var launchDecodedBytes: Double = 0.05
        package var launchBytesOnDisk: Double = 0.05
        package var launchImages: Int = 0
        package var launchLoads: Int = 2
        package var launchImageTime: Double = 0.5

        package init() {}
    }
}
