import Foundation
import TestSupport
import XCTest

/// `imgtrace unused` on a real app's source tree: every verdict there checked by hand.
final class UnusedCommandTests: XCTestCase {
    func testHomeAssistantHasExactlyItsUnreferencedSets() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let tree = corpus.appendingPathComponent("sources/home-assistant-ios").path
        // One run (a debug build parses the 1,622 Swift files in about 30 s): --fail-on warning fails on them.
        let result = try BinaryRunner.run(["unused", "--bundle", tree, "--source-root", tree, "--format", "json", "--all", "--fail-on", "warning"])
        XCTAssertEqual(result.status, 1, result.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let images = try XCTUnwrap(doc["images"] as? [[String: Any]])
        let unused = images.filter { $0["verdict"] as? String == "unused-image" }.compactMap { $0["name"] as? String }
        // The corpus's MANIFEST: ohf-launch and watch-frame have no reference of any kind in the whole
        // repository. Its search for names also counted `.gear` for `Onboarding/Gear`, but that
        // `.gear` is an SF Symbol (`MacWebViewTitleBar.swift:418`, a switch returning `SFSymbol`):
        // a set in a provides-namespace folder has the symbol `.Onboarding.gear`, which nothing uses.
        XCTAssertEqual(unused.sorted(), ["Onboarding/Gear", "ohf-launch", "watch-frame"])
        func keptBy(_ name: String) -> [String] { images.first { $0["name"] as? String == name }?["keptBy"] as? [String] ?? [] }
        // What a plain string search misses, and what keeps each here.
        XCTAssertTrue(keptBy("icon-red").contains { $0.hasPrefix("pattern `icon-*` built at run time") }, "\(keptBy("icon-red"))")
        XCTAssertTrue(keptBy("Onboarding/World").contains { $0.hasPrefix("symbol `.Onboarding.world`") }, "\(keptBy("Onboarding/World"))")
        XCTAssertTrue(keptBy("AppIcon").first?.hasPrefix("the app's icon") == true)
        let summary = try XCTUnwrap(doc["unused"] as? [String: Any])
        XCTAssertEqual(summary["bytesToSave"] as? Int, images.filter { $0["verdict"] as? String == "unused-image" }.reduce(0) { $0 + ($1["bytesOnDisk"] as? Int ?? 0) })
        XCTAssertEqual(summary["bytesToSave"] as? Int, 464_982)
        // They are the findings, warnings that fail at --fail-on warning.
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        XCTAssertEqual(
            findings.filter { $0["rule"] as? String == "unused-image" }.compactMap { $0["names"] as? [String] }.flatMap { $0 }.sorted(),
            ["Onboarding/Gear", "ohf-launch", "watch-frame"])
    }

