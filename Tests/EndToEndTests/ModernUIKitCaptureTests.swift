import Foundation
import TestSupport
import XCTest

/// Captures of an app on a model of modern UIKit (`Tests/Models/ModernUIKit`: iOS 18's image
/// call graph as C functions carrying the real method names, built by clang without debug
/// information; ../shared/docs/apple-image-paths.md), made by a real lldb and read by
/// `imgtrace trace`, checked against the app's own record of its requests.
///
/// Every capture runs against the model built twice: at -O0, where every call is a call, and at
/// -O2, where the thin wrappers are tail calls (`jmp`) as Apple ships its frameworks, so the
/// wrapper's frame is gone from the stack when its callee's breakpoint hits.
///
/// It stands in for a device launch: lldb finds the methods by name as it finds UIKit's, and
/// evaluates `[(id)$arg3 UTF8String]` through the model's `objc_msgSend`. What it cannot show is
/// lldb's NSString formatter, which exists on Apple platforms only.
final class ModernUIKitCaptureTests: XCTestCase {
    private var work: URL!
    /// The app per optimization level, each linked to its own build of the model.
    private var apps: [(level: String, app: URL)] = []

    /// A clang that can build the model (the asm labels hold `+[…]` names), and lldb-16 or another.
    private static let clang = ["/opt/swift/usr/bin/clang", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
    private static let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let levels = ["-O0", "-O2"]

    override func setUpWithError() throws {
        guard let clang = Self.clang, Self.lldb != nil else { throw XCTSkip("the model needs clang and lldb (CI installs lldb-16)") }
        work = try BinaryRunner.temporaryDirectory()
        let models = Corpus.packageRoot.appendingPathComponent("Tests/Models/ModernUIKit")
        apps = []
        for level in Self.levels {
            let folder = work.appendingPathComponent(String(level.dropFirst()))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let library = folder.appendingPathComponent("libModernUIKit.so"), app = folder.appendingPathComponent("ModernApp")
            try run(clang, [level, "-fPIC", "-shared", "-o", library.path, models.appendingPathComponent("ModernUIKit.c").path])
            try run(
                clang,
                [
                    level, "-pthread", "-o", app.path, models.appendingPathComponent("ModernApp.c").path, "-L", folder.path, "-lModernUIKit",
                    "-Wl,-rpath," + folder.path,
                ])
            apps.append((level, app))
        }
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments.joined(separator: " "))")
    }

    /// The wrappers of the call graph, as `objdump -d` shows each level's build: at -O0 none ends
    /// in a jump to another image method; at -O2 the public class methods and the asset
    /// manager's chain do, as in UIKit (the model would prove nothing about tail calls otherwise).
    func testTheOptimizedModelTailCallsAndTheUnoptimizedDoesNot() throws {
        var tailCallers: [String: Set<String>] = [:]
        for (level, app) in apps {
            let objdump = Process(), pipe = Pipe()
            objdump.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            objdump.arguments = ["objdump", "-d", "--no-show-raw-insn", app.deletingLastPathComponent().appendingPathComponent("libModernUIKit.so").path]
            objdump.standardOutput = pipe
            try objdump.run()
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            objdump.waitUntilExit()
            var function = ""
            for line in text.split(separator: "\n") {
                if line.hasSuffix(">:"), let open = line.firstIndex(of: "<") {
                    function = String(line[line.index(after: open)..<line.index(line.endIndex, offsetBy: -2)])
                } else if line.contains("\tjmp "), function.hasPrefix("+[") || function.hasPrefix("-["), !function.hasSuffix("@plt"),
                    let open = line.lastIndex(of: "<"), line.hasSuffix(">")
                {
                    // A jump to another method's start (directly or through its PLT stub), not within itself.
                    let target = line[line.index(after: open)..<line.index(before: line.endIndex)]
                    if !target.contains("+0x"), target.hasPrefix("+[") || target.hasPrefix("-["), target != function {
                        tailCallers[level, default: []].insert(function)
                    }
                }
            }
        }
        XCTAssertEqual(tailCallers["-O0"] ?? [], [])
        let optimized = tailCallers["-O2"] ?? []
        for wrapper in [
            "+[UIImage imageNamed:]", "+[UIImage imageNamed:inBundle:compatibleWithTraitCollection:]", "-[_UIAssetManager imageNamed:]",
            "-[_UIAssetManager imageNamed:idiom:]", "-[_UIAssetManager imageNamed:idiom:subtype:]", "-[_UIAssetManager imageNamed:configuration:]",
            "+[UIImage systemImageNamed:]", "-[UIImageNibPlaceholder initWithCoder:]",
        ] {
            XCTAssertTrue(optimized.contains(wrapper), "\(wrapper) is no tail call at -O2: \(optimized.sorted())")
        }
    }

