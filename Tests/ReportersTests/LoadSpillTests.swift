import Foundation
import ImgtraceSupport
import LaunchTrace
import XCTest

@testable import Reporters

/// The trace JSON report holds its events compactly until the summary is written: what comes back
/// must be every load exactly as it went in, whether held in memory or in the temporary file, and
/// the document must be the events as each is encoded alone.
final class LoadSpillTests: XCTestCase {
    /// Loads that use every field, every way a name is held (by id, inline for a second name under
    /// one id, inline beyond the table, inline without an id) and a repeated timestamp.
    private func variedLoads() -> [ImageLoad] {
        let stamp = LogTimestamp("2024-05-01 12:00:25.682554+0200")
        var loads: [ImageLoad] = []
        loads.append(ImageLoad(seq: 1, line: 2, name: "feed/photo_1389@2x.png", status: .ok, timestamp: stamp, nameID: 0))
        loads.append(ImageLoad(seq: 2, line: 4, name: "feed/photo_1389@2x.png", status: .ok, timestamp: stamp, nameID: 0))
        var full = ImageLoad(
            seq: 3, line: 9, name: "日本語\n\"quoted\"", status: .ok, api: "+[UIImage imageNamed:]", breakpoint: "1.1",
            thread: "loader 12 (main)", timestamp: LogTimestamp("2024-05-01T12:00:26"), backtrace: ["frame #0: a", "frame #1: b"],
            phase: .afterLaunch, nameID: 1)
        full.kind = .code
        full.hits = 3
        full.microseconds = 1234
        full.ownMicroseconds = 1000
        full.fromBareLine = true
        full.fromSystemWarning = true
        loads.append(full)
        loads.append(ImageLoad(seq: 4, line: 10, name: nil, status: .error, detail: "error: no memory at 0x0", timestamp: stamp))
        loads.append(ImageLoad(seq: 5, line: 11, name: "another name under id 0", status: .ok, nameID: 0))
        loads.append(ImageLoad(seq: 6, line: 12, name: "far", status: .ok, nameID: 1 << 40))
        loads.append(ImageLoad(seq: 7, line: 13, name: "no id", status: .ok))
        loads.append(ImageLoad(seq: Int.max, line: -5, name: nil, status: .skipped, detail: "", nameID: -3))
        var timedOnly = ImageLoad(seq: 9, line: 14, name: "", status: .empty)
        timedOnly.microseconds = 0
        loads.append(timedOnly)
        // Numbers at every count of digits and both ends of Int.
        for (i, value) in [9, 10, 99, 100, 101, 999, 1000, 65_536, 1 << 40, Int.max, Int.min, -1, -10].enumerated() {
            var timed = ImageLoad(seq: 10 + i, line: value, name: nil, status: .nil)
            timed.microseconds = value
            timed.ownMicroseconds = value == Int.min ? Int.max : value / 3
            loads.append(timed)
        }
        return loads
    }

    func testEveryLoadComesBackAsItWentIn() {
        let loads = variedLoads()
        // 1 MiB holds all in memory; the small limits spill to the file with records cut across reads.
        for limit in [1 << 20, 1, 7, 64] {
            let spill = LoadSpill(limit: limit)
            for load in loads { spill.add(load) }
            XCTAssertEqual(spill.count, loads.count)
            for pass in 1...2 {
                var back: [ImageLoad] = []
                spill.forEach { back.append($0) }
                XCTAssertEqual(back, loads, "limit \(limit), pass \(pass)")
            }
        }
    }

    func testRecordsCutAtEveryByteComeBackWhole() {
        // Records of 8 to over 300 bytes (a length of one and of two bytes), read back 1 to 7 bytes
        // at a time: every record, and every record's length, is cut somewhere.
        var loads = variedLoads()
        for i in 0..<40 {
            var load = ImageLoad(seq: 100 + i, line: 1000 - 7 * i, name: "icon_\(i % 5)", status: .ok, nameID: 40 + i % 5)
            load.backtrace = (0..<(i % 9)).map { "frame #\($0): \(String(repeating: "x", count: 5 * i))" }
            loads.append(load)
        }
        for limit in [1 << 20, 3] {
            for readSize in 1...7 {
                let spill = LoadSpill(limit: limit, readSize: readSize)
                for load in loads { spill.add(load) }
                var back: [ImageLoad] = []
                spill.forEach { back.append($0) }
                XCTAssertEqual(back, loads, "limit \(limit), read \(readSize) bytes at a time")
            }
        }
    }

