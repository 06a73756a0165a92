import AuditModel
import LaunchAudit

/// The gate against a history: each per-launch figure and each image name of the recent builds
/// of a branch, as their median, in the shape of a baseline, so the comparison, its tolerances
/// and every report's baseline section are the ones `--baseline` gives.
public struct HistoryGate: Sendable {
    /// The median of the recent builds, as a baseline.
    public var baseline: Baseline
    /// The builds it was made of, oldest first.
    public var builds: [BuildIdentity]
    /// The branch they are of (the build's own, or the main branch when it had none).
    public var branch: String

    /// A gate needs this many recorded builds: fewer is no median to trust.
    public static let minimumBuilds = 3
    /// The branches a branch without builds of its own is compared with, in order.
    public static let mainBranches = ["main", "master"]

    /// What the history says about a build of `branch` (id `build`, left out of its own window).
    public enum Outcome: Sendable {
        case gate(HistoryGate)
        /// Too few builds to gate against: how many there are, and of which branch.
        case tooFew(count: Int, branch: String)
    }

    public static func against(_ history: BuildHistory, branch: String, build: String, window: Int) throws -> Outcome {
        let size = max(minimumBuilds, window)
        var chosen = branch
        var recent = try history.builds(branch: branch, last: size, except: build, withFindings: true)
        if recent.isEmpty {
            for main in mainBranches where main != branch {
                recent = try history.builds(branch: main, last: size, except: build, withFindings: true)
                if !recent.isEmpty {
                    chosen = main
                    break
                }
            }
        }
        guard recent.count >= minimumBuilds else { return .tooFew(count: recent.count, branch: chosen) }
        return .gate(HistoryGate(baseline: median(of: recent), builds: recent.map(\.identity), branch: chosen))
    }

    /// Each figure the median of the builds'; a name kept when the median build loads it, with
    /// its median loads and its latest costs; a finding accepted when half the builds had it.
    static func median(of builds: [BuildRecord]) -> Baseline {
        let latest = builds[builds.count - 1]
        var spread = PhaseSpread(builds.map(\.launch))
        spread.launches = latest.launches
        var loads: [String: [Int]] = [:], costs: [String: ImageRecord] = [:]
        for (index, build) in builds.enumerated() {
            for image in build.images {
                loads[image.record.name, default: Array(repeating: 0, count: builds.count)][index] = image.record.loads
                costs[image.record.name] = image.record
            }
        }
        let images = loads.compactMap { name, perBuild -> ImageRecord? in
            guard let median = LaunchMedian.of(perBuild), median > 0, var record = costs[name] else { return nil }
            record.loads = median
            return record
        }.sorted { $0.name < $1.name }
        var seen: [String: (count: Int, entry: Baseline.Entry)] = [:]
        for build in builds {
            for finding in build.findings { seen[finding.fingerprint, default: (0, finding)].count += 1 }
        }
        let findings = seen.values.filter { $0.count * 2 >= builds.count }.map(\.entry).sorted { $0.fingerprint < $1.fingerprint }
        return Baseline(device: latest.device, app: latest.app, launchSpread: spread, findings: findings, images: images)
    }
}
