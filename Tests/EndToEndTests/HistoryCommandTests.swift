import Foundation
import TestSupport
import XCTest

/// `analyze --history`: every build recorded in an SQLite file, the gate against the median of
/// the branch's recent builds, `history show` and `forget`, and a file that is not a history
/// refused untouched. The launches are the example's, and the example's with 50 more lookups.
final class HistoryCommandTests: XCTestCase {
    private var work: URL!
    private let examples = Corpus.packageRoot.appendingPathComponent("Examples")
    private var log: String { examples.appendingPathComponent("launch.log").path }
    private var app: String { examples.appendingPathComponent("SampleApp.app").path }

    override func setUpWithError() throws { work = try BinaryRunner.temporaryDirectory() }

    override func tearDownWithError() throws { if let work { try? FileManager.default.removeItem(at: work) } }

    private func analyze(_ log: String, history: String, build: String, _ extra: [String] = [], environment: [String: String] = [:]) throws -> BinaryRunner.Result {
        try BinaryRunner.run(["analyze", log, "--bundle", app, "--history", history, "--build", build, "--branch", "main"] + extra, environment: environment)
    }

    /// The report's lines joined, as a wrapped sentence reads.
    private func oneLine(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    /// The example's launch with 50 more lookups of `placeholder`.
    private func plusFifty() throws -> String {
        var lines = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n")
        lines.insert(contentsOf: Array(repeating: "placeholder", count: 50), at: 19)
        let path = work.appendingPathComponent("plus50.log")
        try lines.joined(separator: "\n").write(to: path, atomically: true, encoding: .utf8)
        return path.path
    }

    private func show(_ history: String, _ extra: [String] = []) throws -> [[String: Any]] {
        let shown = try BinaryRunner.run(["history", "show", history, "--format", "json"] + extra)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any], shown.stdoutText)
        return try XCTUnwrap(doc["builds"] as? [[String: Any]])
    }

    /// Five builds b1–b5 recorded one at a time: the first three gate nothing (and say so), the
    /// file is SQLite, `show` lists the five with their figures; a sixth with 50 more lookups
    /// fails and names `placeholder`; a sixth like the others passes.
    func testFiveBuildsThenTheGateNamesWhatMoved() throws {
        let history = work.appendingPathComponent("launches.sqlite").path
        for (index, build) in ["b1", "b2", "b3", "b4", "b5"].enumerated() {
            let run = try analyze(log, history: history, build: build)
            if index < 3 {
                XCTAssertEqual(run.status, 1, "the example's 3 errors fail a run with nothing to gate against")
                XCTAssertTrue(oneLine(run.stdoutText).contains("fewer than 3, so nothing is gated against it yet"), run.stdoutText)
            } else {
                XCTAssertEqual(run.status, 0, "\(build): the errors every earlier build had are accepted\n\(run.stdoutText)")
                XCTAssertTrue(oneLine(run.stdoutText).contains("gated against the median of the last \(index) builds"), run.stdoutText)
            }
        }
        let head = try XCTUnwrap(FileHandle(forReadingAtPath: history)).readData(ofLength: 16)
        XCTAssertEqual(Array(head), Array("SQLite format 3\0".utf8))
        let builds = try show(history)
        XCTAssertEqual(builds.map { $0["build"] as? String }, ["b1", "b2", "b3", "b4", "b5"])
        for build in builds {
            let figures = try XCTUnwrap(build["figures"] as? [String: Any])
            XCTAssertEqual(figures["loads"] as? Int, 21)
            XCTAssertEqual(figures["images"] as? Int, 14)
            XCTAssertEqual((build["images"] as? [[String: Any]])?.count, 17)
        }
        let page = try BinaryRunner.run(["history", "show", history, "--format", "html"]).stdoutText
        XCTAssertEqual(page.components(separatedBy: "<svg ").count - 1, 6, "a chart per figure the builds have (no image time: untimed)")
        XCTAssertFalse(page.contains("<script"), "no script on the history page")

        // The failing sixth is tried on a copy, so the passing sixth meets the same five.
        let copy = work.appendingPathComponent("copy.sqlite").path
        try FileManager.default.copyItem(atPath: history, toPath: copy)
        let worse = try analyze(try plusFifty(), history: copy, build: "b6")
        XCTAssertEqual(worse.status, 1, worse.stdoutText)
        XCTAssertTrue(worse.stdoutText.contains("worse: launch.loads 21 → 71"), worse.stdoutText)
        XCTAssertTrue(worse.stdoutText.contains("moved: `placeholder` 3 → 53 loads"), worse.stdoutText)
        let github = try analyze(try plusFifty(), history: copy, build: "b6", ["--format", "github"])
        XCTAssertTrue(github.stdoutText.contains("`placeholder` 3 → 53 loads"), github.stdoutText)
        let same = try analyze(log, history: history, build: "b6")
        XCTAssertEqual(same.status, 0, same.stdoutText)
        XCTAssertTrue(same.stdoutText.contains("BASELINE: 0 new, 0 fixed, figures within tolerance — PASS"), same.stdoutText)

        // A build id recorded again replaces its record; forget removes one.
        XCTAssertEqual(try analyze(log, history: history, build: "b6").status, 0)
        XCTAssertEqual(try show(history).count, 6)
        let forgot = try BinaryRunner.run(["history", "forget", history, "--build", "b6"])
        XCTAssertEqual(forgot.status, 0, forgot.stderr)
        XCTAssertEqual(try show(history).map { $0["build"] as? String }, ["b1", "b2", "b3", "b4", "b5"])
        XCTAssertEqual(try BinaryRunner.run(["history", "forget", history, "--build", "b6"]).status, 2, "no such build")
    }

    /// Two CI jobs writing at once both land (write-ahead log, busy timeout, one transaction each).
    func testTwoRunsAtOnceBothLand() throws {
        let history = work.appendingPathComponent("shared.sqlite").path
        XCTAssertEqual(try analyze(log, history: history, build: "first").status, 1)
        let runs = try ["a", "b", "c", "d"].map { build -> Process in
            let process = Process()
            process.executableURL = BinaryRunner.executable
            process.arguments = ["analyze", log, "--bundle", app, "--history", history, "--build", build, "--format", "json", "--output", "/dev/null"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in runs { process.waitUntilExit() }
        // Each run passes or fails on its findings (how many builds it met decides); none fails to write.
        XCTAssertTrue(runs.allSatisfy { $0.terminationStatus == 0 || $0.terminationStatus == 1 }, "\(runs.map(\.terminationStatus))")
        XCTAssertEqual(Set(try show(history).compactMap { $0["build"] as? String }), ["first", "a", "b", "c", "d"])
    }

    /// A run killed inside its write leaves the history readable, with the builds it had.
    func testARunKilledMidWriteLeavesTheHistoryAsItWas() throws {
        let history = work.appendingPathComponent("killed.sqlite").path
        for build in ["b1", "b2"] { _ = try analyze(log, history: history, build: build) }
        XCTAssertEqual(try Self.killInsideTheWrite(["analyze", log, "--bundle", app, "--history", history, "--build", "b3"]), .uncaughtSignal)
        XCTAssertEqual(try show(history).map { $0["build"] as? String }, ["b1", "b2"])
        XCTAssertEqual(try analyze(log, history: history, build: "b3").status, 1, "the history takes the next build")
        XCTAssertEqual(try show(history).count, 3)
    }

    /// Runs imgtrace with `arguments`, held inside its history write by the test-only pause, and
    /// kills it there (SIGKILL: nothing of its own runs after).
    static func killInsideTheWrite(_ arguments: [String]) throws -> Process.TerminationReason {
        let process = Process()
        process.executableURL = BinaryRunner.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["IMGTRACE_HISTORY_TEST_PAUSE_MS": "20000"]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // It says when it is inside the write's transaction (the build's rows inserted, not committed).
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("pausing inside the history's write") {
            let chunk = errors.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            said.append(chunk)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason
    }

    /// A file that is not a history, an SQLite database of something else, and a history of a
    /// newer schema: each refused with one line and exit 2, its bytes unchanged.
    func testWhatIsNotAHistoryIsRefusedUntouched() throws {
        var random = SystemRandomNumberGenerator()
        let noise = work.appendingPathComponent("noise.bin")
        try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &random) }).write(to: noise)
        let other = work.appendingPathComponent("other.sqlite"), newer = work.appendingPathComponent("newer.sqlite")
        guard Shell.output("python3 -c 'import sqlite3'") != nil else { throw XCTSkip("needs python3's sqlite3 to write foreign databases") }
        _ = Shell.output("python3 -c \"import sqlite3; c = sqlite3.connect('\(other.path)'); c.execute('CREATE TABLE invoices (id INTEGER)'); c.commit()\"")
        XCTAssertEqual(try analyze(log, history: newer.path, build: "b1").status, 1)
        _ = Shell.output(
            "python3 -c \"import sqlite3; c = sqlite3.connect('\(newer.path)'); c.execute(\\\"UPDATE imgtrace_meta SET value = '99' WHERE key = 'schema'\\\"); c.commit()\"")
        let expected = ["noise.bin": "not an imgtrace history", "other.sqlite": "not an imgtrace history", "newer.sqlite": "a history of schema 99"]
        for file in [noise, other, newer] {
            let before = try Data(contentsOf: file)
            let run = try analyze(log, history: file.path, build: "x")
            XCTAssertEqual(run.status, 2, run.stderr)
            XCTAssertEqual(run.stdout.count, 0, "no partial output")
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(file.path) && run.stderr.contains(expected[file.lastPathComponent]!), run.stderr)
            XCTAssertEqual(try Data(contentsOf: file), before, "\(file.lastPathComponent) untouched")
            XCTAssertEqual(try BinaryRunner.run(["history", "show", file.path]).status, 2)
        }
    }
}

