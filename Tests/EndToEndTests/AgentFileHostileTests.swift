#if os(Linux)
    import CAgentShared
    import Foundation
    import TestSupport
    import XCTest

    /// `agent-log` reads files that come, as documented, from another machine or another user: it
    /// never writes them, and no value in them traps, hangs or forges a line.
    final class AgentFileHostileTests: XCTestCase {
        private var work: URL!

        override func setUpWithError() throws {
            work = try BinaryRunner.temporaryDirectory()
        }

        override func tearDownWithError() throws {
            if let work { try? FileManager.default.removeItem(at: work) }
        }

        private static let shared = MemoryLayout<imgtrace_agent_shared>.self
        private static let ring = MemoryLayout<imgtrace_agent_ring>.self

        /// A sparse agent file: the header, the API list, and ring 0 holding `records` (each a
        /// header and a name) with `head`/`tail` as given (default: just past the records).
        private func agentFile(
            apis: String, lost: UInt64 = 0, records: [(imgtrace_agent_record, [UInt8])], head: UInt64? = nil, tail: UInt64 = 0,
            name: String = "launch.agent", patched: UInt32 = 1
        ) throws -> URL {
            let url = work.appendingPathComponent(name)
            XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.truncate(atOffset: UInt64(Self.shared.size))
            func put<T>(_ value: T, at offset: Int) throws {
                try handle.seek(toOffset: UInt64(offset))
                try handle.write(contentsOf: withUnsafeBytes(of: value) { Data($0) })
            }
            try put(UInt64(IMGTRACE_AGENT_MAGIC), at: Self.shared.offset(of: \.magic)!)
            try put(UInt32(IMGTRACE_AGENT_VERSION), at: Self.shared.offset(of: \.version)!)
            try put(UInt32(1), at: Self.shared.offset(of: \.ready)!)
            try put(lost, at: Self.shared.offset(of: \.lost)!)
            try put(Int32(1), at: Self.shared.offset(of: \.pid)!)  // this machine's init: never to be looked up
            try put(patched, at: Self.shared.offset(of: \.patched)!)
            // Arrays this large are not imported: `notes` then `apis` follow the status bytes.
            try handle.seek(toOffset: UInt64(Self.shared.offset(of: \.api_status)! + 64 + Int(IMGTRACE_AGENT_NOTES_BYTES)))
            try handle.write(contentsOf: Data(apis.utf8))
            let ring0 = Self.shared.offset(of: \.rings)!
            var bytes = Data()
            for (header, name) in records {
                var header = header
                header.length = UInt32(name.count)
                bytes += withUnsafeBytes(of: header) { Data($0) } + Data(name)
                while bytes.count % 8 != 0 { bytes.append(0) }
                // Its stack: return addresses an agent on another machine wrote.
                for frame in 0..<min(Int(header.frames), Int(IMGTRACE_AGENT_MAX_FRAMES)) { bytes += withUnsafeBytes(of: UInt64(0x5555_0000 + frame)) { Data($0) } }
            }
            try put(tail, at: ring0 + Self.ring.offset(of: \.tail)!)
            try put(head ?? tail + UInt64(bytes.count), at: ring0 + Self.ring.offset(of: \.head)!)
            try put(Int32(4242), at: ring0 + Self.ring.offset(of: \.tid)!)
            // The ring's bytes follow its 28-byte thread name.
            let ringBytes = Self.ring.offset(of: \.thread)! + 28
            try handle.seek(toOffset: UInt64(ring0 + ringBytes + Int(tail % UInt64(IMGTRACE_AGENT_RING_BYTES))))
            try handle.write(contentsOf: bytes)
            return url
        }

        private func record(
            seq: UInt64, seconds: UInt64 = 1_764_000_000, nanoseconds: UInt32 = 5_000_000, api: UInt16 = 0, kind: UInt32 = IMGTRACE_AGENT_NAME.rawValue,
            frames: UInt16 = 0
        ) -> imgtrace_agent_record {
            var header = imgtrace_agent_record()
            header.seq = seq
            header.seconds = seconds
            header.nanoseconds = nanoseconds
            header.api = api
            header.kind = UInt8(kind)
            header.frames = frames
            header.context = UInt16.max
            return header
        }

        /// A second read gives the same log: the file is read, never written (it was mapped
        /// read-write and each ring's tail stored into it, so a retry read 0 hits); a read-only
        /// file is read as well.
        func testReadingTwiceGivesTheSameLogAndLeavesTheFileAsItWas() throws {
            let file = try agentFile(
                apis: "objc +[NSImage imageNamed:]\n", records: [(record(seq: 0), Array("AppIcon".utf8)), (record(seq: 1), Array("tab_home".utf8))])
            let before = try Data(contentsOf: file)
            chmod(file.path, 0o444)
            let first = try BinaryRunner.run(["agent-log", file.path])
            let second = try BinaryRunner.run(["agent-log", file.path])
            XCTAssertEqual(first.status, 0, first.stderr)
            XCTAssertEqual(second.status, 0, second.stderr)
            XCTAssertEqual(first.stdoutText, second.stdoutText)
            XCTAssertTrue(first.stdoutText.contains("+[NSImage imageNamed:]: \"AppIcon\""), first.stdoutText)
            XCTAssertTrue(second.stderr.contains("recorded 2 hits"), second.stderr)
            XCTAssertEqual(try Data(contentsOf: file), before, "the file is unchanged")
        }

        /// Values no agent writes, from a file that says it is one: each gives a log or one line
        /// on stderr, exit 0 or 2, within seconds; none traps (exit 132) or hangs.
        func testHostileValuesNeitherTrapNorHangNorForgeALine() throws {
            let cases: [(String, URL)] = [
                ("lost 2^64-1", try agentFile(apis: "objc +[NSImage imageNamed:]\n", lost: .max, records: [(record(seq: 0), Array("a".utf8))], name: "lost")),
                ("seconds 2^63", try agentFile(apis: "objc +[NSImage imageNamed:]\n", records: [(record(seq: 0, seconds: 1 << 63), Array("a".utf8))], name: "seconds")),
                (
                    "launch end nanoseconds",
                    try agentFile(
                        apis: "objc +[NSImage imageNamed:]\nend -[NSApplication finishLaunching]\n",
                        records: [(record(seq: 0, seconds: .max, nanoseconds: .max, api: 1, kind: IMGTRACE_AGENT_LAUNCH_END.rawValue), [])], name: "end")
                ),
                ("blank symbol line", try agentFile(apis: "symbol    \nobjc +[NSImage imageNamed:]\n", records: [(record(seq: 0, api: 1), Array("a".utf8))], name: "blank")),
                (
                    "head near 2^64",
                    try agentFile(
                        apis: "objc +[NSImage imageNamed:]\n", records: [(record(seq: 0, kind: IMGTRACE_AGENT_PAD.rawValue), [])], head: .max - 7, tail: 0,
                        name: "head")
                ),
                ("frames over the limit", try agentFile(apis: "objc +[NSImage imageNamed:]\n", records: [(record(seq: 0, frames: .max), Array("a".utf8))], name: "frames")),
                (
                    "forged API",
                    try agentFile(
                        apis: "objc FORGED\": \"real\n", records: [(record(seq: 0), Array("innocent".utf8))], name: "forged")
                ),
            ]
            for (label, file) in cases {
                let result = try BinaryRunner.run(["agent-log", file.path], timeout: 60)
                XCTAssertFalse(result.timedOut, "\(label): hangs")
                XCTAssertTrue(result.status == 0 || result.status == 2, "\(label): exit \(result.status): \(result.stderr)")
                XCTAssertFalse(result.stdoutText.contains("\"real\""), "\(label): a name forged through the API list: \(result.stdoutText)")
                XCTAssertFalse(result.stdoutText.contains("[init]") || result.stdoutText.contains("[systemd"), "\(label): a local process named the thread")
            }
            // The forged list gives an API the reader cannot mistake for anything else.
            let forged = try BinaryRunner.run(["agent-log", cases.last!.1.path])
            XCTAssertTrue(forged.stdoutText.contains("api#0: \"innocent\""), forged.stdoutText)
        }

        /// A record's stack is read past (its addresses mean nothing without the process: no
        /// frame lines), and the next record is found after it; a file of the agent's first
        /// layout is named as another version's, not as no agent's file.
        func testAStackIsReadPastAndAnOlderLayoutIsNamed() throws {
            let file = try agentFile(
                apis: "objc +[NSImage imageNamed:]\n",
                records: [(record(seq: 0, frames: 8), Array("AppIcon".utf8)), (record(seq: 1, frames: 3), Array("tab_home_12".utf8))])
            let log = try BinaryRunner.run(["agent-log", file.path])
            XCTAssertEqual(log.status, 0, log.stderr)
            XCTAssertEqual(log.stdoutText.split(separator: "\n").filter { $0.hasPrefix("20") }.map { $0.split(separator: " ").last! }, ["\"AppIcon\"", "\"tab_home_12\""])
            XCTAssertFalse(log.stdoutText.contains("frame #"), log.stdoutText)
            let handle = try FileHandle(forWritingTo: file)
            try handle.seek(toOffset: UInt64(Self.shared.offset(of: \.version)!))
            try handle.write(contentsOf: withUnsafeBytes(of: UInt32(1)) { Data($0) })
            try handle.close()
            let older = try BinaryRunner.run(["agent-log", file.path])
            XCTAssertEqual(older.status, 2)
            XCTAssertEqual(older.stderr, "imgtrace: error: \(file.path): written by another version of the imgtrace agent (this imgtrace reads versions 2 to 4); record it again\n")
            XCTAssertEqual(older.stdout.count, 0)
        }

        /// A return record's duration goes on the request it names, and only there: one naming
        /// another request, a short payload or a return with no request before it changes no other
        /// line; a duration of 2^64 − 1 ns (over a day) is written as none; nothing traps; a
        /// version-2 file (no returns) reads.
        func testReturnsTimeOnlyTheRequestTheyName() throws {
            func payload(_ seq: UInt64, _ nanoseconds: UInt64) -> [UInt8] {
                withUnsafeBytes(of: imgtrace_agent_return_payload(request_seq: seq, nanoseconds: nanoseconds, result: 0, nested_nanoseconds: 0)) { Array($0) }
            }
            let returned = IMGTRACE_AGENT_RETURN.rawValue
            let file = try agentFile(
                apis: "objc +[NSImage imageNamed:]\n",
                records: [
                    (record(seq: 0, kind: returned), payload(0, 1)),  // before any request
                    (record(seq: 1), Array("timed".utf8)), (record(seq: 2, kind: returned), payload(1, 2_345_678)),
                    (record(seq: 3), Array("wrong_seq".utf8)), (record(seq: 4, kind: returned), payload(99, 1_000_000)),
                    (record(seq: 5), Array("short".utf8)), (record(seq: 6, kind: returned), [1, 2, 3]),
                    (record(seq: 7), Array("huge".utf8)), (record(seq: 8, kind: returned), payload(7, UInt64.max)),
                    (record(seq: 9), Array("untimed".utf8)),
                ])
            let log = try BinaryRunner.run(["agent-log", file.path])
            XCTAssertEqual(log.status, 0, log.stderr)
            let hits = log.stdoutText.split(separator: "\n").filter { $0.hasPrefix("20") }.map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? "" }
            XCTAssertEqual(hits, ["\"timed\" 2.346 ms", "\"wrong_seq\"", "\"short\"", "\"huge\"", "\"untimed\""])
            XCTAssertTrue(log.stdoutText.contains("hits=5"), log.stdoutText)
            let handle = try FileHandle(forWritingTo: file)
            try handle.seek(toOffset: UInt64(Self.shared.offset(of: \.version)!))
            try handle.write(contentsOf: withUnsafeBytes(of: UInt32(2)) { Data($0) })
            try handle.close()
            XCTAssertEqual(try BinaryRunner.run(["agent-log", file.path]).status, 0)
        }

        /// A file whose writer wrapped nothing is read, and the reader is told why it holds no request.
        func testAFileWhoseWriterWrappedNothingSaysSo() throws {
            let file = try agentFile(apis: "objc +[NSImage imageNamed:]\n", records: [], patched: 0)
            let log = try BinaryRunner.run(["agent-log", file.path])
            XCTAssertEqual(log.status, 0, log.stderr)
            XCTAssertTrue(
                log.stderr.hasPrefix("imgtrace: warning: \(file.path): the process that wrote it (pid 1) wrapped none of the image APIs, so it recorded nothing\n"),
                log.stderr)
            let wrapped = try BinaryRunner.run(["agent-log", try agentFile(apis: "objc +[NSImage imageNamed:]\n", records: [], name: "wrapped.agent").path])
            XCTAssertFalse(wrapped.stderr.contains("warning"), wrapped.stderr)
        }

        /// A path that is no file at all is said so, not called a file of the wrong kind.
        func testAMissingFileIsNamedAsMissing() throws {
            let result = try BinaryRunner.run(["agent-log", work.appendingPathComponent("nowhere.agent").path])
            XCTAssertEqual(result.status, 2)
            XCTAssertTrue(result.stderr.contains("No such file"), result.stderr)
            XCTAssertFalse(result.stderr.contains("not a file the imgtrace agent wrote"), result.stderr)
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
        }
    }
#endif
