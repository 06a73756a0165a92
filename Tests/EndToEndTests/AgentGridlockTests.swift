#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// Debian's Gridlock under the agent: its launches together, and its names beside ptrace's.
    final class AgentGridlockTests: AgentWorkspaceTestCase {
        /// Five recorded launches of Gridlock analysed together: one launch's figures, the same in
        /// text, Markdown, HTML and JSON, and `--after-launch` ends each soon after its launch end.
        func testGridlocksLaunchesTogetherGiveOneLaunchsFiguresInEveryFormat() throws {
            let app = "/usr/lib/GNUstep/Applications/Gridlock.app"
            guard FileManager.default.fileExists(atPath: app), FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run") else {
                throw XCTSkip("needs gridlock.app and xvfb")
            }
            let log = work.appendingPathComponent("gridlock.log")
            let xvfb = Process()
            xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
            xvfb.arguments =
                ["-a", BinaryRunner.executable.path, "record", "--agent", "--runs", "5", "--after-launch", "1", "--duration", "30", "--output", log.path, "--", app]
            xvfb.standardOutput = FileHandle.nullDevice
            xvfb.standardError = FileHandle.nullDevice
            try xvfb.run()
            xvfb.waitUntilExit()
            let logs = (1...5).map { work.appendingPathComponent("gridlock-\($0).log").path }
            guard logs.allSatisfy(FileManager.default.fileExists(atPath:)) else { throw XCTSkip("the recording did not run (X not available)") }
            for path in logs {
                XCTAssertTrue(try String(contentsOfFile: path, encoding: .utf8).contains("launch-end=reached program=after-launch"), path)
            }
            func analyze(_ format: String) throws -> String {
                let result = try BinaryRunner.run(
                    ["analyze"] + logs + ["--bundle", app, "--system-images", "/usr/share/pixmaps/GNUstep", "--format", format, "--fail-on", "never"])
                XCTAssertEqual(result.status, 0, result.stderr)
                return result.stdoutText
            }
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try analyze("json").utf8)) as? [String: Any])
            let metrics = try XCTUnwrap(json["metrics"] as? [String: Any])
            XCTAssertEqual(metrics["launches"] as? Int, 5)
            let median = try XCTUnwrap((metrics["launch"] as? [String: Any])?["median"] as? [String: Any])
            let loads = try XCTUnwrap(median["loads"] as? Int)
            let perLog = try XCTUnwrap((json["inputs"] as? [String: Any])?["logs"] as? [[String: Any]]).compactMap {
                (($0["metrics"] as? [String: Any])?["launch"] as? [String: Any])?["loads"] as? Int
            }
            XCTAssertEqual(perLog.count, 5)
            XCTAssertEqual(loads, perLog.sorted()[2], "the median launch's loads, not their sum")
            // Debian 12's Gridlock: 182 requests before -[NSApplication finishLaunching] returns.
            XCTAssertEqual(loads, 182)
            let time = try XCTUnwrap(median["mainThreadImageMicroseconds"] as? Int)
            let shown = String(format: "%d.%03d ms", time / 1000, time % 1000)
            let text = try analyze("text"), markdown = try analyze("markdown"), html = try analyze("html")
            XCTAssertTrue(text.contains("  loads       \(loads)"), text)
            XCTAssertTrue(markdown.contains("| loads | \(loads)"), markdown)
            XCTAssertTrue(html.contains("<b>\(loads)"), "the HTML card")
            let sum = perLog.reduce(0, +)
            for (format, report, sumShown) in [
                ("text", text, "  loads       \(sum)"), ("markdown", markdown, "| loads | \(sum)"), ("html", html, "<b>\(sum)"),
            ] {
                XCTAssertTrue(report.contains(shown), "\(format): main-thread image time \(shown)")
                XCTAssertTrue(report.contains("median of 5 launches"), format)
                XCTAssertFalse(report.contains(sumShown), "\(format) states no sum")
            }
        }

        func testGridlockGivesTheNamesThePtraceRecordingGives() throws {
            let app = "/usr/lib/GNUstep/Applications/Gridlock.app"
            guard FileManager.default.fileExists(atPath: app), FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run") else {
                throw XCTSkip("needs gridlock.app and xvfb")
            }
            /// The loads up to the launch-end marker, and after it (when the menus redraw as often
            /// as the 8 s and the machine's load allow).
            var programOutput: [String: String] = [:]
            func record(_ extra: [String], _ name: String) throws -> (launch: [String], after: [String]) {
                let log = work.appendingPathComponent(name)
                let xvfb = Process()
                xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
                xvfb.arguments = ["-a", BinaryRunner.executable.path, "record"] + extra + ["--duration", "8", "--output", log.path, "--", app]
                let console = work.appendingPathComponent(name + ".console")
                try Data().write(to: console)
                let handle = try FileHandle(forWritingTo: console)
                xvfb.standardOutput = handle
                xvfb.standardError = handle
                try xvfb.run()
                xvfb.waitUntilExit()
                try handle.close()
                programOutput[name] = try String(contentsOf: console, encoding: .utf8)
                guard FileManager.default.fileExists(atPath: log.path) else { throw XCTSkip("the recording did not run (ptrace or X not available)") }
                let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
                let end = try XCTUnwrap(lines.firstIndex(of: "imgtrace-launch-end"), "\(name) reaches the launch end")
                // The line without its time: thread, API and name.
                func loads(_ part: ArraySlice<Substring>) -> [String] {
                    part.compactMap(Self.request).map { String($0.dropFirst(24)).replacingOccurrences(of: "(code) ", with: "") }
                }
                launchStacks[name] = try stacks(log, launchOnly: true)
                return (loads(lines[..<end]), loads(lines[end...]))
            }
            var launchStacks: [String: [String]] = [:]
            let agent = try record(["--agent"], "agent.log"), ptrace = try record([], "ptrace.log")
            XCTAssertGreaterThan(agent.launch.count, 150)
            XCTAssertEqual(agent.launch, ptrace.launch, "the launch: the same loads in the same order on the same threads")
            // Each with its default frames: the agent's, unwound in Gridlock, name the same
            // functions and methods as ptrace's (so the same loads are the toolkit's).
            let agentStacks = try XCTUnwrap(launchStacks["agent.log"])
            XCTAssertEqual(agentStacks.count, agent.launch.count)
            XCTAssertEqual(agentStacks.filter { $0.contains("frame #7: ") }.count, agentStacks.count, "eight frames a hit")
            XCTAssertEqual(agentStacks, launchStacks["ptrace.log"])
            // So whose load it is comes from the frames under both: with no toolkit names to fall
            // back on, GNUstep's menu item asking for its checkmark is the toolkit's note under
            // the agent too (without frames it was the app's error).
            let config = work.appendingPathComponent("no-toolkit-names.yml")
            try "toolkit:\n  names: []\n".write(to: config, atomically: true, encoding: .utf8)
            let verdict = try BinaryRunner.run([
                "analyze", work.appendingPathComponent("agent.log").path, "--bundle", app, "--config", config.path, "--format", "json",
                "--fail-on", "never",
            ])
            let findings = try XCTUnwrap(JSONSerialization.jsonObject(with: verdict.stdout) as? [String: Any])["findings"] as? [[String: Any]]
            let checkmark = try XCTUnwrap(findings?.first { $0["rule"] as? String == "missing-image" && ($0["names"] as? [String]) == ["NSMenuCheckmark"] })
            XCTAssertEqual(checkmark["gates"] as? Bool, false, "\(checkmark)")
            // After the launch the menus redraw as often as the machine lets them in 8 s: CI saw
            // 20 and 24 NSMenuArrow lookups, and a busy machine none at all in one of the two. So
            // each recording's later names are names the other recorded too, not the same count.
            // The agent changes nothing the program does: no +initialize sent before main, outside
            // any autorelease pool (it once made Gridlock print 744 "autorelease called without
            // pool" lines); the program says what it says under ptrace, which runs no code in it.
            func messages(_ text: String?) -> [String] {
                (text ?? "").split(separator: "\n").filter { !$0.hasPrefix("imgtrace:") }.map { line in
                    // GNUstep's NSLog prefix: date, time, program[pid:tid]; the X display Xvfb got; and
                    // the X error's request serial, which counts the X requests made before it: how many
                    // redraws the timing allowed (a fresh machine gave 1473 under the agent, 1428 untraced).
                    (line.range(of: #"^\S+ \S+ Gridlock\[[0-9:]+\] "#, options: .regularExpression).map { String(line[$0.upperBound...]) } ?? String(line))
                        .replacing(#/on display: :[0-9]+/#, with: "on display: :N").replacing(#/serial number: [0-9]+/#, with: "serial number: N")
                }
            }
            XCTAssertFalse(programOutput["agent.log"]?.contains("autorelease called without pool") ?? true, programOutput["agent.log"] ?? "")
            XCTAssertEqual(messages(programOutput["agent.log"]), messages(programOutput["ptrace.log"]))
            // And what it says with nothing attached at all: the same, run for as long.
            let untraced = Process(), console = Pipe()
            untraced.executableURL = URL(fileURLWithPath: "/usr/bin/xvfb-run")
            untraced.arguments = ["-a", "timeout", "8", app + "/Gridlock"]
            untraced.standardOutput = console
            untraced.standardError = console
            try untraced.run()
            let untracedOutput = String(decoding: console.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            untraced.waitUntilExit()
            XCTAssertEqual(messages(programOutput["agent.log"]), messages(untracedOutput))
            // GNUstep decodes a looked-up image at its first use (`-[NSImage _loadFromFile:]`): the
            // agent times each decode and names it by the lookup whose object it decodes.
            let recorded = try String(contentsOf: work.appendingPathComponent("agent.log"), encoding: .utf8).split(separator: "\n")
            let decodes = recorded.filter { $0.contains("] (decode) -[NSImage _loadFromFile:]: ") }
            XCTAssertGreaterThan(decodes.count, 0, "Gridlock decodes its images after looking them up")
            let lookedUp = Set(recorded.compactMap { $0.firstMatch(of: #/\+\[NSImage imageNamed:\]: "([^"]+)"/#).map { String($0.1) } })
            for decode in decodes {
                let name = try XCTUnwrap(decode.firstMatch(of: #/: "([^"]+)" [0-9]+\.[0-9]{3} ms(, [0-9]+\.[0-9]{3} ms own)?$/#), "a named, timed decode: \(decode)").1
                XCTAssertTrue(lookedUp.contains(String(name)), "\(name) was looked up before it was decoded")
            }
            let agentNames = Set(agent.launch + agent.after), ptraceNames = Set(ptrace.launch + ptrace.after)
            XCTAssertTrue(Set(agent.after).isSubset(of: ptraceNames), "after the launch: \(Set(agent.after).subtracting(ptraceNames))")
            XCTAssertTrue(Set(ptrace.after).isSubset(of: agentNames), "after the launch: \(Set(ptrace.after).subtracting(agentNames))")
        }
    }
#endif