/// The same history on a real PostgreSQL server (Debian's), started on a local socket by the
/// test: the builds, the gate, `show`, `forget`, concurrent writers and a database that is not a
/// history, as with SQLite.
final class PostgresHistoryTests: XCTestCase {
    private let examples = Corpus.packageRoot.appendingPathComponent("Examples")

    func testThePostgresHistoryGatesAndShowsAsSQLiteDoes() throws {
        let server: PostgresServer
        do { server = try PostgresServer() } catch let missing as PostgresServer.Unavailable { throw XCTSkip(missing.description) }
        defer { server.stop() }
        let log = examples.appendingPathComponent("launch.log").path, app = examples.appendingPathComponent("SampleApp.app").path
        func analyze(_ log: String, _ build: String, _ history: String? = nil) throws -> BinaryRunner.Result {
            try BinaryRunner.run(["analyze", log, "--bundle", app, "--history", history ?? server.url, "--build", build, "--branch", "main"])
        }
        for build in ["b1", "b2", "b3", "b4", "b5"] { XCTAssertNotEqual(try analyze(log, build).status, 2) }
        let shown = try BinaryRunner.run(["history", "show", server.url, "--format", "json"])
        XCTAssertEqual(shown.status, 0, shown.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])
        let builds = try XCTUnwrap(doc["builds"] as? [[String: Any]])
        XCTAssertEqual(builds.map { $0["build"] as? String }, ["b1", "b2", "b3", "b4", "b5"])
        XCTAssertEqual((builds[4]["figures"] as? [String: Any])?["loads"] as? Int, 21)