    /// Runs the app under lldb with `commands` sourced (or gdb with `gdb` set); returns the
    /// console and the app's record.
    private func capture(
        _ commands: String, app: URL, arguments: [String] = [], gdb: Bool = false
    ) throws -> (log: URL, record: [(kind: String, entry: String, name: String)]) {
        let script = work.appendingPathComponent("capture.commands"), log = work.appendingPathComponent("launch.log")
        let record = work.appendingPathComponent("record.tsv")
        try commands.write(to: script, atomically: true, encoding: .utf8)
        if gdb {
            try DebuggerSession.run(
                "/usr/bin/gdb", ["-batch", "-nx", "-x", script.path, "-ex", "run", "--args", app.path, record.path] + arguments, console: log)
        } else {
            try DebuggerSession.run(Self.lldb!, ["-b", "-s", script.path, "-o", "run", "--", app.path, record.path] + arguments, console: log)
        }
        let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
        return (
            log,
            lines.map { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return (fields[0], fields[1], fields[2])
            }
        )
    }

    /// The console without lldb's echoes (the script's definition is one long line).
    private func output(_ log: URL) throws -> String {
        try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("(lldb)") }.joined(separator: "\n")
    }

    /// The record as `read` counts it: requests per kind and name.
    private func perKind(_ record: [(kind: String, entry: String, name: String)]) -> [String: Int] {
        var expected: [String: Int] = [:]
        for request in record { expected["\(request.kind) \(request.name)", default: 0] += 1 }
        return expected
    }

    /// `imgtrace lldb-script` with `arguments`.
    private func script(_ arguments: [String]) throws -> String {
        let result = try BinaryRunner.run(["lldb-script"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText
    }

    /// What `imgtrace trace` reads: loads per name, and per kind and name.
    private func read(_ log: URL) throws -> (names: [String: Int], kinds: [String: Int], skipped: Int) {
        let result = try BinaryRunner.run(["trace", log.path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let events = try XCTUnwrap(document["events"] as? [[String: Any]])
        var names: [String: Int] = [:], kinds: [String: Int] = [:]
        var skipped = 0
        for event in events {
            if event["status"] as? String == "skipped" { skipped += 1 }
            guard event["status"] as? String == "ok" else { continue }
            let name = event["name"] as? String ?? "(none)"
            names[name, default: 0] += 1
            kinds["\(event["kind"] as? String ?? "?") \(name)", default: 0] += 1
        }
        return (names, kinds, skipped)
    }

    private func namesRead(_ log: URL) throws -> [String: Int] { try read(log).names }

    /// Every Objective-C method the model library defines, as `nm` lists them.
    private func modelMethods() throws -> [String] {
        let nm = Process(), pipe = Pipe()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        nm.arguments = ["nm", "-D", "--defined-only", apps[0].app.deletingLastPathComponent().appendingPathComponent("libModernUIKit.so").path]
        nm.standardOutput = pipe
        try nm.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        return text.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: " T ")?.upperBound else { return nil }
            let symbol = String(line[start...])
            return symbol.hasPrefix("+[") || symbol.hasPrefix("-[") ? symbol : nil
        }
    }

    /// A capture that breaks on every image method (what a thorough user, or an older script,
    /// sets), each action told apart by a comment: a storyboard image passes five asset-manager
    /// methods and CoreUI, a code request the public methods that call each other. Each request
    /// reads as one load of its kind, exactly the app's record.
    func testABreakpointOnEveryMethodCountsEachRequestOnceWithItsKind() throws {
        let methods = try modelMethods()
        XCTAssertGreaterThan(methods.count, 20)
        for (level, app) in apps {
            let (log, record) = try capture(everyMethod(methods), app: app)
            let console = try output(log)
            XCTAssertEqual(try read(log).kinds, perKind(record), "\(level): \(console)")
        }
    }

    private func everyMethod(_ methods: [String]) -> String {
        methods.map { #"breakpoint set -n "\#($0)" -G true -C "p (const char *)[(id)$arg3 UTF8String] /* \#($0) */""# }.joined(separator: "\n") + "\n"
    }

    /// The default capture: breakpoints on the funnels, one callback that prints each request
    /// once at the outermost image API with its kind. Exactly the app's record, per kind and name.
    func testTheDefaultScriptGivesExactlyTheRecord() throws {
        for (level, app) in apps {
            let (log, record) = try capture(try script([]), app: app)
            let console = try output(log)
            let read = try read(log)
            XCTAssertEqual(read.kinds, perKind(record), "\(level): \(console)")
            XCTAssertEqual(read.skipped, 0, console)
            // Unoptimized, the placeholder's frame is on the stack; optimized, it tail-called the
            // asset manager and only the kind of the first API tells.
            let api = level == "-O0" ? "-[UIImageNibPlaceholder initWithCoder:]" : "-[_UIAssetManager imageNamed:]"
            XCTAssertTrue(console.contains("[ModernApp] (nib) \(api): \"header_logo\""), "\(level): \(console)")
        }
    }

    /// With a second thread loading icons meanwhile, the default capture loses no request: the
    /// model has no NSString formatter, so every name is read by running `UTF8String` in the app,
    /// with the other threads held; lldb's warnings for the threads that stopped together are
    /// announced by the callback and lose nothing.
    func testTwoThreadsLoseNoRequestUnderTheDefaultScript() throws {
        for (level, app) in apps {
            let (log, record) = try capture(try script([]), app: app, arguments: ["threads"])
            XCTAssertEqual(record.filter { $0.name == "worker_icon" }.count, 40)
            let console = try output(log)
            let read = try read(log)
            XCTAssertEqual(read.kinds, perKind(record), "\(level): \(console)")
            XCTAssertEqual(read.skipped, 0, console)
        }
    }

    /// `--style print` (no Python): a `p` action per funnel, one line per hit, merged by the
    /// reader from the call graph. Every request once; a trait change reads as SwiftUI, since
    /// the image asset that tells them apart has no breakpoint and the log no stack.
    func testThePrintStyleMergesByTheCallGraph() throws {
        for (level, app) in apps {
            let (log, record) = try capture(try script(["--style", "print"]), app: app)
            var expected: [String: Int] = [:]
            for request in record { expected["\(request.kind == "trait" ? "swiftui" : request.kind) \(request.name)", default: 0] += 1 }
            let console = try output(log)
            XCTAssertEqual(try read(log).kinds, expected, "\(level): \(console)")
        }
    }

    /// With a second thread loading icons meanwhile, `--style print` cannot tell whose hit a line
    /// is: a worker's request may be joined to the main thread's open one, and a main-thread inner
    /// call after a worker's line read as a request. The reader says how many hits it joined and how
    /// many requests began at an inner API without a thread: the bounds of its error, both ways.
    func testThePrintStyleCountsWhatTwoThreadsMayCostIt() throws {
        for (level, app) in apps {
            let (log, record) = try capture(try script(["--style", "print"]), app: app, arguments: ["threads"])
            let read = try read(log)
            let lost = record.count - read.kinds.values.reduce(0, +) - read.skipped
            let trace = try BinaryRunner.run(["trace", log.path])
            // The report wraps long warnings: read it as one line.
            let text = trace.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            // "… may be up to N too low or M too high …"
            let bounds = try XCTUnwrap(
                text.range(of: #"up to [0-9]+ too low or [0-9]+ too high"#, options: .regularExpression).map {
                    text[$0].split(separator: " ").compactMap { Int($0) }
                }, "\(level): \(text)")
            XCTAssertEqual(bounds.count, 2, text)
            XCTAssertLessThanOrEqual(lost, bounds[0], "\(level): the requests lost are within the warned bound: \(text)")
            XCTAssertLessThanOrEqual(-lost, bounds[1], "\(level): the requests counted twice are within the warned bound: \(text)")
        }
    }

    /// The seed technique's `p` action runs code in the app and holds no thread: with a second
    /// thread it loses hits. Each is counted (lldb's warning), none goes silent.
    func testLostHitsOfTheSeedTechniqueAreCounted() throws {
        for (level, app) in apps {
            let seed = #"breakpoint set -n imageNamed: -G true -C "p (const char *)[(id)$arg3 UTF8String]""# + "\n"
            let (log, record) = try capture(seed, app: app, arguments: ["threads"])
            var expected: [String: Int] = [:]
            for request in record where request.entry == "+[UIImage imageNamed:]" || request.kind == "nib" { expected[request.name, default: 0] += 1 }
            let console = try output(log)
            let read = try read(log)
            for (name, count) in read.names { XCTAssertLessThanOrEqual(count, expected[name] ?? 0, "\(level) \(name)") }
            let lost = expected.values.reduce(0, +) - read.names.values.reduce(0, +)
            let warnings = console.components(separatedBy: "warning: hit breakpoint while running function").count - 1
            XCTAssertEqual(read.skipped, warnings, "\(level): every warning is a skipped hit")
            XCTAssertEqual(lost, read.skipped, "\(level): every lost request is counted")
        }
    }

    /// The Xcode breakpoint list runs the same callback as a debugger-command action (lldb runs
    /// the action here as Xcode would).
    func testTheXcodeListGivesExactlyTheRecord() throws {
        let xml = try script(["--format", "xcode"])
        let commands = DebuggerSession.lldbCommands(forXcodeList: xml)
        for (level, app) in apps {
            let (log, record) = try capture(commands, app: app, arguments: ["threads"])
            let console = try output(log)
            let read = try read(log)
            XCTAssertEqual(read.kinds, perKind(record), "\(level): \(console)")
            XCTAssertEqual(read.skipped, 0, console)
        }
    }

    /// gdb runs the same callback in its own Python, with the scheduler locked while `UTF8String`
    /// runs; one thread and two.
    func testTheGdbScriptGivesExactlyTheRecord() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { throw XCTSkip("gdb is not installed (CI installs it)") }
        #if arch(x86_64)
            let commands = try script(["--format", "gdb", "--arch", "x86_64"])
        #else
            let commands = try script(["--format", "gdb", "--arch", "arm64"])
        #endif
        for (level, app) in apps {
            for arguments in [[], ["threads"]] {
                let (log, record) = try capture(commands, app: app, arguments: arguments, gdb: true)
                let console = try output(log)
                // gdb 13 on a CPU with AMX cannot set up a call into the program ("Couldn't write
                // extended state status", even for `call f(1)` in a C program): no callback can
                // read a name there, whatever the script says.
                if console.contains("Couldn't write extended state status") {
                    throw XCTSkip("this machine's gdb cannot call a function in the program (\"Couldn't write extended state status\"): no name can be read")
                }
                let read = try read(log)
                XCTAssertEqual(read.kinds, perKind(record), "\(level) \(arguments): \(console)")
                XCTAssertEqual(read.skipped, 0, console)
            }
        }
    }

    /// The model app makes every kind of request, and runs to its end under the debugger.
    func testTheModelAppRecordsEveryKindOfRequest() throws {
        for (level, app) in apps {
            let (_, record) = try capture("", app: app)
            XCTAssertEqual(Set(record.map(\.kind)), ["code", "nib", "swiftui", "symbol", "trait", "data", "file"], level)
            XCTAssertEqual(record.count, 17, level)
        }
    }

    /// Seed 003's technique — one symbolic breakpoint on the selector `imageNamed:` — sees each
    /// request made through `+[UIImage imageNamed:]` and each storyboard or nib image (whose
    /// placeholder calls `-[_UIAssetManager imageNamed:]`) exactly once, and nothing else.
    func testTheSeedTechniqueSeesCodeAndNibRequestsExactlyOnce() throws {
        for (level, app) in apps {
            let (log, record) = try capture(#"breakpoint set -n imageNamed: -G true -C "p (const char *)[(id)$arg3 UTF8String]""# + "\n", app: app)
            var expected: [String: Int] = [:]
            for request in record where request.entry == "+[UIImage imageNamed:]" || request.kind == "nib" { expected[request.name, default: 0] += 1 }
            XCTAssertEqual(expected, ["AppIcon": 1, "tab_home": 2, "Placeholder": 5, "header_logo": 1], "the model's record")
            let console = try output(log)
            XCTAssertEqual(try namesRead(log), expected, "\(level): \(console)")
        }
    }
}
