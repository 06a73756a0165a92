import AuditModel
import XCTest

/// A name's audit record keeps its time in a box of its own (most names are untimed): a copy
/// still behaves as a value, and the counts kept in 32 bits read back as given.
final class NameUseStorageTests: XCTestCase {
    private func use() -> NameUse {
        NameUse(name: "hero", status: .ok, kind: .name, resolution: Resolution(image: nil, how: "not found"), firstLine: LogLine(log: 0, line: 1))
    }

    func testACopyKeepsItsOwnTime() {
        var original = use()
        XCTAssertEqual(original.launchTime, ImageTime(), "an untimed name has no time")
        original.launchTime.add(20_000, onMainThread: true)
        let copy = original
        original.launchTime.add(5_000, onMainThread: true)
        XCTAssertEqual(copy.launchTime.mainThreadMicroseconds, 20_000, "the copy's time did not move with the original's")
        XCTAssertEqual(original.launchTime.mainThreadMicroseconds, 25_000)
        XCTAssertEqual(original.launchTime.timedLoads, 2)
    }

    func testCountsReadBackAndSaturate() {
        var record = use()
        record.launchLoads = 3
        record.afterLaunchLoads = 7
        record.maxLaunchLoadsPerLog = 2
        XCTAssertEqual([record.launchLoads, record.afterLaunchLoads, record.maxLaunchLoadsPerLog], [3, 7, 2])
        record.afterLaunchLoads = Int.max
        XCTAssertEqual(record.afterLaunchLoads, Int(Int32.max), "beyond 32 bits a count stops at the largest, never wraps")
    }
}