        var lines = try String(contentsOfFile: log, encoding: .utf8).components(separatedBy: "\n")
        lines.insert(contentsOf: Array(repeating: "placeholder", count: 50), at: 19)
        let plus = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-pg-plus50-\(UUID().uuidString).log")
        try lines.joined(separator: "\n").write(to: plus, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: plus) }
        let worse = try analyze(plus.path, "b6")
        XCTAssertEqual(worse.status, 1)
        XCTAssertTrue(worse.stdoutText.contains("moved: `placeholder` 3 → 53 loads"), worse.stdoutText)
        XCTAssertEqual(try BinaryRunner.run(["history", "forget", server.url, "--build", "b6"]).status, 0)
        let same = try analyze(log, "b6")
        XCTAssertEqual(same.status, 0, same.stdoutText)

        // Writers at once (an advisory lock inside each transaction) all land.
        let runs = try ["c1", "c2", "c3"].map { build -> Process in
            let process = Process()
            process.executableURL = BinaryRunner.executable
            process.arguments = ["analyze", log, "--bundle", app, "--history", server.url, "--build", build, "--format", "json", "--output", "/dev/null"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in runs { process.waitUntilExit() }
        XCTAssertTrue(runs.allSatisfy { $0.terminationStatus != 2 })
        let all = try XCTUnwrap(JSONSerialization.jsonObject(with: try BinaryRunner.run(["history", "show", server.url, "--format", "json"]).stdout) as? [String: Any])
        XCTAssertEqual((all["builds"] as? [[String: Any]])?.count, 9)

        // A run killed inside its write: the server rolls its transaction back.
        XCTAssertEqual(try HistoryCommandTests.killInsideTheWrite(["analyze", log, "--bundle", app, "--history", server.url, "--build", "killed"]), .uncaughtSignal)
        let after = try XCTUnwrap(JSONSerialization.jsonObject(with: try BinaryRunner.run(["history", "show", server.url, "--format", "json"]).stdout) as? [String: Any])
        XCTAssertEqual((after["builds"] as? [[String: Any]])?.count, 9, "the killed build is not there")
        let page = try BinaryRunner.run(["history", "show", server.url, "--format", "html"]).stdoutText
        XCTAssertEqual(page.components(separatedBy: "<svg ").count - 1, 6)

        // A database of something else is refused, its table left as it was.
        try server.psql("CREATE DATABASE accounts")
        try server.psql("CREATE TABLE invoices (id INTEGER); INSERT INTO invoices VALUES (7)", database: "accounts")
        let refused = try analyze(log, "x", server.url(database: "accounts"))
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("not an imgtrace history"), refused.stderr)
        XCTAssertFalse(refused.stderr.contains("\n\n"))
        let tables = try BinaryRunner.run(["history", "show", server.url(database: "accounts")])
        XCTAssertEqual(tables.status, 2)
        XCTAssertNoThrow(try server.psql("SELECT 1 / (COUNT(*) = 1 AND MIN(id) = 7)::int FROM invoices", database: "accounts"), "the table as it was")
        // A server that is not there: one line, exit 2.
        let gone = try analyze(log, "x", "postgresql://imgtrace@/postgres?host=/nonexistent-imgtrace")
        XCTAssertEqual(gone.status, 2)
        XCTAssertTrue(gone.stderr.hasPrefix("imgtrace: error: postgresql://imgtrace@/postgres?host=/nonexistent-imgtrace: cannot connect"), gone.stderr)
    }
}
