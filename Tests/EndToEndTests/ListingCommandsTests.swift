import Foundation
import TestSupport
import XCTest

/// `imgtrace rules [ID] [--format json]`, `imgtrace devices --format json`, and the shell
/// completions users of similar tools expect.
final class ListingCommandsTests: XCTestCase {
    /// Every text listing fits 120 columns: prose wraps under its column, long names give way in the middle.
    func testTextListingsFit120Columns() throws {
        let examples = Corpus.packageRoot.appendingPathComponent("Examples").path
        for arguments in [
            ["rules"], ["devices"], ["trace", examples + "/launch.log"], ["catalog", examples + "/SampleApp.app"],
            ["car", examples + "/SampleApp.app/Assets.car", "--format", "text"],
        ] {
            let result = try BinaryRunner.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            for line in result.stdoutText.split(separator: "\n") {
                XCTAssertLessThanOrEqual(line.unicodeScalars.count, 120, "\(arguments[0]): \(line)")
            }
        }
        // A long name wraps after a separator and is never shortened; --wide keeps it on one line.
        let long = "/private/var/containers/Bundle/Application/5C3A9E1B-1F2D-4B6A-9E0C-7A8B9C0D1E2F/SampleApp.app/onboarding_step1@3x.png"
        let trace = try BinaryRunner.run(["trace", examples + "/launch.log"], environment: ["COLUMNS": "80"]).stdoutText
        XCTAssertFalse(trace.contains("…"), trace)
        XCTAssertTrue(trace.contains("/private/var/containers/Bundle/Application/5C3A9E1B-1F2D-4B6A-9E0C-7A8B9C0D1E2F/\n"), trace)
        for line in trace.split(separator: "\n") { XCTAssertLessThanOrEqual(line.unicodeScalars.count, 80, String(line)) }
        let wide = try BinaryRunner.run(["trace", examples + "/launch.log", "--wide"], environment: ["COLUMNS": "80"]).stdoutText
        XCTAssertTrue(wide.split(separator: "\n").contains { $0.hasPrefix(long + " ") }, wide)
    }

