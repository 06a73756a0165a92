import Foundation
import LaunchTrace
import TestSupport
import XCTest

/// Whose load is it: a load whose backtrace shows no frame of the app's modules, or without a
/// backtrace a name in `toolkit.names`, is the toolkit's; its missing or repeated lookups are
/// notes that never fail the run.
final class ToolkitLoadTests: XCTestCase {
    func testFramesNameTheirModules() {
        // As the reader keeps an lldb or `record` frame (from the address on), and as printed.
        XCTAssertEqual(BacktraceFrame("0x00007fea862f5311 libgnustep-gui.so.0.29.0`+[NSImage imageNamed:]"), .module("libgnustep-gui.so.0.29.0"))
        XCTAssertEqual(BacktraceFrame("  * frame #1: 0x0000000100003f2c Shop`-[Cart viewDidLoad] + 44 at Cart.m:12"), .module("Shop"))
        XCTAssertEqual(BacktraceFrame("#3  0x00007ffff7a1b2c3 in +[NSCursor initialize] () from /usr/lib/libgnustep-gui.so.0.29"), .module("libgnustep-gui.so.0.29"))
        // gdb prints no module for the main program or a library with debug information.
        XCTAssertEqual(BacktraceFrame("#1  0x0000555555555189 in main () at main.m:9"), .unknownModule)
        XCTAssertEqual(BacktraceFrame("0x0000555555555189 ?"), .unknownModule)
        XCTAssertEqual(BacktraceFrame("   "), .notAFrame)
    }

    func testTheCodeThatCalledTheImageAPIOwnsTheLoad() {
        let app: Set<String> = ["Shop"]
        let api = "0x1 libgnustep-gui.so.0.29.0`+[NSImage imageNamed:]"
        let toolkit = [api, "0x2 libobjc.so.4`?"]
        XCTAssertEqual(LoadOwner.of([api], appModules: app), .unknown, "the API alone names no caller")
        XCTAssertEqual(LoadOwner.of(toolkit, appModules: app), .toolkit)
        XCTAssertEqual(LoadOwner.of([api, "0x3 Shop`-[Cart load]"], appModules: app), .app)
        XCTAssertEqual(LoadOwner.of([api, "#4  0x5 in main () at main.m:9"], appModules: app), .app, "an unnamed module may be the app's")
        XCTAssertEqual(LoadOwner.of([], appModules: app), .unknown)
        // GNUstep's menu item asks for its checkmark while the app builds its menu: the toolkit's
        // work on the app's behalf, whatever app frame is further up.
        let checkmark = [
            api, "0x2 libgnustep-gui.so.0.29.0`-[NSMenuItem initWithTitle:action:keyEquivalent:]",
            "0x3 libgnustep-gui.so.0.29.0`-[NSMenu insertItemWithTitle:action:keyEquivalent:atIndex:]", "0x4 Shop`-[GameController awakeFromNib]",
        ]
        XCTAssertEqual(LoadOwner.of(checkmark, appModules: app), .toolkit)
        XCTAssertEqual(LoadOwner.of(checkmark, appModules: app, rule: .anyAppFrame), .app, "a nib's image is the app's")
        // A funnel's hit under the public method the app called (-O0 keeps its frame): the app's.
        let funnel = [
            "0x1 UIKitCore`+[UIImage imageNamed:inBundle:withConfiguration:]", "0x2 UIKitCore`+[UIImage imageNamed:] + 12",
            "0x3 Shop`-[Cart viewDidLoad] + 44 at Cart.m:12",
        ]
        XCTAssertEqual(LoadOwner.of(funnel, appModules: app), .app)
        let gdb = [
            "#0 0x1 in +[NSImage imageNamed:] ()", "#1  0x2 in +[NSImage imageNamed:] () from /usr/lib/libgnustep-gui.so.0.29", "#2  0x3 in main ()",
        ]
        XCTAssertEqual(LoadOwner.of(gdb, appModules: app), .app, "gdb's frames")
    }

