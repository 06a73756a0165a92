#if os(Linux)
    import CAgentShared
    import XCTest

    @testable import NativeTrace

    /// The agent's lines are composed as bytes in one buffer and held until their requests return:
    /// a duration that comes late lands on its own line, wherever it lies among the held ones.
    final class HeldLinesTests: XCTestCase {
        private func record(seq: UInt64, kind: UInt32, length: Int) -> imgtrace_agent_record {
            var header = imgtrace_agent_record()
            header.seq = seq
            header.seconds = 1_790_000_000
            header.nanoseconds = 123_000_000
            header.api = 0
            header.kind = UInt8(kind)
            header.length = UInt32(length)
            header.context = 0xFFFF
            return header
        }

        private func request(_ lines: inout HeldLines, seq: UInt64, ring: Int, tid: Int32, name: String) {
            let bytes = Array(name.utf8)
            bytes.withUnsafeBytes {
                lines.addRequest(record(seq: seq, kind: IMGTRACE_AGENT_NAME.rawValue, length: bytes.count), payload: $0, seq: seq, ring: ring, tid: tid, stack: "")
            }
        }

        private func returns(_ lines: inout HeldLines, seq: UInt64, ring: Int, microseconds: UInt64) {
            var payload = imgtrace_agent_return_payload(request_seq: seq, nanoseconds: microseconds * 1000, result: 0, nested_nanoseconds: 0)
            withUnsafeBytes(of: &payload) { lines.close(ring: ring, returnPayload: $0) }
        }

        private func written(_ lines: inout HeldLines, final: Bool = false) -> [String] {
            var out: [UInt8] = []
            lines.writeReady(final: final) { out += $0 }
            return String(decoding: out, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { String($0.dropFirst(24)) }
        }

        func testADurationThatComesLateLandsOnItsOwnLineAndTheOrderHolds() {
            var lines = HeldLines(apiNames: ["image_named"], tracksImageObjects: false)
            lines.setLabel("main", of: 10)
            lines.setLabel("worker 11", of: 11)
            request(&lines, seq: 1, ring: 0, tid: 10, name: "slow")
            request(&lines, seq: 2, ring: 1, tid: 11, name: "quick")
            returns(&lines, seq: 2, ring: 1, microseconds: 5)
            XCTAssertEqual(written(&lines), [], "the first request is open: nothing after it is written yet")
            request(&lines, seq: 3, ring: 1, tid: 11, name: "next\"quoted")
            returns(&lines, seq: 1, ring: 0, microseconds: 20_257)
            XCTAssertEqual(
                written(&lines),
                ["[main] image_named: \"slow\" 20.257 ms", "[worker 11] image_named: \"quick\" 0.005 ms"],
                "the late duration went into the middle of the held bytes, before the lines after it")
            XCTAssertEqual(written(&lines, final: true), ["[worker 11] image_named: \"next\\\"quoted\""], "an open request at the end keeps no duration")
        }

        func testALaunchEndAndAnUnnamedThreadKeepTheirPlaces() {
            var lines = HeldLines(apiNames: ["image_named"], tracksImageObjects: false)
            request(&lines, seq: 1, ring: 0, tid: 12, name: "a")
            lines.addLaunchEnd(seq: 2)
            returns(&lines, seq: 1, ring: 0, microseconds: 1)
            let out = written(&lines)
            XCTAssertEqual(out.first, "[thread] image_named: \"a\" 0.001 ms")
            XCTAssertEqual(out.count, 2)
        }
    }
#endif