    func testTheWholeRepositoryIsJudgedByWhatItsTargetsShip() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let tree = corpus.appendingPathComponent("sources/home-assistant-ios-repo").path
        let result = try BinaryRunner.run(["unused", "--bundle", tree, "--source-root", tree, "--format", "json", "--all"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let images = try XCTUnwrap(doc["images"] as? [[String: Any]])
        let unused = images.filter { $0["verdict"] as? String == "unused-image" }
        // The icon sources, App Store images and snapshot references ship in no target: not findings.
        XCTAssertEqual(unused.compactMap { $0["name"] as? String }.sorted(), ["Onboarding/Gear", "ohf-launch", "watch-frame"])
        for image in unused { XCTAssertEqual(image["targets"] as? [String], ["App", "Extensions-Widgets"], "\(image)") }
        XCTAssertEqual(doc["projects"] as? [String], ["HomeAssistant.xcodeproj"])
        let notShipped = try XCTUnwrap(doc["notShipped"] as? [String])
        XCTAssertTrue(notShipped.contains("fastlane/metadata/app_icon.jpg"))
        XCTAssertTrue(notShipped.contains("icons/OldIcons/dev_1024.png"))
        XCTAssertTrue(notShipped.contains { $0.hasPrefix("Tests/Shared/DesignSystem/Components/__Snapshots__/") })
        XCTAssertFalse(images.contains { ($0["paths"] as? [String] ?? []).contains(where: notShipped.contains) }, "not shipped, so in no figure")
        XCTAssertEqual((doc["unused"] as? [String: Any])?["bytesToSave"] as? Int, unused.reduce(0) { $0 + ($1["bytesOnDisk"] as? Int ?? 0) })
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        XCTAssertTrue(findings.allSatisfy { ($0["message"] as? String ?? "").contains("; shipped by App, Extensions-Widgets)") }, "\(findings)")
    }

    func testABuiltAppAloneIsJudgedByItsCodesStringsAndItsGuessesAreNotes() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        func judged(_ bundle: String) throws -> (status: Int32, images: [[String: Any]], findings: [[String: Any]]) {
            let path = corpus.appendingPathComponent("bundles/" + bundle).path
            let result = try BinaryRunner.run(["unused", "--bundle", path, "--format", "json", "--all", "--fail-on", "warning"])
            let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any], result.stderr)
            return (result.status, doc["images"] as? [[String: Any]] ?? [], doc["findings"] as? [[String: Any]] ?? [])
        }
        func keptBy(_ images: [[String: Any]], _ name: String) -> String? { (images.first { $0["name"] as? String == name }?["keptBy"] as? [String])?.first }
        // The 2014 Objective-C app: its literals are in the executable, its icon and launch
        // images are named by Info.plist and convention. Every image is kept.
        let objc = try judged("bitbar-objc-2014-armv7-ipa/BitbarIOSSample.ipa")
        XCTAssertEqual(objc.status, 0)
        XCTAssertEqual(objc.images.filter { $0["verdict"] as? String == "unused-image" }.count, 0)
        XCTAssertEqual(keptBy(objc.images, "logo_cloud"), "a string in the app's code, BitbarIOSSample")
        XCTAssertEqual(keptBy(objc.images, "Default-568h"), "named in Info.plist")
        // React Native registers its images by name in main.jsbundle.
        let reactNative = try judged("bitbar-reactnative-2023-device-ipa/BitBarSampleApp.ipa")
        XCTAssertEqual(keptBy(reactNative.images, "assets/src/assets/bitbar_logo"), "a string in the app's code, main.jsbundle")
        // Swift keeps short literals inside the machine code: what nothing keeps is a note, not a failure.
        let swift = try judged("uikitcatalog-2025-xcode26-sim/UIKitCatalog-iphonesimulator.app")
        XCTAssertEqual(swift.status, 0, "candidates do not fail --fail-on warning")
        let candidates = swift.findings.filter { $0["rule"] as? String == "unused-image" }
        XCTAssertFalse(candidates.isEmpty)
        for finding in candidates {
            XCTAssertEqual(finding["severity"] as? String, "note")
            XCTAssertTrue((finding["message"] as? String ?? "").contains("the source code was not searched"), "\(finding)")
        }
        XCTAssertNotNil(keptBy(swift.images, "x_icon"), "a name seen as an immediate in x86-64 code")
    }

    func testALaunchTellsDynamicOnlyAndNeverLoaded() throws {
        let root = Corpus.packageRoot
        let result = try BinaryRunner.run(
            ["unused", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/SampleSource", "Examples/launch.log", "--format", "json"], in: root)
        XCTAssertEqual(result.status, 0, result.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let images = try XCTUnwrap(doc["images"] as? [[String: Any]])
        func verdict(_ name: String) -> String? { images.first { $0["name"] as? String == name }?["verdict"] as? String }
        // onboarding_step1 is loaded by its path, a name the Objective-C builds with a format
        // (`onboarding_step%ld@3x.png`, normalised like a name): no static name, so dynamic-only,
        // with the pattern shown as what loads it. hero_banner.jpg is named by the Swift and loaded.
        XCTAssertEqual(verdict("onboarding_step1"), "dynamic-only")
        XCTAssertEqual(
            (images.first { $0["name"] as? String == "onboarding_step1" }?["keptBy"] as? [String])?.last,
            "pattern `onboarding_step*` built at run time at SampleApp/SettingsViewController.m:11:49")
        XCTAssertEqual(verdict("hero_banner.jpg"), "used")
        let hero = images.first { $0["name"] as? String == "hero_banner.jpg" }?["keptBy"] as? [String] ?? []
        XCTAssertEqual(hero.first, "UIImage(named:) at SampleApp/FeedViewController.swift:9:37")
        let text = try BinaryRunner.run(["unused", "--bundle", "Examples/SampleApp.app", "Examples/launch.log"], in: root)
        XCTAssertTrue(text.stdoutText.contains("code: none searched (--source-root)"), text.stdoutText)
        let noLaunch = try BinaryRunner.run(["unused", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/SampleSource"], in: root)
        XCTAssertTrue(
            noLaunch.stdoutText.contains("code: 6 references to shipped images in 1 Swift file, 1 Objective-C file and 0 data files; 0 launches (none given"),
            noLaunch.stdoutText)
        XCTAssertEqual((doc["unused"] as? [String: Any])?["launches"] as? Int, 1)
        XCTAssertEqual(verdict("old_splash"), "unused-image")
        XCTAssertEqual(verdict("empty_state"), "never-loaded")
        let bad = try BinaryRunner.run(["unused", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/launch.log"], in: root)
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.stderr, "imgtrace: error: Examples/launch.log: --source-root is not a folder\n")
    }

    func testTheExampleSourceTreeKeepsWhatItsXibAndPatternsName() throws {
        let result = try BinaryRunner.run(
            ["unused", "--bundle", "Examples/SampleSource", "--source-root", "Examples/SampleSource", "--format", "json", "--all"], in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 0, result.stderr)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let images = try XCTUnwrap(doc["images"] as? [[String: Any]])
        func image(_ name: String) -> [String: Any]? { images.first { $0["name"] as? String == name } }
        // Loose images carry the flat names Xcode copies them under; the xib keeps its two tab
        // images, `onboarding_step%ld@3x.png` keeps the step.
        for name in ["tab_home", "tab_search", "onboarding_step1"] { XCTAssertEqual(image(name)?["verdict"] as? String, "used", name) }
        XCTAssertEqual((image("tab_home")?["keptBy"] as? [String])?.first, "named in SampleApp/HomeViewController.xib")
        XCTAssertNil(images.first { ($0["name"] as? String ?? "").contains("/Images/") }, "no folder-qualified loose names")
        let warnings = (doc["warnings"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        XCTAssertTrue(warnings.contains { $0.contains("no Xcode project found in this source tree") }, "\(warnings)")
    }

    /// An image kept by references to several of its spellings lists them in one order on every
    /// run (they were read from a set: two runs of the same tree gave two reports).
    func testTheEvidenceIsInTheSameOrderOnEveryRun() throws {
        let tree = try TreeWriter()
        defer { tree.remove() }
        // `Brand/logo` in a namespace folder is spelled `brand/logo` and `logo`.
        try tree.imageSet("App/Assets.xcassets/Brand", "logo")
        try tree.write("App/Assets.xcassets/Brand/Contents.json", #"{"info":{"version":1,"author":"xcode"},"properties":{"provides-namespace":true}}"#)
        try tree.write("App/Views.swift", "import UIKit\nlet a = UIImage(named: \"Brand/logo\")\nlet b = UIImage(named: \"logo\")\n")
        var reports = Set<Data>()
        for _ in 0..<5 {
            let result = try BinaryRunner.run(["unused", "--bundle", tree.root.path, "--source-root", tree.root.path, "--format", "json", "--all"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdoutText.contains("logo"), result.stdoutText)
            reports.insert(result.stdout)
        }
        XCTAssertEqual(reports.count, 1, "five runs, one report")
    }

    func testFixWritesAPatchOnlyWhenTheTreeCanBePatched() throws {
        let tree = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: tree) }
        func write(_ path: String, _ bytes: [UInt8]) throws {
            let url = tree.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        for name in ["hero", "orphan"] {
            try write("App/Assets.xcassets/\(name).imageset/Contents.json", Array(#"{"images":[{"idiom":"universal","filename":"\#(name).png"}]}"#.utf8))
            try write("App/Assets.xcassets/\(name).imageset/\(name).png", ImageWriter.png(width: 10, height: 10))
        }
        try write("App/A.swift", Array("let hero = UIImage(named: \"hero\")\n".utf8))
        let patch = tree.appendingPathComponent("unused.patch").path
        let fixed = try BinaryRunner.run(["unused", "--bundle", tree.path, "--source-root", tree.path, "--fix", patch])
        XCTAssertEqual(fixed.status, 0, fixed.stderr)
        let text = try String(contentsOfFile: patch, encoding: .utf8)
        let orphan = "App/Assets.xcassets/orphan.imageset/orphan.png"
        XCTAssertTrue(text.contains("diff --git a/\(orphan) b/\(orphan)\ndeleted file mode 100644\n"), text)
        XCTAssertFalse(text.contains("hero"), text)
        try FileManager.default.removeItem(atPath: patch)
        // Without the code searched a verdict is a candidate: one line, exit 2, no patch.
        let blind = try BinaryRunner.run(["unused", "--bundle", tree.path, "--fix", patch])
        XCTAssertEqual(blind.status, 2)
        XCTAssertTrue(blind.stderr.contains("--fix needs --source-root"), blind.stderr)
        XCTAssertEqual(blind.stdout.count, 0, "no partial output")
        XCTAssertFalse(FileManager.default.fileExists(atPath: patch))
        XCTAssertEqual(try BinaryRunner.run(["unused", "--bundle", tree.path, "--source-root", tree.path, "--fix", "-"]).status, 64)
    }

    private static let example = ["--bundle", "Examples/SampleApp.app", "--source-root", "Examples/SampleSource", "Examples/launch.log"]

    /// Every format of `analyze` carries the verdicts as findings, at the asset in the source tree
    /// (or the code that names it), with the unused rules' own ids.
    func testEveryFormatCarriesTheVerdictsWhereTheyAreFixed() throws {
        let root = Corpus.packageRoot
        func run(_ format: String, _ more: [String] = []) throws -> String {
            let result = try BinaryRunner.run(["unused"] + Self.example + ["--format", format] + more, in: root)
            XCTAssertEqual(result.status, 0, "\(format): \(result.stderr)")
            return result.stdoutText
        }
        let splash = "Examples/SampleSource/SampleApp/Assets.xcassets/old_splash.imageset/Contents.json"
        let text = try run("text")
        XCTAssertTrue(text.hasPrefix("imgtrace unused images\n"), text)
        XCTAssertTrue(text.contains("  1 unused image\n"), text)
        XCTAssertTrue(text.contains("edit \(splash):8"), text)
        XCTAssertTrue(text.contains("edit Examples/SampleSource/SampleApp/FeedViewController.swift:18"), "never-loaded points at the code naming it: \(text)")
        XCTAssertTrue(try run("github").contains("::warning file=\(splash),line=8,col=7,title=imgtrace unused-image::`old_splash` is shipped but never used"))
        XCTAssertTrue(try run("gitlab").contains("\"check_name\":\"unused-image\""))
        XCTAssertTrue(try run("checkstyle").contains("source=\"imgtrace.unused-image\""))
        XCTAssertTrue(try run("xcode").contains("old_splash.imageset/Contents.json:8:7: warning: `old_splash` is shipped but never used"))
        let junit = try run("junit", ["--fail-on", "never"])
        XCTAssertTrue(junit.contains("<testsuites name=\"imgtrace unused images\""), junit)
        XCTAssertTrue(junit.contains("<testsuite name=\"unused-image\" tests=\"1\""), junit)
        XCTAssertFalse(junit.contains("missing-image"), "only the unused rules are suites")
        let markdown = try run("markdown")
        XCTAssertTrue(markdown.hasPrefix("## imgtrace unused images: ✅ pass"), markdown)
        XCTAssertTrue(markdown.contains("| `old_splash` | `unused-image` | 1 | 488 B | 244 B | — |"), markdown)
        let html = try run("html")
        XCTAssertTrue(html.contains("<h1>imgtrace unused images</h1>") && html.contains("old_<wbr>splash"), html)
        let sarif = try BinaryRunner.run(["unused"] + Self.example + ["--format", "sarif"], in: root)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: sarif.stdout) as? [String: Any])
        let run = try XCTUnwrap((doc["runs"] as? [[String: Any]])?.first)
        let rules = try XCTUnwrap(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        XCTAssertEqual(rules.compactMap { $0["id"] as? String }, ["unused-image", "dynamic-only", "never-loaded", "no-evidence"])
        let results = try XCTUnwrap(run["results"] as? [[String: Any]])
        let unused = try XCTUnwrap(results.first { $0["ruleId"] as? String == "unused-image" })
        XCTAssertEqual(unused["ruleIndex"] as? Int, 0)
        XCTAssertEqual(unused["level"] as? String, "warning")
        if SARIFValidator.schema != nil, SARIFValidator.python != nil {
            XCTAssertEqual(try SARIFValidator.errors(in: sarif.stdout), [])
        }
    }

    /// With two `--bundle`s, each image's location is the file in the bundle that ships it (the
    /// two paths were once joined into one: `SampleApp.app,%20Other.app/Assets.car`).
    func testEachBundlesImagesPointIntoThatBundle() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let root = Corpus.packageRoot
        let other = dir.appendingPathComponent("Other.app")
        try FileManager.default.copyItem(at: root.appendingPathComponent("Examples/SampleApp.app"), to: other)
        for format in ["sarif", "gitlab", "checkstyle"] {
            let result = try BinaryRunner.run(["unused", "--bundle", "Examples/SampleApp.app", "--bundle", other.path, "--format", format], in: root)
            XCTAssertEqual(result.status, 0, result.stderr)
            let text = result.stdoutText
            XCTAssertFalse(text.contains("SampleApp.app,"), format)
            // Every location an image gives is a file that exists, in the bundle that ships it.
            let pattern = try NSRegularExpression(pattern: #"(/[^"]*?/Other\.app/[^"]+|Examples/SampleApp\.app/[^"]+)""#)
            let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
            XCTAssertTrue(matches.contains { $0.contains("/Other.app/") }, "\(format): the second bundle's images are located in it: \(text)")
            XCTAssertTrue(matches.contains { $0.hasPrefix("Examples/SampleApp.app/") }, "\(format): \(text)")
            for path in matches {
                XCTAssertTrue(FileManager.default.fileExists(atPath: path.hasPrefix("/") ? path : root.appendingPathComponent(path).path), "\(format): \(path)")
            }
        }
    }

    /// A baseline of `unused` fails only on images newly judged; one of `analyze` is refused.
    func testBaselinesHoldTheVerdictsAndRefuseTheOtherCommands() throws {
        let root = Corpus.packageRoot
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unused-baseline-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("unused.json").path
        let first = try BinaryRunner.run(["unused"] + Self.example + ["--fail-on", "warning", "--write-baseline", file], in: root)
        XCTAssertEqual(first.status, 1, "old_splash fails at warning: \(first.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        XCTAssertTrue(written.contains("\"scope\": \"unused\""), written)
        XCTAssertTrue(written.contains("\"rule\": \"unused-image\""), written)
        let again = try BinaryRunner.run(["unused"] + Self.example + ["--fail-on", "warning", "--baseline", file], in: root)
        XCTAssertEqual(again.status, 0, "nothing new: \(again.stdoutText)")
        XCTAssertTrue(again.stdoutText.contains("PASS"), again.stdoutText)
        // Without the log the loaded images become unused: new findings fail.
        let noLaunch = try BinaryRunner.run(
            ["unused", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/SampleSource", "--fail-on", "warning", "--baseline", file], in: root)
        XCTAssertEqual(noLaunch.status, 1, noLaunch.stdoutText)
        let launchBaseline = dir.appendingPathComponent("launch.json").path
        let wrote = try BinaryRunner.run(["baseline", "write", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--output", launchBaseline], in: root)
        XCTAssertEqual(wrote.status, 0, wrote.stderr)
        let refused = try BinaryRunner.run(["unused"] + Self.example + ["--baseline", launchBaseline], in: root)
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stderr, "imgtrace: error: \(launchBaseline): a baseline written by `imgtrace baseline write`, not by `imgtrace unused --write-baseline`\n")
        XCTAssertEqual(refused.stdout.count, 0, "no partial output")
        let compared = try BinaryRunner.run(["baseline", "compare", file, file], in: root)
        XCTAssertEqual(compared.status, 0, compared.stderr)
        let mixed = try BinaryRunner.run(["baseline", "compare", file, launchBaseline], in: root)
        XCTAssertEqual(mixed.status, 2, mixed.stdoutText)
    }

    /// The config's ignores, severities and fail level apply to the verdicts as to any finding.
    func testTheConfigIgnoresAndRatesVerdicts() throws {
        let root = Corpus.packageRoot
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("unused-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let config = dir.appendingPathComponent("imgtrace.yml")
        try "severity:\n  never-loaded: error\nignore:\n  names: [old_splash]\n".write(to: config, atomically: true, encoding: .utf8)
        let result = try BinaryRunner.run(["unused"] + Self.example + ["--config", config.path, "--format", "json"], in: root)
        XCTAssertEqual(result.status, 1, "never-loaded rated error fails at the default failOn: \(result.stderr)")
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let findings = try XCTUnwrap(doc["findings"] as? [[String: Any]])
        XCTAssertFalse(findings.contains { $0["rule"] as? String == "unused-image" }, "old_splash is ignored")
        XCTAssertEqual(findings.first { $0["rule"] as? String == "never-loaded" }?["severity"] as? String, "error")
        try "ignore:\n  rules: [unused-imag]\n".write(to: config, atomically: true, encoding: .utf8)
        let typo = try BinaryRunner.run(["unused"] + Self.example + ["--config", config.path], in: root)
        XCTAssertEqual(typo.status, 2)
        XCTAssertTrue(typo.stderr.contains("`ignore.rules` names an unknown rule `unused-imag`"), typo.stderr)
    }
}

/// A `--bundle` that is no app at all (no Info.plist, no asset catalog, no image) is one line and
/// exit 2 in both commands, not a report calling every name missing.
final class NotAnAppTests: XCTestCase {
    func testAFolderWithNothingOfAnAppIsRefused() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let folder = dir.appendingPathComponent("notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "meeting notes\n".write(to: folder.appendingPathComponent("todo.txt"), atomically: true, encoding: .utf8)
        let log = Corpus.packageRoot.appendingPathComponent("Examples/launch.log").path
        for command in [["analyze", log], ["unused", log]] {
            let result = try BinaryRunner.run(command + ["--bundle", folder.path])
            XCTAssertEqual(result.status, 2, "\(command[0]): \(result.stdoutText)")
            XCTAssertTrue(result.stdout.isEmpty, "no partial output")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, result.stderr)
            XCTAssertTrue(result.stderr.contains("notes: not an app: no Info.plist, no asset catalog and no image"), result.stderr)
        }
    }
}

/// The same evidence rules in both commands: a file given as a launch that is no capture at all
/// (a crash report) is `no-evidence` in `unused` as in `analyze`, and calls nothing never loaded.
final class UnusedEvidenceTests: XCTestCase {
    func testACrashReportIsNoLaunch() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let crash = dir.appendingPathComponent("App.crash")
        let report = """
            Incident Identifier: 6B2E4C1A-0000-4000-8000-000000000000
            Hardware Model:      iPhone15,3
            Process:             SampleApp [4242]
            Exception Type:  EXC_CRASH (SIGABRT)
            Thread 0 Crashed
            libsystem_kernel.dylib
            SampleApp
            """
        try report.write(to: crash, atomically: true, encoding: .utf8)
        let arguments = ["--bundle", "Examples/SampleApp.app", "--format", "json"]
        let unused = try BinaryRunner.run(["unused", crash.path] + arguments, in: Corpus.packageRoot)
        XCTAssertEqual(unused.status, 1, unused.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: unused.stdout) as? [String: Any])
        let rules = try XCTUnwrap(json["findings"] as? [[String: Any]]).compactMap { $0["rule"] as? String }
        XCTAssertEqual(rules.filter { $0 == "no-evidence" }.count, 1, "\(rules)")
        XCTAssertFalse(rules.contains("never-loaded"), "a crash report loads nothing, and says nothing of what is loaded")
        let analyze = try BinaryRunner.run(["analyze", crash.path] + arguments, in: Corpus.packageRoot)
        let analyzed = try XCTUnwrap(JSONSerialization.jsonObject(with: analyze.stdout) as? [String: Any])
        XCTAssertTrue(try XCTUnwrap(analyzed["findings"] as? [[String: Any]]).contains { $0["rule"] as? String == "no-evidence" })
        // A real launch beside it still counts: the verdicts are the launch's alone.
        func verdicts(_ logs: [String]) throws -> [String] {
            let run = try BinaryRunner.run(["unused"] + logs + arguments, in: Corpus.packageRoot)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
            return try XCTUnwrap(json["findings"] as? [[String: Any]]).compactMap { $0["fingerprint"] as? String }
        }
        let alone = try verdicts(["Examples/launch.log"]), both = try verdicts([crash.path, "Examples/launch.log"])
        XCTAssertEqual(both.count, alone.count + 1, "the launch's verdicts and one no-evidence")
        XCTAssertTrue(Set(alone).isSubset(of: Set(both)))
    }
}
