#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// Debian's Gridlock recorded by ptrace, against the corpus's lldb capture of the same launch.
    extension RecordCommandTests {
        func testGridlockRecordsWhatLldbCaptured() throws {
            let app = "/usr/lib/GNUstep/Applications/Gridlock.app"
            guard FileManager.default.fileExists(atPath: app), FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run") else {
                throw XCTSkip("needs gridlock.app and xvfb (apt-get install gridlock.app xvfb)")
            }
            guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
            let log = work.appendingPathComponent("gridlock.log")
            let xvfb = Process()
            xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
            xvfb.arguments = ["-a", BinaryRunner.executable.path, "record", "--no-launch-end", "--duration", "20", "--output", log.path, "--", app]
            xvfb.standardOutput = FileHandle.nullDevice
            xvfb.standardError = FileHandle.nullDevice
            try xvfb.run()
            xvfb.waitUntilExit()
            guard FileManager.default.fileExists(atPath: log.path) else { throw XCTSkip("the recording did not run (ptrace or X not available)") }
            let recorded = try BinaryRunner.run(["trace", log.path, "--format", "json"])
            let captured = try BinaryRunner.run(["trace", corpus.appendingPathComponent("e2e/gridlock/b-gridlock-lldb-nsprint.txt").path, "--format", "json"])
            func names(_ result: BinaryRunner.Result) throws -> [String] {
                let json = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
                return (json["events"] as? [[String: Any]] ?? []).map { $0["name"] as? String ?? "(nil)" }
            }
            let lldb = try names(captured), ours = try names(recorded)
            XCTAssertGreaterThan(ours.count, 150, "a 20 s launch loads most of what the 30 s capture did")
            // Every frame is named by a real symbol or a method of consistent metadata, never by
            // bytes taken for a class (`+[#16@0:8 awakeFromNib]` once stood for the app's own
            // `-[GameController awakeFromNib]`).
            let text = try String(contentsOf: log, encoding: .utf8)
            let functions = text.split(separator: "\n").filter { $0.contains("frame #") }.compactMap { $0.split(separator: "`", maxSplits: 1).last }
            XCTAssertGreaterThan(functions.count, 1000)
            for function in Set(functions) {
                XCTAssertNotNil(
                    function.range(of: #"^(\?|[A-Za-z_][A-Za-z0-9_.@]*|[+-]\[[A-Za-z_][A-Za-z0-9_]*(\([A-Za-z0-9_]*\))? [A-Za-z_][A-Za-z0-9_:]*\])$"#, options: .regularExpression),
                    String(function))
            }
            XCTAssertTrue(functions.contains("-[GameController awakeFromNib]"), "the app's own method is named")
            // GNUstep's menu item asks for its checkmark while the app's awakeFromNib builds a
            // menu: the toolkit's lookup, a note that never fails the app.
            let verdict = try BinaryRunner.run(["analyze", log.path, "--bundle", app, "--format", "json", "--fail-on", "never"])
            let verdictJSON = try XCTUnwrap(JSONSerialization.jsonObject(with: verdict.stdout) as? [String: Any])
            let checkmark = try XCTUnwrap(
                (verdictJSON["findings"] as? [[String: Any]])?.first { $0["rule"] as? String == "missing-image" && ($0["names"] as? [String]) == ["NSMenuCheckmark"] })
            XCTAssertEqual(checkmark["gates"] as? Bool, false)
            XCTAssertEqual(Array(ours.prefix(lldb.count)), Array(lldb.prefix(ours.count)), "the same names in the same order")
            // And `analyze` judges the recording as it judges the lldb capture: the same findings.
            let gridlock = corpus.appendingPathComponent("e2e/gridlock")
            func findings(_ logPath: String) throws -> Set<String> {
                let result = try BinaryRunner.run([
                    "analyze", logPath, "--bundle", gridlock.appendingPathComponent("Gridlock.app").path, "--system-images",
                    gridlock.appendingPathComponent("system-images").path, "--format", "json", "--fail-on", "never",
                ])
                XCTAssertEqual(result.status, 0, result.stderr)
                let json = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
                return Set((json["findings"] as? [[String: Any]] ?? []).compactMap { $0["fingerprint"] as? String })
            }
            if ours.count == lldb.count {
                XCTAssertEqual(try findings(log.path), try findings(gridlock.appendingPathComponent("b-gridlock-lldb-nsprint.txt").path))
                // Two launches of one build, days apart, by two capture methods: a baseline of one
                // accepts the other with the default tolerances (no flake).
                func baseline(_ logPath: String, _ name: String) throws -> String {
                    let path = work.appendingPathComponent(name).path
                    let written = try BinaryRunner.run([
                        "baseline", "write", logPath, "--bundle", gridlock.appendingPathComponent("Gridlock.app").path, "--system-images",
                        gridlock.appendingPathComponent("system-images").path, "--output", path,
                    ])
                    XCTAssertEqual(written.status, 0, written.stderr)
                    return path
                }
                let compared = try BinaryRunner.run([
                    "baseline", "compare", try baseline(gridlock.appendingPathComponent("b-gridlock-lldb-nsprint.txt").path, "lldb.json"),
                    try baseline(log.path, "recorded.json"),
                ])
                XCTAssertEqual(compared.status, 0, compared.stdoutText)
                XCTAssertTrue(compared.stdoutText.contains("0 new, 0 fixed, figures within tolerance"), compared.stdoutText)
            }
        }
    }
#endif
