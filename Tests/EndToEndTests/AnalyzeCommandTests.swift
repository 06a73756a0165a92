import Foundation
import TestSupport
import XCTest

/// `imgtrace analyze`, `devices` and `rules` as a user runs them.
final class AnalyzeCommandTests: XCTestCase {
    let examples = Corpus.packageRoot.appendingPathComponent("Examples")
    var log: String { examples.appendingPathComponent("launch.log").path }
    var app: String { examples.appendingPathComponent("SampleApp.app").path }

    private func json(_ result: BinaryRunner.Result) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stderr)
    }

    func testTheExampleFiresEveryRuleAndFailsOnItsErrors() throws {
        let result = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json"])
        XCTAssertEqual(result.status, 1, "missing images are errors: " + result.stderr)
        XCTAssertEqual(result.stderr, "")
        let doc = try json(result)
        XCTAssertEqual(doc["schemaVersion"] as? Int, 2)
        for key in ["device", "metrics", "loads", "findings"] { XCTAssertNotNil(doc[key], key) }
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        // An image's finding carries what other rules found about the same image as its evidence.
        let evidence = findings.flatMap { ($0["evidence"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String } }
        let rules = Set(findings.compactMap { $0["rule"] as? String } + evidence)
        let listed = try BinaryRunner.run(["rules"]).stdoutText.split(separator: "\n").dropFirst()
            .filter { !$0.hasPrefix(" ") }.map { String($0.split(separator: " ")[0]) }  // wrapped prose starts with spaces
        XCTAssertEqual(listed.count, 18)
        // The policy rules need a blind capture, a budget or a baseline (`BaselineTests` and `EvidenceTests` show
        // them); the unused verdicts are `imgtrace unused`'s (`UnusedCommandTests`); slow-image needs a
        // capture that times its requests, which a debugger's is not (`RequestTimeTests`).
        XCTAssertEqual(
            rules,
            Set(listed).subtracting([
                "no-evidence", "budget-exceeded", "baseline-regression", "unused-image", "dynamic-only", "never-loaded", "slow-image",
            ]),
            "the example shows every audit rule firing")
        for finding in findings {
            for key in ["rule", "severity", "fingerprint", "message", "assets", "lines", "values"] { XCTAssertNotNil(finding[key], key) }
        }
        let fingerprints = findings.compactMap { $0["fingerprint"] as? String }
        XCTAssertEqual(Set(fingerprints).count, fingerprints.count, "fingerprints are unique")
        let loads = try XCTUnwrap(doc["loads"] as? [[String: Any]])
        XCTAssertEqual(loads.count, 23)
        let first = loads[0]
        XCTAssertEqual(first["name"] as? String, "AppIcon")
        let resolved = try XCTUnwrap(first["resolved"] as? [String: Any])
        XCTAssertEqual(resolved["source"] as? String, "assetCatalog")
        XCTAssertEqual(resolved["id"] as? String, "Assets.car#AppIcon[phone,3x,any]")
        for key in ["id", "source", "bundle", "path", "how"] { XCTAssertNotNil(resolved[key], key) }
        let missing = try XCTUnwrap(loads.first { $0["name"] as? String == "Tab_Profile" })
        XCTAssertTrue(missing["resolved"] is NSNull)
        XCTAssertTrue((missing["missingReason"] as? String ?? "").contains("case differs"))
        let metrics = try XCTUnwrap(doc["metrics"] as? [String: Any])
        XCTAssertEqual(metrics["launches"] as? Int, 1)
        XCTAssertEqual(((metrics["launch"] as? [String: Any])?["median"] as? [String: Any])?["loads"] as? Int, 21)
        XCTAssertEqual(
            ((metrics["afterLaunch"] as? [String: Any])?["median"] as? [String: Any])?["loads"] as? Int, 2, "the launch-end marker splits the log")
        let again = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json"])
        XCTAssertEqual(again.stdout, result.stdout, "same inputs, same bytes")
        XCTAssertFalse(result.stdoutText.contains(Corpus.packageRoot.path + "/Examples/SampleApp.app/"), "no absolute bundle paths")
    }

    func testTextReportReadsTopToBottom() throws {
        let result = try BinaryRunner.run(["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app"], in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 1)
        let text = result.stdoutText
        let order = ["FAIL: 3 errors", "LAUNCH", "ERRORS (3)", "WARNINGS", "NOTES", "IMAGES LOADED AT LAUNCH"].map { text.range(of: $0)?.lowerBound }
        XCTAssertFalse(order.contains(nil), text)
        XCTAssertEqual(order.compactMap { $0 }, order.compactMap { $0 }.sorted(), "verdict, figures, findings, table")
        XCTAssertTrue(text.contains("fix: "))
        XCTAssertTrue(text.contains("hero_banner.jpg"))
    }

    func testFailOnAndConfigDiscovery() throws {
        XCTAssertEqual(try BinaryRunner.run(["analyze", log, "--bundle", app, "--fail-on", "never"]).status, 0)
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "device: iphone-se\nignore:\n  rules: [missing-image]\n".write(to: dir.appendingPathComponent(".imgtrace.yml"), atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json"], in: dir)
        XCTAssertEqual(result.status, 0, "no errors left once missing-image is ignored: " + result.stderr)
        let device = try XCTUnwrap(try json(result)["device"] as? [String: Any])
        XCTAssertEqual(device["id"] as? String, "iphone-6-7-8-se", "a former id in a config names its profile")
        let flag = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json", "--device", "ipad-pro-13-m4"], in: dir)
        XCTAssertEqual((try json(flag)["device"] as? [String: Any])?["id"] as? String, "ipad-pro-13-m4", "flags override the config")
        XCTAssertEqual(try BinaryRunner.run(["analyze", log, "--bundle", app, "--fail-on", "note"], in: dir).status, 1)
    }

    /// A millisecond limit too large for microseconds is never reached: it once wrapped negative,
    /// and `slow-image` fired on every name of a log that times nothing.
    func testAHugeMillisecondLimitIsNeverReachedNotWrapped() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("huge.yml")
        try "thresholds:\n  slowImageMilliseconds: 9223372036854776\nbudgets:\n  maxMainThreadImageMilliseconds: 9223372036854776\n".write(
            to: config, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", log, "--bundle", app, "--config", config.path, "--format", "json", "--fail-on", "never"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let rules = (try json(result)["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        XCTAssertFalse(rules.contains("slow-image"), "\(rules)")
        XCTAssertFalse(rules.contains("budget-exceeded"), "\(rules)")
    }

    func testInputErrorsExitTwoWithOneLineAndNoOutputFile() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("report.json").path
        let noLog = try BinaryRunner.run(["analyze", dir.appendingPathComponent("nope.log").path, "--bundle", app, "--format", "json", "--output", output])
        XCTAssertEqual(noLog.status, 2)
        XCTAssertTrue(noLog.stderr.contains("nope.log"), noLog.stderr)
        XCTAssertEqual(noLog.stderr.split(separator: "\n").count, 1)
        XCTAssertEqual(noLog.stdout.count, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "no partial output")

        let noBundle = try BinaryRunner.run(["analyze", log, "--bundle", dir.appendingPathComponent("Missing.app").path])
        XCTAssertEqual(noBundle.status, 2)
        XCTAssertTrue(noBundle.stderr.contains("Missing.app"), noBundle.stderr)

        let config = dir.appendingPathComponent("bad.yml")
        try "device: iphone-se\nthreshold:\n  largeFileBytes: 1\n".write(to: config, atomically: true, encoding: .utf8)
        let badConfig = try BinaryRunner.run(["analyze", log, "--bundle", app, "--config", config.path])
        XCTAssertEqual(badConfig.status, 2)
        XCTAssertTrue(badConfig.stderr.contains("bad.yml: line 2, column 1: unknown key `threshold`"), badConfig.stderr)
        XCTAssertEqual(badConfig.stdout.count, 0)

        let written = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json", "--output", output, "--fail-on", "never"])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(written.stdout.count, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["bad.yml", "report.json"], "no temporary file left")
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))))
    }

    func testUsageErrorsExitSixtyFour() throws {
        let device = try BinaryRunner.run(["analyze", log, "--bundle", app, "--device", "pixel-9"])
        XCTAssertEqual(device.status, 64)
        XCTAssertTrue(device.stderr.contains("imgtrace devices"), device.stderr)
        XCTAssertEqual(try BinaryRunner.run(["analyze", log]).status, 64, "--bundle is required")
        XCTAssertEqual(try BinaryRunner.run(["analyze", log, "--bundle", app, "--launch-end", "("]).status, 64)
        XCTAssertEqual(try BinaryRunner.run(["analyze", log, "--bundle", app, "--fail-on", "sometimes"]).status, 64)
    }

    /// Two launches: the run's figures are the median launch's with their range, never their sum.
    func testSeveralLogsAreReportedPerLogAndCombined() throws {
        let result = try BinaryRunner.run(["analyze", log, log, "--bundle", app, "--format", "json", "--fail-on", "never"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let doc = try json(result)
        let logs = try XCTUnwrap((doc["inputs"] as? [String: Any])?["logs"] as? [[String: Any]])
        XCTAssertEqual(logs.count, 2)
        let loads = try XCTUnwrap(doc["loads"] as? [[String: Any]])
        XCTAssertEqual(loads.filter { $0["log"] as? Int == 1 }.count, 23)
        let metrics = try XCTUnwrap(doc["metrics"] as? [String: Any])
        XCTAssertEqual(metrics["launches"] as? Int, 2)
        let spread = try XCTUnwrap(metrics["launch"] as? [String: Any])
        let launch = try XCTUnwrap(spread["median"] as? [String: Any])
        XCTAssertEqual(launch["loads"] as? Int, 21, "one launch's loads, not the two launches' 42")
        XCTAssertEqual((spread["max"] as? [String: Any])?["loads"] as? Int, 21)
        // placeholder ×3 and the onboarding path ×2 in each launch: 3 repeats per launch.
        XCTAssertEqual(launch["repeated"] as? Int, 3, "repeats are counted within each launch")
        let single = try json(try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json"]))
        let one = try XCTUnwrap(((single["metrics"] as? [String: Any])?["launch"] as? [String: Any])?["median"] as? [String: Any])
        XCTAssertEqual(one["repeated"] as? Int, 3)
        XCTAssertEqual(launch["images"] as? Int, one["images"] as? Int, "the same images, counted once")
        XCTAssertEqual(launch["decodedBytes"] as? Int, one["decodedBytes"] as? Int)
    }

    func testDevicesListsTheScreenTable() throws {
        let result = try BinaryRunner.run(["devices"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.stdoutText.contains("iphone-16-17-pro-max (default)"), result.stdoutText)
        XCTAssertTrue(result.stdoutText.contains("440×956"))
        XCTAssertTrue(result.stdoutText.contains("ipad-pro-13-m4"))
        let rules = try BinaryRunner.run(["rules", "--verbose"])
        XCTAssertTrue(rules.stdoutText.contains("repeated-load (note)"), rules.stdoutText)
        XCTAssertTrue(rules.stdoutText.contains("does not fire:"))
    }

    /// A source tree given as the bundle is read as Xcode copies it: loose images under their flat
    /// names, catalogs by set, so the names a launch asks for resolve as in the built app.
    func testASourceTreeAsTheBundleResolvesShippedNames() throws {
        let result = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleSource", "--fail-on", "never", "--format", "json"], in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 0, result.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let names = try XCTUnwrap(doc["names"] as? [[String: Any]])
        func resolved(_ name: String) -> String? { (names.first { $0["name"] as? String == name }?["resolved"] as? [String: Any])?["path"] as? String }
        // Loose files in `SampleApp/Images/` and a localized one (before: "not found in the app").
        XCTAssertEqual(resolved("star"), "SampleApp/Images/star@3x.png")
        XCTAssertEqual(resolved("welcome")?.hasSuffix(".lproj/welcome@3x.png"), true)
        let missing = (doc["findings"] as? [[String: Any]] ?? []).filter { $0["rule"] as? String == "missing-image" }
        XCTAssertFalse(missing.contains { ($0["message"] as? String ?? "").hasPrefix("`star`") }, "\(missing)")
    }

    /// A catalog thinned for @2x phones (the App Store's cut) is judged on such a phone by
    /// default; on another device the variants thinning removed are not findings, and it says so.
    func testAThinnedCatalogIsJudgedForWhatItWasThinnedFor() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let car = corpus.appendingPathComponent("car/servicensw_appstore_thinned_dark.car").path
        let work = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let log = work.appendingPathComponent("launch.log")
        try "2026-11-21 09:14:02.118204+0100 App[1:2] start\nSpashIcon\n".write(to: log, atomically: true, encoding: .utf8)
        let chosen = try BinaryRunner.run(["analyze", log.path, "--bundle", car, "--fail-on", "never"])
        XCTAssertTrue(chosen.stdoutText.contains("iphone-6-7-8-se"), chosen.stdoutText)
        XCTAssertTrue(chosen.stdoutText.contains("chosen for servicensw_appstore_thinned_dark.car's thinning (cut for @2x phone devices)"), chosen.stdoutText)
        let other = try BinaryRunner.run(["analyze", log.path, "--bundle", car, "--fail-on", "never", "--device", "iphone-16-17-pro-max", "--format", "json"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: other.stdout) as? [String: Any])
        let rules = (doc["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        XCTAssertFalse(rules.contains("scale-mismatch"), "before: \"is @2x on a @3x screen … add a @3x variant\"")
        let warnings = (doc["warnings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        let expected = "was thinned for @2x phone devices: judged on iphone-16-17-pro-max (@3x phone), the variants thinning removed are not findings"
        XCTAssertTrue(warnings.contains { $0.hasSuffix(expected) }, "\(warnings)")
    }

    /// A device-specific export is an `.ipa` whose catalog the App Store's thinning cut: the same
    /// catalog zipped as `Payload/App.app/Assets.car` (built here, never copied into the project)
    /// chooses the same device, and its removed variants are no findings on another.
    func testADeviceSpecificIpaExportIsJudgedForItsDevice() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let car = try [UInt8](Data(contentsOf: corpus.appendingPathComponent("car/servicensw_appstore_thinned_dark.car")))
        let work = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let ipa = work.appendingPathComponent("App iPhone 8.ipa"), log = work.appendingPathComponent("launch.log")
        let plist = Array(
            #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleExecutable</key><string>App</string><key>CFBundleIdentifier</key><string>au.example.app</string></dict></plist>"#
                .utf8)
        try Data(ZipWriter.zip([("Payload/App.app/Info.plist", plist), ("Payload/App.app/Assets.car", car)])).write(to: ipa)
        try "2026-11-21 09:14:02.118204+0100 App[1:2] start\nSpashIcon\n".write(to: log, atomically: true, encoding: .utf8)
        let chosen = try BinaryRunner.run(["analyze", log.path, "--bundle", ipa.path, "--fail-on", "never"])
        XCTAssertEqual(chosen.status, 0, chosen.stderr)
        XCTAssertTrue(chosen.stdoutText.contains("iphone-6-7-8-se"), chosen.stdoutText)
        XCTAssertTrue(chosen.stdoutText.contains("Assets.car's thinning (cut for @2x phone devices)"), chosen.stdoutText)
        let other = try BinaryRunner.run(["analyze", log.path, "--bundle", ipa.path, "--fail-on", "never", "--device", "iphone-16-17-pro-max", "--format", "json"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: other.stdout) as? [String: Any])
        let rules = (doc["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        XCTAssertFalse(rules.contains("scale-mismatch"), "\(rules)")
        XCTAssertFalse(rules.contains("missing-image"), "SpashIcon is in the thinned catalog: \(rules)")
    }
}
