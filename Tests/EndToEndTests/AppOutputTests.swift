import Foundation
import TestSupport
import XCTest

/// The seed technique's own log: `po $arg3` on Xcode's *All Output*, the app's printed lines
/// between the names. Lines that look like the app's output are set aside and said; names still
/// count, missing ones included.
final class AppOutputTests: XCTestCase {
    private var work: URL!

    override func setUpWithError() throws {
        work = try BinaryRunner.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// `Examples/launch.log` with what apps commonly print mixed in (after its lines `after`,
    /// 1-based), at launch and after it, plus one real missing name with a blank.
    private func mixedLog() throws -> URL {
        let example = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("Examples/launch.log"), encoding: .utf8)
        let inserts: [Int: [String]] = [
            1: ["viewDidLoad called", "fetched 20 items", "true", "Optional(\"user_42\")"],
            9: [
                "<UIView: 0x7f8b1c40a2b0; frame = (0 0; 390 844)>", "[\"a\", \"b\"]", "▿ User", "https://api.example.com/feed", "42",
                "Loading feed...", "{\"id\": 7}", "hero image", "Profile Header",
            ],
            29: ["Optional(nil)", "settings opened"],
        ]
        var lines: [String] = []
        for (index, line) in example.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            lines.append(String(line))
            lines += inserts[index + 1] ?? []
        }
        let url = work.appendingPathComponent("mixed.log")
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    private func json(_ log: String, _ extra: [String] = []) throws -> [String: Any] {
        let result = try BinaryRunner.run(["analyze", log, "--bundle", "Examples/SampleApp.app", "--format", "json"] + extra, in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 1, result.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
    }

    private func launchLoads(_ report: [String: Any]) -> Int? {
        (((report["metrics"] as? [String: Any])?["launch"] as? [String: Any])?["median"] as? [String: Any])?["loads"] as? Int
    }

    private func findings(_ report: [String: Any]) -> [String: String] {
        Dictionary(
            ((report["findings"] as? [[String: Any]]) ?? []).map { ($0["fingerprint"] as! String, $0["message"] as! String) },
            uniquingKeysWith: { a, _ in a })
    }

    func testTheAppsOutputChangesNoFindingAndNoFigure() throws {
        let mixed = try mixedLog()
        let alone = try json("Examples/launch.log"), together = try json(mixed.path)
        // The same findings, plus the one real name added.
        let before = findings(alone), after = findings(together)
        XCTAssertEqual(
            Set(after.keys).subtracting(before.keys).map { after[$0]! }, ["`Profile Header` loads nothing (1× at launch): not found in the app (no --system-images given)"])
        XCTAssertEqual(Set(before.keys).subtracting(after.keys), [])
        XCTAssertEqual(launchLoads(together), launchLoads(alone).map { $0 + 1 }, "the launch's loads: the example's and `Profile Header`")
        let afterLaunch = { (report: [String: Any]) in
            (((report["metrics"] as? [String: Any])?["afterLaunch"] as? [String: Any])?["median"] as? [String: Any])?["loads"] as? Int
        }
        XCTAssertEqual(afterLaunch(together), afterLaunch(alone))
        // Counted in the JSON, with the first line.
        let setAside = try XCTUnwrap(((together["inputs"] as? [String: Any])?["logs"] as? [[String: Any]])?.first?["setAside"] as? [String: Any])
        XCTAssertEqual(setAside["output"] as? Int, 10, "`[\"a\", \"b\"]` is read as no value at all: neither a hit nor counted")
        XCTAssertEqual(setAside["firstOutputLine"] as? Int, 3)
        XCTAssertEqual(setAside["unsure"] as? Int, 3)
        let warnings = try XCTUnwrap(together["warnings"] as? [[String: Any]]).compactMap { $0["message"] as? String }
        XCTAssertTrue(warnings.contains { $0.hasPrefix("10 lines not read as names: they look like the app's own output") && $0.contains("first at line 3") }, "\(warnings)")
        XCTAssertTrue(warnings.contains { $0.hasPrefix("`hero image` resolves to no image") }, "\(warnings)")
        // And in the text and HTML reports.
        for format in ["text", "html"] {
            let report = try BinaryRunner.run(["analyze", mixed.path, "--bundle", "Examples/SampleApp.app", "--format", format], in: Corpus.packageRoot)
            XCTAssertTrue(report.stdoutText.contains("10 lines not read as names"), format)
            XCTAssertTrue(report.stdoutText.contains("first at line 3"), format)
        }
    }

    /// The old behaviour is one switch away: every bare line is a name.
    func testNamesOnlyTakesEveryLine() throws {
        let mixed = try mixedLog()
        let all = try json(mixed.path, ["--names-only"])
        let messages = findings(all).values
        XCTAssertTrue(messages.contains { $0.hasPrefix("`viewDidLoad called` loads nothing") }, "\(messages)")
        XCTAssertTrue(messages.contains { $0.hasPrefix("`true` loads nothing") })
        let setAside = ((all["inputs"] as? [String: Any])?["logs"] as? [[String: Any]])?.first?["setAside"] as? [String: Any]
        XCTAssertEqual(setAside?["output"] as? Int, 0)
        let config = work.appendingPathComponent("names-only.yml")
        try "namesOnly: true\n".write(to: config, atomically: true, encoding: .utf8)
        XCTAssertEqual(launchLoads(try json(mixed.path, ["--config", config.path])), launchLoads(all), "the config switch does the same")
    }
}
