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

    /// Gridlock under lldb with the corpus's workaround for GNUstep's stripped library (the
    /// methods' addresses found through the runtime at `main`, as `b-gridlock-lldb-nsprint.cmd`
    /// does): the launch end at `-[NSApplication finishLaunching]`'s return splits it 182 + 10, as
    /// `record` and the agent do (AgentRecordTests).
    func testGridlockUnderLldbEndsTheLaunchWhereRecordDoes() throws {
        let app = "/usr/lib/GNUstep/Applications/Gridlock.app"
        guard let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first(where: FileManager.default.isExecutableFile(atPath:)),
            FileManager.default.fileExists(atPath: app), FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run")
        else { throw XCTSkip("needs lldb, gridlock.app and xvfb (CI installs them)") }
        let script = try BinaryRunner.run(["lldb-script", "--launch-end=-[NSApplication finishLaunching]", "--style", "print", "--api", "ns-image-named"])
        XCTAssertEqual(script.status, 0, script.stderr)
        let generated = work.appendingPathComponent("imgtrace.lldb")
        try script.stdout.write(to: generated)
        // The runtime's own answer for each method's code: the library has no symbols for them.
        func implementation(_ variable: String, _ lookup: String, _ cls: String, _ selector: String) -> String {
            "expr -- void *$\(variable) = ((void *(*)(void *))method_getImplementation)(((void *(*)(void *, void *))\(lookup))("
                + "((void *(*)(const char *))objc_getClass)(\"\(cls)\"), ((void *(*)(const char *))sel_registerName)(\"\(selector)\")))"
        }
        let commands = [
            "breakpoint set -n main -o true", "run", "command source \(generated.path)",
            implementation("imp", "class_getClassMethod", "NSImage", "imageNamed:"),
            implementation("end", "class_getInstanceMethod", "NSApplication", "finishLaunching"),
            #"breakpoint set -a $imp -G true -C "p (const char *)((const char *(*)(void *))_NSPrintForDebugger)((void *)$rdx)""#,
            #"breakpoint set -a $end -o true -G true -C "script imgtrace_launch_end(lldb.frame)""#, "continue",
        ]
        let file = work.appendingPathComponent("gridlock.lldb")
        try (commands.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        // Gridlock runs until it is stopped: 40 s is several times what its launch takes under lldb here.
        let log = work.appendingPathComponent("gridlock-lldb.log")
        try DebuggerSession.run("/usr/bin/timeout", ["40", "/usr/bin/xvfb-run", "-a", lldb, "--batch", "-s", file.path, app + "/Gridlock"], console: log)
        let (launch, after) = try split(log)
        guard !launch.isEmpty else { throw XCTSkip("lldb read no name here (it could not call into the program)") }
        // Debian 12's Gridlock: 182 launch requests, then up to 10 as its menus redraw (the corpus's MANIFEST: 192 in all).
        XCTAssertEqual(launch.count, 182, "Gridlock's launch")
        XCTAssertLessThanOrEqual(after.count, 10, "after the launch end")
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
