#if os(Linux)
    import ImgtraceSupport
    import XCTest

    @testable import NativeTrace

    /// A request's duration is written where its line is, as the shared millisecond text writes it:
    /// rounded half up to the microsecond, its own time apart when it called other image APIs.
    final class HitLineDurationTests: XCTestCase {
        func testDurationsAreTheSharedMillisecondTextRoundedToTheMicrosecond() {
            for nanoseconds: UInt64 in [0, 499, 500, 999, 214_499, 214_500, 1_999_999_500, 20_257_000, 86_400_000_000_000] {
                var line = "t [main] image_named: \"hero\""
                HitLine.appendDuration(to: &line, nanoseconds: nanoseconds)
                let microseconds = Int(nanoseconds / 1000 + (nanoseconds % 1000 >= 500 ? 1 : 0))
                XCTAssertEqual(line, "t [main] image_named: \"hero\" " + milliseconds(microseconds: microseconds), "\(nanoseconds) ns")
            }
            var line = "x"
            HitLine.appendDuration(to: &line, nanoseconds: 20_257_000, nested: 20_042_000)
            XCTAssertEqual(line, "x 20.257 ms, 0.215 ms own")
            line = "y"
            HitLine.appendDuration(to: &line, nanoseconds: 1_000, nested: 5_000)
            XCTAssertEqual(line, "y 0.001 ms, 0.000 ms own", "a nested time longer than the call leaves none of its own")
        }
    }
#endif
