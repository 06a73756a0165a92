import Foundation
import LaunchTrace
import ImgtraceSupport
import Reporters
import XCTest

final class TraceReportTests: XCTestCase {
    func testJSONEscapesNamesExactly() throws {
        var w = JSONText()
        let load = ImageLoad(seq: 1, line: 2, name: "quote\"name\\multi\nline\u{01}日本語", status: .ok)
        TraceJSONReport.encode(load, into: &w)
        let text = String(decoding: w.bytes, as: UTF8.self)
        XCTAssertTrue(text.contains(#""name":"quote\"name\\multi\nline\u0001日本語""#))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        XCTAssertEqual(object["name"] as? String, load.name)
        XCTAssertTrue(object["detail"] is NSNull)
        XCTAssertEqual(object["backtrace"] as? [String], [])
    }

    func testSummaryCountsEveryStatus() throws {
        let (_, summary) = try TraceReader.read(Array("(lldb)  po $arg3\nAppIcon\n(lldb)  po $arg3\n<nil>\n".utf8))
        var w = JSONText()
        TraceJSONReport.encode(summary, into: &w)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        let counts = try XCTUnwrap(object["statusCounts"] as? [String: Int])
        XCTAssertEqual(counts, ["ok": 1, "nil": 1, "empty": 0, "error": 0, "addressOnly": 0, "skipped": 0])
        XCTAssertEqual(object["hitsWithoutName"] as? Int, 1)
    }

    func testTextTableAlignsWideCharacters() {
        let table = TextTable.render(header: ["NAME", "LOADS"], rows: [["日本語", "1"], ["tab", "12"]], rightAligned: [1])
        XCTAssertEqual(table, "NAME    LOADS\n日本語      1\ntab        12\n")
    }

    func testTextReportShowsEscapedNamesAndWarnings() throws {
        let (_, summary) = try TraceReader.read(Array("(lldb)  p (char *)$arg3\n(char *) $0 = 0x1 \"multi\\nline\"\n(lldb)  p (char *)$arg3\n".utf8))
        let text = TraceTextReport.render(summary, file: "a.log")
        XCTAssertTrue(text.contains("multi\\nline"))
        XCTAssertTrue(text.contains("a.log: 2 hits, 1 distinct name, 3 lines"))
        XCTAssertTrue(text.contains("hits without a name: 1 skipped"))
        XCTAssertTrue(text.contains("warning: line 3: the log ends inside a hit (truncated capture)"))
    }
}

/// A sink that cannot write says so: a report that never reached its file must not pass.
final class ByteSinkFailureTests: XCTestCase {
    func testWritesToAFullDeviceAreReportedByFinish() throws {
        let fd = open("/dev/full", O_WRONLY)
        guard fd >= 0 else { throw XCTSkip("no /dev/full here") }
        defer { close(fd) }
        let sink = ByteSink(fd: fd)
        sink.write(String(repeating: "x", count: 200_000))
        XCTAssertThrowsError(try sink.finish()) { error in
            XCTAssertTrue("\(error)".contains("No space left"), "\(error)")
        }
        XCTAssertNotNil(sink.failure)
    }

    func testASpillBufferThatLostBytesFailsItsSink() throws {
        let fd = open("/dev/null", O_WRONLY)
        defer { close(fd) }
        let sink = ByteSink(fd: fd)
        let buffer = SpillBuffer(limit: 16)
        buffer.append(Array(repeating: 1, count: 64))
        buffer.replay(into: sink)
        XCTAssertNoThrow(try sink.finish(), "a healthy spill replays cleanly")
    }
}