    /// A UIKit-shaped app `Shop.app` (executable `Shop`) and a `record`-shaped log: the app's
    /// code asks for `banner` (missing), GNUstep's cursor code for `GSArrowCursor` and
    /// `custom_cursor` (missing), menu code for `menu_arrow` three times, a menu item for
    /// `NSMenuCheckmark` (missing) while the app's code built the menu, and `NSMenuArrow` is asked
    /// for without a backtrace.
    private func launch() throws -> (dir: URL, log: String, app: String) {
        let dir = try BinaryRunner.temporaryDirectory()
        let app = dir.appendingPathComponent("Shop.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>CFBundleExecutable</key><string>Shop</string></dict></plist>
        """.write(to: app.appendingPathComponent("Info.plist"), atomically: true, encoding: .utf8)
        try Data(ImageWriter.png(width: 30, height: 30)).write(to: app.appendingPathComponent("menu_arrow@3x.png"))
        try Data(ImageWriter.png(width: 60, height: 30)).write(to: app.appendingPathComponent("menu_icon@3x.png"))
        let gui = "libgnustep-gui.so.0.29.0"
        func hit(_ name: String, _ frames: [String]) -> String {
            "2026-11-24 08:00:52.594 [Shop] +[NSImage imageNamed:]: \"\(name)\"\n"
                + frames.enumerated().map { "    frame #\($0.offset): 0x00007fea862f53\($0.offset)1 \($0.element)\n" }.joined()
        }
        var log = hit("banner", ["\(gui)`+[NSImage imageNamed:]", "Shop`-[Cart viewDidLoad]"])
        log += hit("GSArrowCursor", ["\(gui)`+[NSImage imageNamed:]", "\(gui)`+[NSCursor initialize]", "libobjc.so.4.0.0`?"])
        log += hit("custom_cursor", ["\(gui)`+[NSImage imageNamed:]", "\(gui)`+[NSCursor initialize]"])
        for _ in 0..<3 { log += hit("menu_arrow", ["\(gui)`+[NSImage imageNamed:]", "\(gui)`-[NSMenuView update]"]) }
        log += hit("NSMenuCheckmark", ["\(gui)`+[NSImage imageNamed:]", "\(gui)`-[NSMenuItem initWithTitle:action:keyEquivalent:]", "Shop`-[GameController awakeFromNib]"])
        log += "2026-11-24 08:00:52.700 [Shop] +[NSImage imageNamed:]: \"NSMenuArrow\"\n"
        let path = dir.appendingPathComponent("launch.log")
        try log.write(to: path, atomically: true, encoding: .utf8)
        return (dir, path.path, app.path)
    }

    func testTheToolkitsLookupsAreNotesThatNeverFail() throws {
        let (dir, log, app) = try launch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let result = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json", "--fail-on", "note"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        func finding(_ rule: String, _ name: String) -> [String: Any]? {
            findings.first { $0["rule"] as? String == rule && ($0["names"] as? [String]) == [name] }
        }
        // The app's own code asked for `banner`: an error that fails.
        XCTAssertEqual(finding("missing-image", "banner")?["severity"] as? String, "error")
        XCTAssertNil(finding("missing-image", "banner")?["gates"])
        // GNUstep's cursor code: by backtrace (`custom_cursor` is in no list) and by name list.
        for name in ["GSArrowCursor", "custom_cursor", "NSMenuArrow", "NSMenuCheckmark"] {
            let missing = try XCTUnwrap(finding("missing-image", name), name)
            XCTAssertEqual(missing["severity"] as? String, "note", name)
            XCTAssertEqual(missing["gates"] as? Bool, false, name)
            XCTAssertTrue((missing["fix"] as? String ?? "").hasPrefix("Nothing to change in the app"), name)
        }
        // The checkmark's backtrace has the app's frame further up: the fix says what decided
        // (the code that called the image API), not that the backtrace has no app frame.
        let checkmarkFix = try XCTUnwrap(finding("missing-image", "NSMenuCheckmark")?["fix"] as? String)
        XCTAssertFalse(checkmarkFix.contains("no app frame"), checkmarkFix)
        XCTAssertTrue(checkmarkFix.contains("the code that called the image API is the toolkit's"), checkmarkFix)
        let repeated = try XCTUnwrap(finding("repeated-load", "menu_arrow"))
        XCTAssertEqual(repeated["gates"] as? Bool, false)
        XCTAssertEqual(result.status, 1, "banner still fails")

        // The app's code asks for an image it ships instead of the missing banner: not even
        // --fail-on note fails on the toolkit's lookups.
        let text = try String(contentsOfFile: log, encoding: .utf8)
        let clean = dir.appendingPathComponent("clean.log")
        try text.replacingOccurrences(of: "\"banner\"", with: "\"menu_icon\"").write(to: clean, atomically: true, encoding: .utf8)
        // (The app ships menu_arrow loose: that is the app's to fix, whoever loads it.)
        let noLoose = dir.appendingPathComponent("noloose.yml")
        try "ignore:\n  rules: [loose-image]\n".write(to: noLoose, atomically: true, encoding: .utf8)
        let passed = try BinaryRunner.run(["analyze", clean.path, "--bundle", app, "--fail-on", "note", "--config", noLoose.path])
        XCTAssertEqual(passed.status, 0, passed.stdoutText)
        XCTAssertTrue(passed.stdoutText.contains("PASS"), passed.stdoutText)
        XCTAssertTrue(passed.stdoutText.contains("  missing     0\n"), "the toolkit's missing names are not the app's: \(passed.stdoutText)")
        // A baseline keeps the toolkit's findings as not gating: compared with an empty launch, they are new but pass.
        let base = dir.appendingPathComponent("base.json").path
        let empty = dir.appendingPathComponent("empty.log")
        try "2026-11-24 08:00:52.594 [Shop] +[NSImage imageNamed:]: \"menu_icon\"\n    frame #0: 0x1 lib`+[NSImage imageNamed:]\n    frame #1: 0x2 Shop`main\n"
            .write(to: empty, atomically: true, encoding: .utf8)
        XCTAssertEqual(try BinaryRunner.run(["baseline", "write", empty.path, "--bundle", app, "--output", base, "--config", noLoose.path]).status, 0)
        let newBase = dir.appendingPathComponent("new.json").path
        XCTAssertEqual(try BinaryRunner.run(["baseline", "write", clean.path, "--bundle", app, "--output", newBase, "--config", noLoose.path]).status, 0)
        XCTAssertTrue(try String(contentsOfFile: newBase, encoding: .utf8).contains("\"gates\": false"))
        let config = dir.appendingPathComponent("c.yml")
        // Only the findings are compared here: the launch figures may grow as they like.
        try "baseline:\n  launchLoadsTolerance: 100\n  launchImagesTolerance: 100\n  launchDecodedBytesTolerance: 100\n  launchBytesOnDiskTolerance: 100\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let compared = try BinaryRunner.run(["baseline", "compare", base, newBase, "--fail-on", "note", "--config", config.path])
        XCTAssertEqual(compared.status, 0, compared.stdoutText)
        XCTAssertTrue(compared.stdoutText.contains("BASELINE: 5 new, 0 fixed, figures within tolerance — PASS"), compared.stdoutText)
    }

    /// Text, Markdown (the job summary), HTML and GitHub's annotations list the app's findings
    /// first and the toolkit's notes apart after them: no toolkit name before its heading.
    func testTheToolkitsNotesStandApartFromTheAppsFindingsInEveryReportForPeople() throws {
        let (dir, log, app) = try launch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let headings = ["text": "TOOLKIT NOTES (", "markdown": "toolkit notes: the toolkit's own lookups", "html": "<h2>The toolkit's own lookups ("]
        for (format, heading) in headings {
            let report = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", format, "--fail-on", "never"]).stdoutText
                .replacingOccurrences(of: "<wbr>", with: "").replacingOccurrences(of: "&#39;", with: "'")
            let apart = try XCTUnwrap(report.range(of: heading), "\(format): \(report)").lowerBound
            let before = report[..<apart], after = report[apart...]
            XCTAssertTrue(before.contains("banner"), "\(format): the app's missing name comes first")
            // `menu_arrow` is both: the app ships it loose (its own note), the toolkit looks it up three times.
            XCTAssertTrue(after.contains("menu_arrow"), "\(format): the toolkit's repeated lookups under its heading")
            for name in ["GSArrowCursor", "custom_cursor", "NSMenuCheckmark"] {
                XCTAssertTrue(after.contains(name), "\(format): \(name) under the toolkit's heading")
                // Only the loads table (after the findings) may name it again.
                let findingsPart = format == "html" ? before.components(separatedBy: "<h2>Findings</h2>").last ?? "" : String(before)
                XCTAssertFalse(findingsPart.contains("`\(name)`") || findingsPart.contains("<code>\(name)</code>"), "\(format): \(name) before the heading")
            }
            XCTAssertTrue(report.contains("of them the toolkit's"), "\(format): the counts say how many notes are the toolkit's")
        }
        let github = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "github", "--fail-on", "never"]).stdoutText
        XCTAssertTrue(github.contains("title=imgtrace missing-image::`banner`"), github)
        XCTAssertFalse(github.contains("GSArrowCursor") || github.contains("looked up 3 times"), github)
        XCTAssertTrue(github.contains("::notice title=imgtrace toolkit::5 notes on the toolkit's own lookups are not annotated"), github)
    }

    /// With the toolkit's images given, a name they lack is not sent back to --system-images.
    func testTheToolkitsMissingNameDoesNotSuggestTheFoldersGiven() throws {
        guard let corpus = Corpus.root?.appendingPathComponent("e2e/gridlock") else { throw XCTSkip(Corpus.missingMessage) }
        let empty = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: empty) }
        func fixes(_ extra: [String]) throws -> String {
            let run = try BinaryRunner.run(
                [
                    "analyze", corpus.appendingPathComponent("b-gridlock-lldb-nsprint.txt").path, "--bundle", corpus.appendingPathComponent("Gridlock.app").path,
                    "--fail-on", "never", "--format", "json",
                ] + extra)
            XCTAssertEqual(run.status, 0, run.stderr)
            return run.stdoutText
        }
        XCTAssertTrue(try fixes([]).contains("--system-images with the toolkit's images resolves it"))
        let given = try fixes(["--system-images", empty.path])
        XCTAssertFalse(given.contains("--system-images with the toolkit's images resolves it"), "suggests what was given")
        XCTAssertTrue(given.contains("the --system-images folders given do not hold it either"))
    }

    func testBacktracesThatNeverShowTheAppDecideNothing() throws {
        let (dir, log, app) = try launch()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The log's program is `Shop`; this bundle's executable is `Other`: no frame is the app's.
        let plist = URL(fileURLWithPath: app).appendingPathComponent("Info.plist")
        try String(contentsOf: plist, encoding: .utf8).replacingOccurrences(of: "<string>Shop</string>", with: "<string>Other</string>")
            .write(to: plist, atomically: true, encoding: .utf8)
        let other = URL(fileURLWithPath: dir.path).appendingPathComponent("Other.app")
        try FileManager.default.moveItem(atPath: app, toPath: other.path)
        let result = try BinaryRunner.run(["analyze", log, "--bundle", other.path, "--format", "json"])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let warnings = (doc["warnings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        XCTAssertTrue(warnings.contains { $0.hasPrefix("no backtrace frame is in the app's own code (`Other`)") }, "\(warnings)")
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        func severity(_ name: String) -> String? {
            findings.first { $0["rule"] as? String == "missing-image" && ($0["names"] as? [String]) == [name] }?["severity"] as? String
        }
        XCTAssertEqual(severity("custom_cursor"), "error", "only a backtrace said it was the toolkit's")
        XCTAssertEqual(severity("GSArrowCursor"), "note", "the name list still does")
    }

    func testAnEmptyToolkitListMakesEveryLoadWithoutABacktraceTheApps() throws {
        let (dir, log, app) = try launch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("c.yml")
        try "toolkit:\n  names: []\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["analyze", log, "--bundle", app, "--format", "json", "--config", config.path])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        let arrow = try XCTUnwrap(findings.first { ($0["names"] as? [String]) == ["NSMenuArrow"] })
        XCTAssertEqual(arrow["severity"] as? String, "error")
        let cursor = try XCTUnwrap(findings.first { ($0["names"] as? [String]) == ["GSArrowCursor"] })
        XCTAssertEqual(cursor["gates"] as? Bool, false, "a backtrace still decides")
        let bad = dir.appendingPathComponent("bad.yml")
        try "toolkit:\n  name: [x]\n".write(to: bad, atomically: true, encoding: .utf8)
        let refused = try BinaryRunner.run(["analyze", log, "--bundle", app, "--config", bad.path])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("bad.yml: line 2, column 3: unknown key `name` in `toolkit`"), refused.stderr)
    }
}
