import LaunchTrace
import XCTest

/// Facts a log carries, typed where they are read (issue 62): which thread is the main one, as
/// both recorders write it, and a line's time of day.
final class TypedFactsTests: XCTestCase {
    /// Every label the recorders write reads back as what it was: the main thread whatever its
    /// name (one ending in a number too), every other thread never.
    func testEveryThreadLabelReadsBackAsWritten() {
        for name in ["", "Gridlock", "loader 12", "worker", "a b", "42", "wörker 7", "x (main)"] {
            let main = ThreadLabel.label(name: name, tid: 100, pid: 100)
            let other = ThreadLabel.label(name: name, tid: 101, pid: 100)
            XCTAssertTrue(ThreadLabel.isMain(main), "\(name) → \(main)")
            XCTAssertFalse(ThreadLabel.isMain(other), "\(name) → \(other)")
        }
        XCTAssertEqual(ThreadLabel.label(name: "", tid: 7, pid: 7), "main")
        XCTAssertEqual(ThreadLabel.label(name: "Gridlock", tid: 7, pid: 7), "Gridlock")
        XCTAssertEqual(ThreadLabel.label(name: "loader 12", tid: 7, pid: 7), "loader 12 (main)")
        XCTAssertEqual(ThreadLabel.label(name: "", tid: 8, pid: 7), "thread 8")
        // lldb's own numbering, and a log that names no thread.
        XCTAssertTrue(ThreadLabel.isMain("#1"))
        XCTAssertFalse(ThreadLabel.isMain("#2"))
        XCTAssertTrue(ThreadLabel.isMain(nil))
    }

    /// A timestamp is a time from the line that carries it: each load's and each decode's, and
    /// the recording's start, read once by the reader, not by whoever draws them.
    func testATimestampIsReadWithItsLine() throws {
        let log = """
            imgtrace-recording-start 2026-11-26 10:05:11.000
            2026-11-26 10:05:11.187 [main] (code) +[UIImage imageNamed:]: "hero" 1.500 ms
            2026-11-26T10:05:12.5 [worker 42] (code) +[UIImage imageNamed:]: "tab" 0.250 ms

            """
        let (events, summary) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.map { $0.timestamp?.text }, ["2026-11-26 10:05:11.187", "2026-11-26T10:05:12.5"])
        XCTAssertEqual(events.map { $0.timestamp?.millisecondsOfDay }, [36_311_187, 36_312_500])
        XCTAssertEqual(summary.recordingStart?.millisecondsOfDay, 36_311_000)
        XCTAssertEqual(events.map(\.isOnMainThread), [true, false])
        XCTAssertNil(LogTimestamp("2026-11-26").millisecondsOfDay)
        XCTAssertNil(LogTimestamp("2026-11-26 1x:05:11.187").millisecondsOfDay)
    }
}
