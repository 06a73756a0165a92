import Foundation
import TestSupport
import XCTest

/// One definition of the launch's end for every capture: the launch ends when the launch-end
/// function first returns. A program makes 3 requests, 2 more inside `finish_launching`, then 1
/// after it returns: every capture (`record`, `record --agent`, lldb, gdb) must give 5 launch loads
/// and 1 after, at -O0 and at -O2 (where `finish_launching`'s last request is a tail call).
final class LaunchEndSplitTests: XCTestCase {
    /// The toolkit: a loader and the launch-end function, in a library as UIKit is to an app
    /// (the agent wraps C functions through the GOT: calls from another module).
    static let library = #"""
        #include <stdio.h>
        #include <stdlib.h>
        // noipa: gcc -O2 would otherwise call a clone without the unused arguments.
        __attribute__((noipa)) void *image_named(void *receiver, const char *selector, const char *name) {
            FILE *record = fopen(getenv("RECORD"), "a");
            fprintf(record, "%s\n", name); fclose(record); return (void *)name;
        }
        __attribute__((noipa)) void *finish_launching(void) {
            image_named(0, "imageNamed:", "inside_one");
            return image_named(0, "imageNamed:", "inside_two");
        }
        """#

    static let program = #"""
        void *image_named(void *receiver, const char *selector, const char *name);
        void *finish_launching(void);
        int main(void) {
            image_named(0, "imageNamed:", "first");
            image_named(0, "imageNamed:", "second");
            image_named(0, "imageNamed:", "third");
            finish_launching();
            image_named(0, "imageNamed:", "after_launch");
            return 0;
        }
        """#

    private var work: URL!

    override func setUpWithError() throws {
        work = try BinaryRunner.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// The program and its library built with `optimization`; at -O2 the library's inner request
    /// must be a tail call.
    private func build(_ optimization: String) throws -> URL {
        let binary: URL
        do {
            let library = try CCompiler.compile(Self.library, to: "libphase\(optimization).so", in: work, flags: ["-g", optimization, "-shared", "-fPIC"])
            if optimization == "-O2" {
                let listing = try shell("/usr/bin/objdump", ["-d", "--no-show-raw-insn", library.path])
                let body = listing.components(separatedBy: "<finish_launching>:").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
                XCTAssertTrue(body.contains("jmp") && body.contains("<image_named"), "at -O2 finish_launching tail-calls image_named:\n\(body)")
            }
            binary = try CCompiler.compile(
                Self.program, to: "three-phase\(optimization)", in: work,
                flags: ["-g", optimization, "-Wl,--no-as-needed", "-L\(work.path)", "-l:libphase\(optimization).so", "-Wl,-rpath,\(work.path)"])
        } catch let error as CCompiler.Unavailable {
            throw XCTSkip(error.description)
        }
        return binary
    }

    private func shell(_ tool: String, _ arguments: [String]) throws -> String {
        let output = work.appendingPathComponent("shell.txt")
        try DebuggerSession.run(tool, arguments, console: output)
        return try String(contentsOf: output, encoding: .utf8)
    }

    /// The launch and after-launch loads `imgtrace trace` reads in `log`.
    private func split(_ log: URL) throws -> (launch: [String], after: [String]) {
        let trace = try BinaryRunner.run(["trace", log.path, "--format", "json"])
        XCTAssertEqual(trace.status, 0, trace.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: trace.stdout) as? [String: Any])
        let events = try XCTUnwrap(json["events"] as? [[String: Any]])
        let names = { (phase: String) in events.filter { $0["phase"] as? String == phase }.compactMap { $0["name"] as? String } }
        return (names("launch"), names("afterLaunch"))
    }

    private func assertFivePlusOne(_ log: URL, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let (launch, after) = try split(log)
        XCTAssertEqual(launch, ["first", "second", "third", "inside_one", "inside_two"], "\(what): the launch", file: file, line: line)
        XCTAssertEqual(after, ["after_launch"], "\(what): after the launch", file: file, line: line)
    }

    func testRecordEndsTheLaunchAtTheReturn() throws {
        for optimization in ["-O0", "-O2"] {
            let binary = try build(optimization)
            let log = work.appendingPathComponent("record\(optimization).log")
            for agent in [[], ["--agent"]] {
                let run = try BinaryRunner.run(
                    ["record", "--symbol", "image_named", "--launch-end", "finish_launching", "--output", log.path] + agent + ["--", binary.path],
                    environment: recordFile)
                XCTAssertEqual(run.status, 0, run.stderr)
                XCTAssertTrue(run.stderr.contains("the launch end was reached"), run.stderr)
                try assertFivePlusOne(log, "record \(agent.joined()) \(optimization)")
            }
        }
    }

    /// Where the program records its requests (the debuggers pass the environment on).
    private var recordFile: [String: String] { ["RECORD": work.appendingPathComponent("record.txt").path] }

    func testLldbEndsTheLaunchAtTheReturn() throws {
        guard let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("no lldb installed (CI installs Debian's lldb-16)")
        }
        for optimization in ["-O0", "-O2"] {
            let binary = try build(optimization)
            for style in [["--style", "requests"], ["--style", "print"]] {
                let script = try BinaryRunner.run(["lldb-script", "--symbol", "image_named", "--launch-end", "finish_launching", "--backtrace", "0"] + style)
                XCTAssertEqual(script.status, 0, script.stderr)
                let commands = work.appendingPathComponent("capture.lldb")
                try script.stdout.write(to: commands)
                let log = work.appendingPathComponent("lldb\(optimization)\(style[1]).log")
                try DebuggerSession.run(lldb, ["-b", "-s", commands.path, "-o", "run", "--", binary.path], console: log, environment: recordFile)
                try assertFivePlusOne(log, "lldb \(style[1]) \(optimization)")
            }
        }
    }

    /// Xcode's breakpoint list: its actions run by lldb as Xcode runs them (a symbolic breakpoint
    /// each, past the prologue, continuing after its actions).
    func testTheXcodeListEndsTheLaunchAtTheReturn() throws {
        guard let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("no lldb installed (CI installs Debian's lldb-16)")
        }
        let list = try BinaryRunner.run(["lldb-script", "--format", "xcode", "--symbol", "image_named", "--launch-end", "finish_launching"])
        XCTAssertEqual(list.status, 0, list.stderr)
        let commands = DebuggerSession.lldbCommands(forXcodeList: list.stdoutText)
        let file = work.appendingPathComponent("xcode.lldb")
        try commands.write(to: file, atomically: true, encoding: .utf8)
        for optimization in ["-O0", "-O2"] {
            let binary = try build(optimization)
            let log = work.appendingPathComponent("xcode\(optimization).log")
            try DebuggerSession.run(lldb, ["-b", "-s", file.path, "-o", "run", "--", binary.path], console: log, environment: recordFile)
            try assertFivePlusOne(log, "Xcode's list \(optimization)")
        }
    }

    func testGdbEndsTheLaunchAtTheReturn() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { throw XCTSkip("gdb is not installed (CI installs it)") }
        for optimization in ["-O0", "-O2"] {
            let binary = try build(optimization)
            for style in [["--style", "requests"], ["--style", "print"]] {
                let script = try BinaryRunner.run(
                    ["lldb-script", "--format", "gdb", "--arch", "x86_64", "--symbol", "image_named", "--launch-end", "finish_launching"] + style)
                XCTAssertEqual(script.status, 0, script.stderr)
                let commands = work.appendingPathComponent("capture.gdb")
                try script.stdout.write(to: commands)
                let log = work.appendingPathComponent("gdb\(optimization)\(style[1]).log")
                try DebuggerSession.run(
                    "/usr/bin/gdb", ["-batch", "-nx", "-x", commands.path, "-ex", "run", "--args", binary.path], console: log, environment: recordFile)
                try assertFivePlusOne(log, "gdb \(style[1]) \(optimization)")
            }
        }
    }

    /// Gridlock under lldb and gdb with `lldb-script`'s own file and nothing else: Debian's
    /// libgnustep-gui is stripped, so its breakpoints by name stay pending; the script finds
    /// `+[NSImage imageNamed:]` and the launch end through the Objective-C runtime at `main`.
    /// The launch end at `-[NSApplication finishLaunching]`'s return splits it 182 + 10, as
    /// `record` and the agent do (AgentRecordTests).
    func testGridlockUnderEitherDebuggerWithTheScriptAloneEndsTheLaunchWhereRecordDoes() throws {
        let app = "/usr/lib/GNUstep/Applications/Gridlock.app"
        guard FileManager.default.fileExists(atPath: app), FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run") else {
            throw XCTSkip("needs gridlock.app and xvfb (CI installs them)")
        }
        let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first(where: FileManager.default.isExecutableFile(atPath:))
        let gdb = FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") ? "/usr/bin/gdb" : nil
        guard lldb != nil || gdb != nil else { throw XCTSkip("needs lldb or gdb (CI installs both)") }
        let options = ["lldb-script", "--launch-end=-[NSApplication finishLaunching]", "--api", "ns-image-named", "--arch", "x86_64", "--backtrace", "0"]
        var runs: [(String, [String], String)] = []
        if let lldb { runs.append(("lldb", options, lldb)) }
        if let gdb { runs.append(("gdb", options + ["--format", "gdb"], gdb)) }
        for (debugger, arguments, tool) in runs {
            let script = try BinaryRunner.run(arguments)
            XCTAssertEqual(script.status, 0, script.stderr)
            let file = work.appendingPathComponent("gridlock.\(debugger)")
            try script.stdout.write(to: file)
            let launchArguments =
                debugger == "lldb" ? ["--batch", "-s", file.path, "-o", "run", app + "/Gridlock"] : ["-batch", "-nx", "-x", file.path, "-ex", "run", app + "/Gridlock"]
            // Gridlock runs until it is stopped: 40 s is several times what its launch takes under a debugger here.
            let log = work.appendingPathComponent("gridlock-\(debugger).log")
            try DebuggerSession.run("/usr/bin/timeout", ["40", "/usr/bin/xvfb-run", "-a", tool] + launchArguments, console: log)
            let (launch, after) = try split(log)
            // Debian 12's Gridlock: 182 launch requests, then up to 10 as its menus redraw (the corpus's MANIFEST: 192 in all).
            XCTAssertEqual(launch.count, 182, "\(debugger): Gridlock's launch")
            XCTAssertLessThanOrEqual(after.count, 10, "\(debugger): after the launch end")
            XCTAssertTrue(launch.contains("GSArrowCursor") && launch.contains("Gridlock.tiff"), "\(debugger): \(launch.prefix(5))")
        }
    }

    /// A toolkit stripped as Debian's libgnustep-gui is: GCC's method symbols gone, so a
    /// breakpoint by name stays pending. `finishLaunching` makes its request last (a tail call at -O2).
    static let strippedKit = #"""
        #import <Foundation/Foundation.h>
        @interface NSImage : NSObject
        + (id)imageNamed:(NSString *)name;
        @end
        @implementation NSImage
        + (id)imageNamed:(NSString *)name { return [name length] ? name : nil; }
        @end
        @interface NSApplication : NSObject
        - (id)finishLaunching;
        @end
        @implementation NSApplication
        - (id)finishLaunching {
            [NSImage imageNamed:@"inside_one"];
            return [NSImage imageNamed:[NSString stringWithFormat:@"inside_%@", @"two"]];
        }
        @end
        """#

    static let strippedKitProgram = #"""
        #import <Foundation/Foundation.h>
        @interface NSImage : NSObject
        + (id)imageNamed:(NSString *)name;
        @end
        @interface NSApplication : NSObject
        - (id)finishLaunching;
        @end
        int main(void) {
            NSAutoreleasePool *pool = [NSAutoreleasePool new];
            [NSImage imageNamed:@"first"];
            [NSImage imageNamed:[NSString stringWithFormat:@"second_%d", 2]];
            [[NSApplication new] finishLaunching];
            [NSImage imageNamed:@"after_launch"];
            [pool release];
            return 0;
        }
        """#

    /// lldb-script's own file, under lldb and gdb, against that stripped toolkit at -O0 and -O2:
    /// the methods are found through the runtime at `main`, every request and the launch end as
    /// with symbols.
    func testTheScriptFindsAStrippedToolkitsMethodsThroughTheRuntime() throws {
        guard let flags = Shell.output("gnustep-config --objc-flags"), let libraries = Shell.output("gnustep-config --base-libs") else {
            throw XCTSkip("needs gobjc and libgnustep-base-dev (gnustep-config)")
        }
        let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first(where: FileManager.default.isExecutableFile(atPath:))
        let gdb = FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") ? "/usr/bin/gdb" : nil
        guard lldb != nil || gdb != nil else { throw XCTSkip("needs lldb or gdb (CI installs both)") }
        let cleaned = flags.replacingOccurrences(of: "-MMD -MP", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        let kitSource = work.appendingPathComponent("kit.m"), programSource = work.appendingPathComponent("main.m")
        try Self.strippedKit.write(to: kitSource, atomically: true, encoding: .utf8)
        try Self.strippedKitProgram.write(to: programSource, atomically: true, encoding: .utf8)
        let options = ["lldb-script", "--launch-end=-[NSApplication finishLaunching]", "--api", "ns-image-named", "--arch", "x86_64", "--backtrace", "0"]
        for level in ["-O0", "-O2"] {
            let kit = work.appendingPathComponent("libstrippedkit\(level).so"), program = work.appendingPathComponent("app\(level)")
            guard Shell.output("cc -x objective-c -std=gnu99 \(cleaned) \(level) -shared -fPIC -o \(kit.path) \(kitSource.path) \(libraries) 2>&1 >/dev/null") != nil,
                Shell.output(
                    "cc -x objective-c -std=gnu99 \(cleaned) \(level) -o \(program.path) \(programSource.path) -x none \(kit.path) -Wl,-rpath,\(work.path) \(libraries) 2>&1 >/dev/null"
                ) != nil
            else { throw XCTSkip("gobjc could not build the model") }
            let listing = try shell("/usr/bin/objdump", ["-d", "--no-show-raw-insn", kit.path])
            if level == "-O2" {
                let body = listing.components(separatedBy: "<_i_NSApplication__finishLaunching>:").dropFirst().first?.components(separatedBy: "\n\n").first ?? ""
                XCTAssertTrue(body.contains("jmp"), "at -O2 finishLaunching's last request is a tail call:\n\(body)")
            }
            _ = try shell("/usr/bin/strip", ["--strip-all", kit.path])
            let symbols = try shell("/usr/bin/readelf", ["-Ws", kit.path])
            XCTAssertFalse(symbols.contains("_c_NSImage__imageNamed_"), "the library is stripped of its methods' symbols")
            var runs: [(String, String, [String])] = []
            if let lldb { runs.append(("lldb", lldb, ["--batch", "-o", "run", program.path])) }
            if let gdb { runs.append(("gdb", gdb, ["-batch", "-nx", "-ex", "run", program.path])) }
            for (debugger, tool, arguments) in runs {
                let script = try BinaryRunner.run(options + (debugger == "gdb" ? ["--format", "gdb"] : []))
                let file = work.appendingPathComponent("capture\(level).\(debugger)")
                try script.stdout.write(to: file)
                let log = work.appendingPathComponent("stripped\(level).\(debugger).log")
                try DebuggerSession.run(tool, [debugger == "lldb" ? "-s" : "-x", file.path] + arguments, console: log)
                let (launch, after) = try split(log)
                XCTAssertEqual(launch, ["first", "second_2", "inside_one", "inside_two"], "\(debugger) \(level): the launch")
                XCTAssertEqual(after, ["after_launch"], "\(debugger) \(level): after the launch")
            }
        }
    }

    /// `--symbol NAME:ARG` as `record` takes it: the name in another argument's register.
    func testLldbScriptReadsTheNameFromTheArgumentGiven() throws {
        guard let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw XCTSkip("no lldb installed (CI installs Debian's lldb-16)")
        }
        let source = #"""
            #include <stdio.h>
            __attribute__((noipa)) void *load_image(const char *name) { __asm__ volatile(""); return (void *)name; }
            int main(void) { load_image("first_argument"); load_image("again"); return 0; }
            """#
        let binary = try CCompiler.compile(source, to: "first-argument", in: work, flags: ["-g", "-O2"])
        for arch in ["portable", "x86_64"] {
            let script = try BinaryRunner.run(["lldb-script", "--arch", arch, "--symbol", "load_image:1", "--no-launch-end", "--backtrace", "0"])
            XCTAssertEqual(script.status, 0, script.stderr)
            let commands = work.appendingPathComponent("capture.lldb")
            try script.stdout.write(to: commands)
            let log = work.appendingPathComponent("first-\(arch).log")
            try DebuggerSession.run(lldb, ["-b", "-s", commands.path, "-o", "run", "--", binary.path], console: log)
            XCTAssertEqual(try split(log).launch, ["first_argument", "again"], arch)
        }
        let armv7 = try BinaryRunner.run(["lldb-script", "--arch", "armv7", "--symbol", "load_image:5"])
        XCTAssertEqual(armv7.status, 64, "argument 5 is on armv7's stack")
        XCTAssertTrue(armv7.stderr.contains("on the stack"), armv7.stderr)
    }
}
