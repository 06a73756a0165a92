import AuditModel
import Foundation
import LaunchAudit
import TestSupport
import XCTest

@testable import BuildHistory

final class BuildIdentityTests: XCTestCase {
    /// Each CI's own variables give the build, commit and branch; options win; without any, the
    /// date and `main`.
    func testTheCIsVariablesNameTheBuild() {
        let date = Date(timeIntervalSince1970: 1_764_324_000)
        let github = BuildIdentity.resolve(
            build: nil, commit: nil, branch: nil,
            environment: ["GITHUB_RUN_ID": "901", "GITHUB_SHA": "abc123", "GITHUB_REF_NAME": "main", "GITHUB_HEAD_REF": "feature/x"], now: date)
        XCTAssertEqual(github, BuildIdentity(build: "901", commit: "abc123", branch: "feature/x", date: "2025-11-28T10:00:00Z"))
        let jenkins = BuildIdentity.resolve(
            build: nil, commit: nil, branch: nil, environment: ["BUILD_NUMBER": "77", "GIT_BRANCH": "origin/release", "GIT_COMMIT": "f00"], now: date)
        XCTAssertEqual([jenkins.build, jenkins.branch, jenkins.commit], ["77", "release", "f00"])
        let xcodeCloud = BuildIdentity.resolve(build: nil, commit: nil, branch: nil, environment: ["CI_BUILD_NUMBER": "12", "CI_BRANCH": "develop", "CI_COMMIT": "e1"], now: date)
        XCTAssertEqual([xcodeCloud.build, xcodeCloud.branch, xcodeCloud.commit], ["12", "develop", "e1"])
        let given = BuildIdentity.resolve(build: "b7", commit: "c", branch: "topic", environment: ["GITHUB_RUN_ID": "901"], now: date)
        XCTAssertEqual([given.build, given.branch, given.commit], ["b7", "topic", "c"])
        let local = BuildIdentity.resolve(build: nil, commit: nil, branch: nil, environment: ["GITHUB_RUN_ID": ""], now: date)
        XCTAssertEqual([local.build, local.branch], ["local-2025-11-28T10:00:00Z", "main"])
        XCTAssertNil(local.commit)
    }

    func testAPasswordNeverReachesAMessage() {
        XCTAssertEqual(PostgresStore.withoutPassword("postgres://ci:s3cret@db.example/imgtrace"), "postgres://ci@db.example/imgtrace")
        XCTAssertEqual(PostgresStore.withoutPassword("postgresql://ci@/db?host=/tmp"), "postgresql://ci@/db?host=/tmp")
        XCTAssertEqual(PostgresStore.numbered("SELECT ? WHERE a = ? AND b = ?"), "SELECT $1 WHERE a = $2 AND b = $3")
    }
}

final class HistoryGateTests: XCTestCase {
    private func build(_ id: String, loads: Int, names: [String: Int], findings: [String] = []) -> BuildRecord {
        var launch = PhaseMetrics()
        launch.loads = loads
        launch.images = names.count
        return BuildRecord(
            identity: BuildIdentity(build: id, commit: nil, branch: "main", date: "2026-11-28T10:00:00Z"), app: "App", device: "iphone-16-17-pro-max",
            launches: 1, launch: launch,
            images: names.map { .init(record: ImageRecord(name: $0.key, image: $0.key, loads: $0.value, decodedBytes: 100, bytesOnDisk: 10), mainThreadMicroseconds: nil) },
            findings: findings.map { Baseline.Entry(fingerprint: $0, rule: "missing-image", severity: "error", message: $0) })
    }

    /// One noisy build does not move the median: loads, a name's loads, and which names and
    /// findings count, each by the middle build.
    func testTheGateIsTheMedianOfTheRecentBuilds() {
        let builds = [
            build("b1", loads: 20, names: ["a": 1, "b": 2], findings: ["f1"]),
            build("b2", loads: 21, names: ["a": 1, "b": 2], findings: ["f1", "f2"]),
            build("b3", loads: 90, names: ["a": 1, "b": 60, "noise": 5], findings: ["f1", "f3"]),
            build("b4", loads: 21, names: ["a": 1, "b": 3], findings: ["f1", "f2"]),
            build("b5", loads: 22, names: ["a": 1, "b": 2]),
        ]
        let baseline = HistoryGate.median(of: builds)
        XCTAssertEqual(baseline.launch.loads, 21)
        XCTAssertEqual(baseline.images?.map(\.name), ["a", "b"], "a name one build in five asked for is not the history's")
        XCTAssertEqual(baseline.images?.first { $0.name == "b" }?.loads, 2)
        XCTAssertEqual(baseline.findings.map(\.fingerprint), ["f1"], "f2 in two builds of five is not accepted")
        XCTAssertEqual(HistoryGate.median(of: Array(builds.prefix(4))).findings.map(\.fingerprint), ["f1", "f2"], "two of four is half")
        XCTAssertEqual(baseline.app, "App")
    }
}
