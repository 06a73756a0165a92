import Foundation
@testable import LaunchTrace
import ImgtraceSupport
import TestSupport
import XCTest

/// Reading from a file in chunks gives exactly what reading it whole gives, and hostile
/// shapes stay bounded.
final class StreamingTests: XCTestCase {
    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let dir = try BinaryRunner.temporaryDirectory()
        let url = dir.appendingPathComponent("log.txt")
        try Data(bytes).write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return url.path
    }

    func testChunkBoundariesDoNotChangeEvents() throws {
        let log = Array(
            """
            2024-05-01 12:00:00.123456+0200 Samples[1234:56789] start\r
            (lldb)  p (char *)$arg3\r\r
            \u{1B}[0;36m(char *)\u{1B}[0m $0 = 0x1 "AppIcon"
            (lldb)  po $arg3
            multi
            line
            (lldb)  po $arg3
            <nil>
            (lldb)  p (char *)$arg3
            (char *) $1 = 0x1 "日本語 名前"
            """.utf8)
        let path = try temporaryFile(log)
        let whole = try TraceReader.read(log)
        for chunk in [1, 2, 3, 7, 64, 1 << 20] {
            var events: [ImageLoad] = []
            let summary = try TraceReader.read(contentsOf: path, options: TraceOptions(), chunkSize: chunk) { events.append($0) }
            XCTAssertEqual(events, whole.events, "chunk size \(chunk)")
            XCTAssertEqual(summary, whole.summary, "chunk size \(chunk)")
        }
        XCTAssertEqual(whole.events.map(\.name), ["AppIcon", "multi\nline", nil, "日本語 名前"])
    }

    func testOverlongLineIsCutAndWarned() throws {
        var log = Array("(lldb)  p (char *)$arg3\n(char *) $0 = 0x1 \"AppIcon\"\n".utf8)
        log += [UInt8](repeating: UInt8(ascii: "x"), count: 3 * TraceReader.maxLineLength)
        log += Array("\n(lldb)  po $arg3\nLogo\n".utf8)
        let path = try temporaryFile(log)
        var events: [ImageLoad] = []
        let summary = try TraceReader.read(contentsOf: path, options: TraceOptions(), chunkSize: 1 << 16) { events.append($0) }
        XCTAssertEqual(events.count, 2)
        XCTAssertTrue(events.first?.name == "AppIcon" && events.last?.name == "Logo")
        XCTAssertEqual(summary.lines, 5)
        XCTAssertTrue(summary.warnings.contains { $0.line == 3 && $0.message.contains("cut") })
    }

    func testBarePoTextAfterAnEchoIsBounded() throws {
        var log = "(lldb)  po $arg3\n"
        for i in 0..<1000 { log += "app output line \(i)\n" }
        let (events, _) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events[0].name?.split(separator: "\n").count, TraceParser.maxNameLines)
    }

    func testMissingAndDirectoryInputsAreInputErrors() throws {
        XCTAssertThrowsError(try TraceReader.read(contentsOf: "/nonexistent/imgtrace.log", onLoad: nil)) { error in
            XCTAssertEqual(error as? InputError, InputError(path: "/nonexistent/imgtrace.log", reason: "no such file"))
        }
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertThrowsError(try TraceReader.read(contentsOf: dir.path, onLoad: nil)) { error in
            XCTAssertEqual((error as? InputError)?.reason, "is a directory, expected a file")
        }
    }
}