    func testManyLoadsComeBackAcrossTheFilesReads() {
        // More than one 64 KiB read of the temporary file, so records straddle its reads.
        let spill = LoadSpill(limit: 4096)
        var loads: [ImageLoad] = []
        for i in 0..<20_000 {
            let load = ImageLoad(
                seq: i + 1, line: 3 * i + 1, name: "icon_\(i % 97)", status: .ok,
                timestamp: LogTimestamp("2024-05-01 12:00:\(10 + i / 1000).\(i % 1000)"), nameID: i % 97)
            loads.append(load)
            spill.add(load)
        }
        var back: [ImageLoad] = []
        spill.forEach { back.append($0) }
        XCTAssertEqual(back.count, loads.count)
        XCTAssertEqual(back, loads)
    }

    func testTheDocumentListsEachEventAsEncodedAlone() throws {
        let loads = variedLoads()
        let report = TraceJSONReport()
        for load in loads { report.add(load) }
        let (_, summary) = try TraceReader.read(Array("(lldb)  po $arg3\nAppIcon\n".utf8))
        let sink = ByteSink(collecting: .json)
        report.write(summary: summary, to: sink)
        let document = String(decoding: sink.collected, as: UTF8.self)
        let events = loads.map { load -> String in
            var w = JSONText()
            TraceJSONReport.encode(load, into: &w)
            return String(decoding: w.bytes, as: UTF8.self)
        }
        XCTAssertTrue(document.hasSuffix(",\"events\":[" + events.joined(separator: ",") + "]}\n"), document)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(sink.collected)) as? [String: Any])
        XCTAssertEqual((object["events"] as? [Any])?.count, loads.count)
    }

    /// The events are written past the sink's guard, each text guarded once when first written:
    /// what comes out must be what the guard makes of the plain JSON, for every consumer.
    func testEventsGuardedOnceEqualTheGuardedStream() throws {
        var loads = variedLoads()
        let hostile = [
            "right\u{202E}gnp.exe", "##[error]forged", "::warning::x", "nel\u{85}line", "line\u{2028}sep", "tab\there#",
            "#", "##", "bidi\u{2066}isolate\u{2069}", "esc\u{1B}[31mred",
        ]
        for (i, name) in hostile.enumerated() {
            var load = ImageLoad(
                seq: 20 + i, line: 40 + i, name: name, status: .ok, detail: i % 3 == 0 ? name : nil, api: i % 2 == 0 ? "##[group]" : nil,
                thread: i % 4 == 0 ? "t\u{202D}" : nil, timestamp: LogTimestamp("2024-05-01 12:00:\(i)\u{85}"), nameID: 100 + i)
            load.backtrace = i % 2 == 1 ? [name, "frame ::x"] : []
            loads.append(load)
        }
        for consumer in [OutputConsumer.json, .terminal, .githubCommands, .markdown] {
            let report = TraceJSONReport()
            for load in loads { report.add(load) }
            let (_, summary) = try TraceReader.read(Array("(lldb)  po $arg3\nAppIcon\n".utf8))
            let sink = ByteSink(collecting: consumer)
            report.write(summary: summary, to: sink)
            // The same document, every byte through the guard.
            var plain = JSONText()
            plain.beginArray()
            for load in loads { TraceJSONReport.encode(load, into: &plain) }
            plain.endArray()
            let expected = ByteSink(collecting: consumer)
            expected.write(Array(",\"events\":".utf8))
            expected.write(plain.bytes + Array("}\n".utf8))
            let document = sink.collected
            let tail = expected.collected
            XCTAssertEqual(Array(document.suffix(tail.count)), tail, "\(consumer)")
            XCTAssertFalse(document.contains(0x1B), "\(consumer)")
        }
    }
}
