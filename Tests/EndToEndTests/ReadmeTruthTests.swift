import AuditModel
import AuditPolicy
import AuditRules
import Foundation
import LaunchAudit
import Reporters
import TestSupport
import UnusedAudit
import XCTest

/// The README says only what is true: its usage block lists exactly the options each command's
/// `--help` has, its config example has every key and is a valid config, and its command
/// examples run.
final class ReadmeTruthTests: XCTestCase {
    private var readme: String {
        get throws { try String(contentsOf: Corpus.packageRoot.appendingPathComponent("README.md"), encoding: .utf8) }
    }

    /// The user documents the README sends readers to: their examples are checked like its own.
    static let userDocuments = ["docs/capturing.md", "docs/analyze.md", "docs/agent.md", "docs/ci.md", "docs/history.md"]

    /// The fenced blocks of the README (and, with `documents`, of the user documents) with their language.
    private func codeBlocks(documents: Bool = false) throws -> [(language: String, lines: [String])] {
        var blocks: [(String, [String])] = []
        var current: (String, [String])?
        var text = try readme
        if documents {
            for document in Self.userDocuments {
                text += "\n" + (try String(contentsOf: Corpus.packageRoot.appendingPathComponent(document), encoding: .utf8))
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append(open)
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [])
                }
            } else if current != nil {
                current!.1.append(line)
            }
        }
        return blocks
    }

    /// The long options of an option line of `--help` output (`  --bundle <bundle>   …`).
    private func helpOptions(_ command: [String]) throws -> Set<String> {
        let result = try BinaryRunner.run(command + ["--help"])
        XCTAssertEqual(result.status, 0, "\(command) --help: \(result.stderr)")
        let option = try NSRegularExpression(pattern: #"^  (?:-[a-zA-Z], )?(--[a-z][a-z-]*)"#, options: .anchorsMatchLines)
        let text = result.stdoutText
        var found = Set(
            option.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) })
        found.subtract(["--help", "--version"])
        return found
    }

    /// The settings table is what the rules declare (`RuleSetting`): keys, values, defaults, help.
    /// With IMGTRACE_UPDATE_GOLDEN=1 the table is rewritten (and the test fails, naming the README).
    func testTheSettingsTableIsTheRulesDeclarations() throws {
        let url = Corpus.packageRoot.appendingPathComponent("README.md")
        let text = try readme
        let begin = "<!-- settings:begin (RuleListing.settingsMarkdown) -->\n"
        let end = "<!-- settings:end -->"
        let start = try XCTUnwrap(text.range(of: begin), "the README's settings block")
        let stop = try XCTUnwrap(text.range(of: end, range: start.upperBound..<text.endIndex))
        let expected = RuleListing.settingsMarkdown()
        if String(text[start.upperBound..<stop.lowerBound]) != expected, ProcessInfo.processInfo.environment["IMGTRACE_UPDATE_GOLDEN"] == "1" {
            try (text[..<start.upperBound] + expected + text[stop.lowerBound...]).write(to: url, atomically: true, encoding: .utf8)
            XCTFail("rewrote the settings table of \(url.path)")
            return
        }
        XCTAssertEqual(String(text[start.upperBound..<stop.lowerBound]), expected, "run with IMGTRACE_UPDATE_GOLDEN=1 to rewrite it")
        XCTAssertEqual(Rules.settings.count, 19, "every tunable value of thresholds, budgets, baseline and history")
        for setting in Rules.settings { XCTAssertTrue(expected.contains("`\(setting.path)`")) }
    }

    /// The figures table is what `scripts/bench-figures.sh` renders from the benchmarks' own
    /// recorded output (Benchmarks/figures.tsv): no number in it was typed by hand.
    func testTheFiguresTableIsRenderedFromTheBenchmarksOutput() throws {
        let text = try readme
        let begin = "<!-- figures:begin (scripts/bench-figures.sh) -->\n"
        let end = "<!-- figures:end -->"
        let start = try XCTUnwrap(text.range(of: begin), "the README's figures block")
        let stop = try XCTUnwrap(text.range(of: end, range: start.upperBound..<text.endIndex))
        let table = String(text[start.upperBound..<stop.lowerBound])
        let render = Process()
        render.executableURL = URL(fileURLWithPath: "/bin/bash")
        render.arguments = [Corpus.packageRoot.appendingPathComponent("scripts/bench-figures.sh").path, "--render"]
        let pipe = Pipe()
        render.standardOutput = pipe
        try render.run()
        let rendered = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        render.waitUntilExit()
        XCTAssertEqual(render.terminationStatus, 0)
        XCTAssertEqual(table, rendered)
        let rows = table.split(separator: "\n").dropFirst(2)
        XCTAssertGreaterThanOrEqual(rows.count, 5, "car reader, trace text and JSON, catalog, memory per name")
        for row in rows { XCTAssertEqual(row.split(separator: "|").count, 5, String(row)) }
    }

    func testTheUsageBlockListsExactlyTheOptionsOfEachCommand() throws {
        let usage = try XCTUnwrap(codeBlocks().first { $0.lines.first?.hasPrefix("imgtrace analyze LOG") == true }, "the usage block")
        var commands: [(words: [String], text: String)] = []
        for line in usage.lines where !line.isEmpty {
            if line.hasPrefix("imgtrace ") {
                let words = line.split(separator: " ").dropFirst().prefix { $0.range(of: #"^[a-z][a-z-]*$"#, options: .regularExpression) != nil }
                commands.append((words.map(String.init), line))
            } else {
                commands[commands.count - 1].text += " " + line
            }
        }
        XCTAssertEqual(
            Set(commands.map { $0.words.joined(separator: " ") }),
            [
                "analyze", "baseline write", "baseline compare", "history show", "history forget", "devices", "rules", "trace", "car", "catalog", "lldb-script", "record",
                "agent-path", "agent-log", "unused",
            ])
        let flag = try NSRegularExpression(pattern: #"--[a-z][a-z-]*"#)
        for (words, text) in commands {
            let documented = Set(flag.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) })
            let real = try helpOptions(words)
            XCTAssertEqual(documented.subtracting(real), [], "`imgtrace \(words.joined(separator: " "))`: in the README, not in --help")
            XCTAssertEqual(real.subtracting(documented), [], "`imgtrace \(words.joined(separator: " "))`: in --help, not in the README's usage block")
        }
    }

    /// The rules table has every rule, with the severity it really has by default, and no other.
    func testTheRulesTableIsTheRegistry() throws {
        let rows = try readme.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.split(separator: "|").count == 3 }
        var documented: [String: String] = [:]
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells[0].hasPrefix("`"), cells[0].hasSuffix("`"), cells[0].contains("-") else { continue }
            documented[String(cells[0].dropFirst().dropLast())] = cells[1]
        }
        for rule in Rules.described {
            let severity = try XCTUnwrap(documented[rule.id], "README rules table lacks `\(rule.id)`")
            XCTAssertTrue(severity.hasPrefix(rule.defaultSeverity.rawValue), "`\(rule.id)`: README says \(severity)")
        }
        XCTAssertEqual(Set(documented.keys), Set(Rules.described.map { $0.id }), "rows for rules that do not exist")
    }

    /// The quick start is the two scripts, and CI runs the second: what the README tells a
    /// newcomer to type is what CI proves on a fresh machine. The first script's audit runs.
    func testTheQuickStartIsWhatCIRuns() throws {
        let root = Corpus.packageRoot
        let quickStart = try XCTUnwrap(codeBlocks().first { $0.language == "sh" }, "the quick start block")
        let commands = quickStart.lines.filter { !$0.isEmpty }.map { $0.split(separator: " ").first.map(String.init) ?? "" }
        XCTAssertEqual(commands, ["scripts/example.sh", "scripts/test.sh"])
        let ci = try String(contentsOf: root.appendingPathComponent(".ci/run"), encoding: .utf8)
        let ciCommands = ci.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("#") }
        XCTAssertTrue(ciCommands.contains("scripts/setup.sh test"), "CI installs what the tests need as the quick start does")
        XCTAssertEqual(ciCommands.last, "scripts/test.sh", "CI's last step is the README's test command")
        for script in ["example.sh", "test.sh"] {
            let text = try String(contentsOf: root.appendingPathComponent("scripts/" + script), encoding: .utf8)
            XCTAssertTrue(text.contains("scripts/setup.sh " + (script == "test.sh" ? "test" : "build")), script)
        }
        // The example script's audit, as it runs it (after its build).
        let example = try String(contentsOf: root.appendingPathComponent("scripts/example.sh"), encoding: .utf8)
        let line = try XCTUnwrap(example.split(separator: "\n").first { $0.contains("/imgtrace\" analyze ") })
        let arguments = line.components(separatedBy: "/imgtrace\" ").last!.split(separator: " ").map(String.init).filter { $0 != "\"$@\"" }
        let result = try BinaryRunner.run(arguments, in: root)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdoutText.contains("missing-image: `Tab_Profile`"), String(result.stdoutText.prefix(400)))
    }

    /// The README stays the short form a team reads first; the rest is in the user documents.
    func testTheReadmeIsShortAndItsDocumentsExist() throws {
        let lines = try readme.split(separator: "\n", omittingEmptySubsequences: false).count
        XCTAssertLessThanOrEqual(lines, 400, "the README is \(lines) lines")
        let link = try NSRegularExpression(pattern: #"\]\((docs/[^)#]+)"#)
        let text = try readme
        let targets = link.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range(at: 1), in: text)!]) }
        XCTAssertTrue(targets.contains("docs/images/report.png"), "the README shows the HTML report")
        for target in Set(targets) {
            XCTAssertTrue(FileManager.default.fileExists(atPath: Corpus.packageRoot.appendingPathComponent(target).path), "README links to \(target)")
        }
    }

    func testTheConfigExampleHasEveryKeyAndIsAValidConfig() throws {
        let block = try XCTUnwrap(codeBlocks().first { $0.language == "yaml" && $0.lines.first?.hasPrefix("device:") == true })
        let text = block.lines.joined(separator: "\n")
        let config = try ConfigFile.parse(text, path: "README.md")
        XCTAssertEqual(config.baselineTolerance.launchDecodedBytes, 0.05)
        XCTAssertEqual(config.sourceRoot, ".", "relative to the config file, which is in the working directory")
        let keys = Set(block.lines.compactMap { $0.split(separator: ":").first.map { $0.trimmingCharacters(in: .whitespaces) } })
        for key in ConfigFile.topKeys + ConfigFile.sectionKeys.values.flatMap({ $0 }) {
            XCTAssertTrue(keys.contains(key), "the README's config example lacks `\(key)`")
        }
    }

    /// Every `imgtrace` command in the README's shell and YAML examples, run through `sh` in a
    /// folder holding the files they name (the example app and log under the README's names).
    /// `record` examples launch programs and are run by `RecordCommandTests`; fastlane's Ruby
    /// is not shell.
    func testTheCommandExamplesRun() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let examples = Corpus.packageRoot.appendingPathComponent("Examples")
        try fm.createSymbolicLink(at: dir.appendingPathComponent("launch.log"), withDestinationURL: examples.appendingPathComponent("launch.log"))
        try fm.createSymbolicLink(at: dir.appendingPathComponent("App.app"), withDestinationURL: examples.appendingPathComponent("SampleApp.app"))
        try fm.createDirectory(at: dir.appendingPathComponent("build"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: dir.appendingPathComponent("build/App.app"), withDestinationURL: examples.appendingPathComponent("SampleApp.app"))
        try fm.createSymbolicLink(at: dir.appendingPathComponent("src"), withDestinationURL: examples.appendingPathComponent("SampleSource"))
        var files: [(String, [UInt8])] = []
        let app = examples.appendingPathComponent("SampleApp.app")
        for case let path as String in fm.enumerator(atPath: app.path)! where !path.hasSuffix(".lproj") {
            if let data = fm.contents(atPath: app.path + "/" + path) { files.append(("Payload/App.app/" + path, Array(data))) }
        }
        try Data(ZipWriter.zip(files)).write(to: dir.appendingPathComponent("App.ipa"))
        let binDir = BinaryRunner.executable.deletingLastPathComponent().path
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = binDir + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["SRCROOT"] = dir.appendingPathComponent("src").path
        environment["TARGET_BUILD_DIR"] = dir.appendingPathComponent("build").path
        environment["WRAPPER_NAME"] = "App.app"
        environment["NO_COLOR"] = "1"

        func sh(_ command: String) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            process.currentDirectoryURL = dir
            process.environment = environment
            let out = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = out
            try process.run()
            let stderr = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: stderr, as: UTF8.self))
        }

        // The baseline the CI examples compare against, made the way the README says.
        XCTAssertEqual(try sh("imgtrace baseline write launch.log --bundle App.app").status, 0)
        var commands: [String] = []
        // The usage block is syntax, not an example.
        for block in try codeBlocks(documents: true) where ["sh", "", "yaml"].contains(block.language) && !block.lines.contains(where: { $0.contains("LOG...") }) {
            var pending: String?
            for raw in block.lines {
                var line = raw.trimmingCharacters(in: .whitespaces)
                if line.hasPrefix("- ") { line.removeFirst(2) }
                if line.hasPrefix("run: ") { line.removeFirst(5) }
                if var open = pending {
                    // A YAML folded scalar or a shell line ending in `\` goes on.
                    if open.hasSuffix("\\") {
                        open.removeLast()
                        pending = open + " " + line
                        continue
                    }
                    if line.hasPrefix("--") {
                        pending = open + " " + line
                        continue
                    }
                    commands.append(open)
                    pending = nil
                }
                let invocation = line.range(of: #"^(swift run )?imgtrace [a-z]"#, options: .regularExpression) != nil
                if invocation, !line.contains(" record ") { pending = line }
            }
            if let open = pending { commands.append(open) }
        }
        XCTAssertGreaterThanOrEqual(commands.count, 12, "\(commands)")
        for command in commands {
            var runnable = command.replacingOccurrences(of: "swift run imgtrace ", with: "imgtrace ")
            runnable = runnable.replacingOccurrences(of: "Examples/", with: examples.path + "/")
            // The Xcode snippet's log sits in the source root; the example source tree has none.
            runnable = runnable.replacingOccurrences(of: "[ -f \"$SRCROOT/launch.log\" ]", with: "true")
            runnable = runnable.replacingOccurrences(of: "\"$SRCROOT/launch.log\"", with: "launch.log")
            if runnable.contains("gridlock.log") {
                guard let corpus = Corpus.root, fm.fileExists(atPath: "/usr/lib/GNUstep/Applications/Gridlock.app") else { continue }
                let log = corpus.appendingPathComponent("e2e/gridlock/b-gridlock-lldb-nsprint.txt").path
                runnable = runnable.replacingOccurrences(of: "gridlock.log", with: log)
            }
            let (status, stderr) = try sh(runnable)
            XCTAssertTrue(status == 0 || status == 1, "`\(command)` exited \(status): \(stderr)")
            XCTAssertFalse(stderr.contains("Error:"), "`\(command)`: \(stderr)")
            if command.contains("--fail-on never") || command.contains("lldb-script") {
                XCTAssertEqual(status, 0, "`\(command)`")
            }
        }
    }
}