    /// On every corpus car and bundle, at 120, 100 and 80 columns: no line wider than the
    /// terminal, no name shortened, every name that fits a line whole on one (issue 45: names
    /// broke mid-token while the row had room), and with --wide every name whole on its row.
    func testListingsOfEveryCorpusCarAndBundleFitWithoutCuttingNames() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let fm = FileManager.default
        let cars = try fm.contentsOfDirectory(atPath: corpus.appendingPathComponent("car").path).filter { $0.hasSuffix(".car") }
            .map { corpus.appendingPathComponent("car/" + $0).path }
        // Each bundle folder holds the .app or .ipa beside its record.
        var bundles: [String] = []
        for folder in try fm.contentsOfDirectory(atPath: corpus.appendingPathComponent("bundles").path) {
            let path = corpus.appendingPathComponent("bundles/" + folder).path
            for entry in (try? fm.contentsOfDirectory(atPath: path)) ?? [] where entry.hasSuffix(".app") || entry.hasSuffix(".ipa") {
                bundles.append(path + "/" + entry)
            }
        }
        XCTAssertGreaterThan(cars.count, 5)
        XCTAssertGreaterThan(bundles.count, 1)
        var runs: [[String]] = cars.map { ["car", $0, "--format", "text"] } + cars.map { ["catalog", $0] }
        runs += bundles.map { ["catalog", $0] }
        for arguments in runs {
            let json = try BinaryRunner.run(Array(arguments.prefix(2)) + ["--format", "json"])
            let names = try Self.names(in: json.stdout)
            for columns in [120, 100, 80] {
                let result = try BinaryRunner.run(arguments, environment: ["COLUMNS": "\(columns)"])
                XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
                for line in result.stdoutText.split(separator: "\n") {
                    XCTAssertLessThanOrEqual(line.unicodeScalars.count, columns, "\(arguments) at \(columns): \(line)")
                }
                XCTAssertFalse(result.stdoutText.contains("…"), "\(arguments) at \(columns): a name was shortened")
                let words = Set(result.stdoutText.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
                for name in names where !name.contains(" ") && !name.isEmpty && name.unicodeScalars.count <= columns - 2 {
                    XCTAssertTrue(words.contains(name), "\(arguments) at \(columns): `\(name)` is broken though it fits a line")
                }
            }
            let wide = try BinaryRunner.run(arguments + ["--wide"]).stdoutText
            let words = Set(wide.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))
            for name in names where !name.contains(" ") && !name.isEmpty {
                XCTAssertTrue(words.contains(name), "\(arguments) --wide: `\(name)` is not whole on its row")
            }
        }
    }

    /// The image and rendition names a JSON listing holds (catalog's `name`, car's `RenditionName`).
    private static func names(in data: Data) throws -> [String] {
        let json = try JSONSerialization.jsonObject(with: data)
        var found: [String] = []
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    if ["name", "RenditionName"].contains(key), let text = inner as? String { found.append(text) } else { walk(inner) }
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(json)
        return found
    }

    /// One long name puts itself on its own line; every other row stays on one (issue 45: the
    /// first long name switched every row of the table to two lines). `unused` follows COLUMNS
    /// and --wide like the other listings.
    func testALongNameTakesItsOwnLineAndNoOtherRow() throws {
        let examples = Corpus.packageRoot.appendingPathComponent("Examples").path
        let trace = try BinaryRunner.run(["trace", examples + "/launch.log"], environment: ["COLUMNS": "80"]).stdoutText
        let lines = trace.split(separator: "\n").map(String.init)
        for name in ["AppIcon", "LaunchBackground", "tab_home", "placeholder"] {
            XCTAssertTrue(lines.contains { $0.hasPrefix(name + " ") && $0.last?.isNumber == true }, "`\(name)` is not on one line with its counts:\n\(trace)")
        }
        let arguments = ["unused", "--bundle", examples + "/SampleApp.app", "--source-root", examples + "/SampleSource", "--all"]
        for columns in [80, 100] {
            let unused = try BinaryRunner.run(arguments, environment: ["COLUMNS": "\(columns)"])
            XCTAssertEqual(unused.status, 0, unused.stderr)
            for line in unused.stdoutText.split(separator: "\n") { XCTAssertLessThanOrEqual(line.unicodeScalars.count, columns, String(line)) }
            XCTAssertTrue(unused.stdoutText.split(separator: "\n").contains { $0.hasPrefix("logo ") && $0.contains("unused-image") }, unused.stdoutText)
        }
        let wide = try BinaryRunner.run(arguments + ["--wide"], environment: ["COLUMNS": "80"]).stdoutText
        XCTAssertTrue(wide.split(separator: "\n").contains { $0.count > 80 && $0.hasPrefix("hero_banner.jpg ") }, wide)
    }

    func testOneRuleInFullAndEveryRuleAsJSON() throws {
        let one = try BinaryRunner.run(["rules", "scale-mismatch"])
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(one.stdoutText.hasPrefix("scale-mismatch (warning)\n"), one.stdoutText)
        XCTAssertTrue(one.stdoutText.contains("parameters: ") && one.stdoutText.contains("fires:"), one.stdoutText)
        XCTAssertFalse(one.stdoutText.contains("missing-image"))
        // The examples are shown as the launches they are, not only their titles.
        let repeated = try BinaryRunner.run(["rules", "repeated-load"]).stdoutText
        XCTAssertTrue(repeated.contains("\n      ships   star@3x.png (60×60 px, 4096 bytes)\n"), repeated)
        XCTAssertTrue(repeated.contains("\n      launch  imageNamed: \"star\", imageNamed: \"star\", imageNamed: \"star\"\n"), repeated)
        let unused = try BinaryRunner.run(["rules", "unused-image"]).stdoutText
        XCTAssertTrue(unused.contains("\n      code    Tabs.swift: let icon = Image(.tabHome)\n"), unused)
        let all = try BinaryRunner.run(["rules", "--format", "json"])
        let rules = try XCTUnwrap(JSONSerialization.jsonObject(with: all.stdout) as? [[String: Any]])
        let table = try BinaryRunner.run(["rules"]).stdoutText
        XCTAssertEqual(rules.count, table.split(separator: "\n").filter { !$0.hasPrefix(" ") }.count - 1, "one JSON entry per table row")
        for rule in rules {
            XCTAssertNotNil(rule["id"] as? String)
            XCTAssertTrue(["error", "warning", "note"].contains(rule["severity"] as? String ?? ""))
            XCTAssertFalse((rule["examples"] as? [[String: Any]] ?? []).isEmpty, "\(rule["id"] ?? "?") has examples")
        }
        let unknown = try BinaryRunner.run(["rules", "no-such-rule"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("missing-image"), "lists the rules: \(unknown.stderr)")
    }

    func testDevicesAsJSONMarkTheDefault() throws {
        let run = try BinaryRunner.run(["devices", "--format", "json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: run.stdout) as? [[String: Any]])
        XCTAssertEqual(devices.filter { $0["default"] as? Bool == true }.count, 1)
        for device in devices {
            let width = try XCTUnwrap(device["pointWidth"] as? Int), scale = try XCTUnwrap(device["scale"] as? Int)
            XCTAssertEqual(device["pixelWidth"] as? Int, width * scale, "\(device["id"] ?? "?")")
        }
    }

    /// Path arguments complete files (or folders) in all three shells: bash's completion
    /// function is run as bash runs it; zsh's and fish's scripts are read (neither shell is on
    /// this machine) for the file action of each path option.
    func testPathArgumentsCompleteFilesInEveryShell() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("App.app"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: dir.appendingPathComponent("launch.log"))
        let bash = try BinaryRunner.run(["--generate-completion-script", "bash"])
        let script = dir.appendingPathComponent("imgtrace.bash")
        try bash.stdout.write(to: script)
        func complete(_ words: [String]) throws -> [String] {
            let line = words.joined(separator: " ")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            // As bash calls a completion function: the command, the word being completed, the one before.
            let program =
                "shopt -s extglob; source \(script.path); COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}; _imgtrace imgtrace '\(words[words.count - 1])' '\(words[words.count - 2])'; printf '%s\\n' \"${COMPREPLY[@]}\""
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", program]
            process.currentDirectoryURL = dir
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try complete(["imgtrace", "analyze", "lau"]), ["launch.log"], "LOG")
        XCTAssertEqual(try complete(["imgtrace", "analyze", "launch.log", "--bundle", "Ap"]), ["App.app"], "--bundle")
        XCTAssertEqual(try complete(["imgtrace", "analyze", "launch.log", "--baseline", "lau"]), [], "--baseline offers .json files only")
        XCTAssertEqual(try complete(["imgtrace", "analyze", "launch.log", "--source-root", "l"]), [], "--source-root offers folders only")
        XCTAssertEqual(try complete(["imgtrace", "unused", "--source-root", "A"]), ["App.app"])
        XCTAssertEqual(try complete(["imgtrace", "trace", "lau"]), ["launch.log"])
        XCTAssertEqual(try complete(["imgtrace", "catalog", "Ap"]), ["App.app"])
        XCTAssertEqual(try complete(["imgtrace", "baseline", "compare", "lau"]), [], "baselines are .json")
        let zsh = try BinaryRunner.run(["--generate-completion-script", "zsh"]).stdoutText
        let fish = try BinaryRunner.run(["--generate-completion-script", "fish"]).stdoutText
        // zsh: `'--bundle[help]:bundle:_files'`; fish: `-l 'bundle' … -rF`, or a files-with-extension or folders function.
        for option in ["bundle", "config", "baseline", "output", "write-baseline", "source-root", "system-images"] {
            XCTAssertNotNil(zsh.range(of: "--\(option)\\[[^\\n]*\\]:[a-z-]+:_files", options: .regularExpression), "zsh: --\(option)")
            let lines = fish.split(separator: "\n").filter { $0.contains("-l '\(option)'") }
            XCTAssertFalse(lines.isEmpty, "fish: --\(option)")
            for line in lines {
                XCTAssertTrue(line.hasSuffix("-rF") || line.contains("complete_directories"), "fish: --\(option): \(line)")
            }
        }
        XCTAssertNotNil(zsh.range(of: "--source-root\\[[^\\n]*\\]:dir:_files -/", options: .regularExpression), "zsh: --source-root folders")
    }

    /// A list in a cell breaks between its items: each model name stays whole on one line of
    /// `imgtrace devices` (at 100 columns "iPhone 11" and "Pro" had been split). From 80 columns
    /// up it stays a table — one header line, each profile's figures on its id's line or the
    /// next — where it had become a block per row at 120.
    func testTheDevicesTableKeepsEachModelNameOnOneLine() throws {
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: try BinaryRunner.run(["devices", "--format", "json"]).stdout) as? [[String: Any]])
        let models = devices.flatMap { $0["models"] as? [String] ?? [] }
        XCTAssertGreaterThan(models.count, 40)
        for columns in [60, 80, 100, 120] {
            let table = try BinaryRunner.run(["devices"], environment: ["COLUMNS": "\(columns)"]).stdoutText
            for model in models {
                XCTAssertTrue(table.contains(model), "\(columns) columns: \(model) is split\n\(table)")
            }
            let lines = table.split(separator: "\n")
            XCTAssertTrue(lines.allSatisfy { $0.count <= columns }, "\(columns) columns:\n\(table)")
            guard columns >= 80 else { continue }
            XCTAssertNotNil(lines.first?.range(of: #"^ID +POINTS +SCALE +PIXELS +IDIOM +MODELS$"#, options: .regularExpression), "\(columns): \(table)")
            for device in devices {
                let id = try XCTUnwrap(device["id"] as? String)
                let at = try XCTUnwrap(lines.firstIndex { $0.hasPrefix(id + " ") || $0 == id || $0.hasPrefix(id + " (default)") }, id)
                let figures = "\(device["pointWidth"] ?? "?")×\(device["pointHeight"] ?? "?")"
                XCTAssertTrue(
                    lines[at].contains(figures) || lines[at + 1].hasPrefix(String(repeating: " ", count: 8)) && lines[at + 1].contains(figures), "\(columns): \(id)\n\(table)")
            }
        }
    }

    func testCompletionScriptsOfferDevicesFormatsAndRules() throws {
        let devices = try XCTUnwrap(JSONSerialization.jsonObject(with: try BinaryRunner.run(["devices", "--format", "json"]).stdout) as? [[String: Any]])
        for shell in ["bash", "zsh", "fish"] {
            let script = try BinaryRunner.run(["--generate-completion-script", shell])
            XCTAssertEqual(script.status, 0, script.stderr)
            for device in devices { XCTAssertTrue(script.stdoutText.contains(device["id"] as? String ?? "?"), "\(shell): --device values") }
            for format in ["sarif", "checkstyle", "xcode"] { XCTAssertTrue(script.stdoutText.contains(format), "\(shell): --format \(format)") }
            XCTAssertTrue(script.stdoutText.contains("baseline-regression"), "\(shell): rule ids")
        }
        // Every command that takes --device completes it from the same list (one option group):
        // `unused` once declared its own and lost the list.
        let bash = try BinaryRunner.run(["--generate-completion-script", "bash"]).stdoutText
        for command in ["analyze", "unused"] {
            let function = try XCTUnwrap(bash.range(of: "_imgtrace_\(command)() {"), command)
            let body = bash[function.upperBound...].components(separatedBy: "\n}\n").first ?? ""
            let device = try XCTUnwrap(body.range(of: "'--device')"), "\(command) has --device")
            let completion = body[device.upperBound...].prefix(400)
            for profile in devices.prefix(3) {
                XCTAssertTrue(completion.contains(profile["id"] as? String ?? "?"), "\(command) --device completes \(profile["id"] ?? "?"): \(completion)")
            }
        }
    }
}

/// A report written to a file leaves one line on stderr that says how the audit went.
final class VerdictLineTests: XCTestCase {
    func testAReportWrittenToAFileLeavesAOneLineVerdictOnStderr() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("audit.json").path
        let run = try BinaryRunner.run(
            ["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app", "--format", "json", "--output", output],
            in: Corpus.packageRoot)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdoutText, "")
        XCTAssertEqual(run.stderr, "imgtrace: 3 errors, 7 warnings, 8 notes — FAIL; report: \(output)\n")
    }
}
