import AuditModel
import Foundation
import LaunchAudit

/// Who a build is: its id, commit and branch, given or read from the CI's environment.
public struct BuildIdentity: Sendable, Equatable {
    public var build: String
    public var commit: String?
    public var branch: String
    /// When it was recorded, ISO 8601 in UTC.
    public var date: String

    public init(build: String, commit: String?, branch: String, date: String) {
        self.build = build
        self.commit = commit
        self.branch = branch
        self.date = date
    }

    /// The variables each CI sets, first found wins: GitHub Actions, GitLab, Jenkins, Buildkite,
    /// CircleCI, Bitrise, Xcode Cloud. A pull request's branch is its head's (GITHUB_HEAD_REF).
    static let buildVariables = ["GITHUB_RUN_ID", "CI_PIPELINE_ID", "BUILD_NUMBER", "BUILDKITE_BUILD_NUMBER", "CIRCLE_BUILD_NUM", "BITRISE_BUILD_NUMBER", "CI_BUILD_NUMBER"]
    static let commitVariables = ["GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT", "BUILDKITE_COMMIT", "CIRCLE_SHA1", "BITRISE_GIT_COMMIT", "CI_COMMIT"]
    static let branchVariables = [
        "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "BRANCH_NAME", "GIT_BRANCH", "BUILDKITE_BRANCH", "CIRCLE_BRANCH", "BITRISE_GIT_BRANCH",
        "CI_BRANCH",
    ]

    /// The identity the options give, the rest from `environment`; without a build id, the
    /// date (`local-2026-11-28T10:00:00Z`), without a branch `main`.
    public static func resolve(build: String?, commit: String?, branch: String?, environment: [String: String], now: Date = Date()) -> BuildIdentity {
        func first(_ names: [String]) -> String? { names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty } }
        var formatter = Date.ISO8601FormatStyle()
        formatter.timeZone = TimeZone(identifier: "UTC")!
        let date = now.formatted(formatter)
        // Jenkins's GIT_BRANCH reads `origin/main`.
        let found = branch ?? first(branchVariables).map { $0.hasPrefix("origin/") ? String($0.dropFirst(7)) : $0 }
        return BuildIdentity(build: build ?? first(buildVariables) ?? "local-" + date, commit: commit ?? first(commitVariables), branch: found ?? "main", date: date)
    }
}

/// What the history keeps of one build: its identity, its median launch's figures, its image
/// names with their costs and the findings a baseline would hold.
public struct BuildRecord: Sendable, Equatable {
    public var identity: BuildIdentity
    public var app: String?
    public var device: String
    public var launches: Int
    public var launch: PhaseMetrics
    public var images: [Image]
    public var findings: [Baseline.Entry]

    /// An image name as a build's record holds it: the baseline's record and its main-thread
    /// time per launch when the capture was timed.
    public struct Image: Sendable, Equatable {
        public var record: ImageRecord
        public var mainThreadMicroseconds: Int?

        public init(record: ImageRecord, mainThreadMicroseconds: Int?) {
            self.record = record
            self.mainThreadMicroseconds = mainThreadMicroseconds
        }
    }

    /// A build's size is bounded: a launch of a million names keeps its costliest.
    public static let maxImages = 5_000
    public static let maxFindings = 5_000

    public init(identity: BuildIdentity, app: String?, device: String, launches: Int, launch: PhaseMetrics, images: [Image], findings: [Baseline.Entry]) {
        self.identity = identity
        self.app = app
        self.device = device
        self.launches = launches
        self.launch = launch
        self.images = images
        self.findings = findings
    }

    /// What the history keeps of `result`, as a baseline of it would.
    public init(_ result: AuditResult, identity: BuildIdentity) {
        let baseline = Baseline(result)
        var time: [String: Int] = [:]
        if result.launchFigures.median.typicalMainThreadImageMicroseconds != nil {
            for use in result.uses where use.launchLoads > 0 { time[use.displayName, default: 0] += use.typicalMainThreadMicroseconds }
        }
        var images = (baseline.images ?? []).map { Image(record: $0, mainThreadMicroseconds: time[$0.name]) }
        if images.count > Self.maxImages {
            images = Array(images.sorted { ($0.record.decodedBytes, $0.record.loads) > ($1.record.decodedBytes, $1.record.loads) }.prefix(Self.maxImages))
        }
        let kept = baseline.findings.filter { !Baseline.alwaysJudged.contains($0.rule) }
        self.init(
            identity: identity, app: baseline.app, device: baseline.device, launches: baseline.launchSpread.launches, launch: baseline.launch,
            images: images, findings: Array(kept.prefix(Self.maxFindings)))
    }
}
