#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// `imgtrace record --agent` against programs the test compiles: an Objective-C model of
    /// UIKit's call graph on GNUstep's runtime (../shared/docs/apple-image-paths.md: nested class
    /// methods, the nib placeholder's direct asset-manager call, CoreUI's ten-argument lookups with
    /// a double, SwiftUI's and trait changes' paths), a C loader wrapped through the GOT, a program
    /// that forks and execs (Debian's Gridlock: AgentGridlockTests). Each program writes its own truth.
    final class AgentRecordTests: AgentWorkspaceTestCase {
        /// The agent calls nothing of the Swift runtime and brings no Swift start-up object, whose
        /// constructor registered the library with the runtime before the program's main.
        func testTheAgentReferencesNoSwiftRuntimeSymbol() throws {
            let agent = BinaryRunner.executable.deletingLastPathComponent().appendingPathComponent("libImgtraceAgent.so")
            let undefined = try XCTUnwrap(Shell.output("nm -D --undefined-only \(agent.path)"))
            XCTAssertFalse(undefined.lowercased().contains("swift"), undefined)
            XCTAssertTrue(undefined.contains("dlsym"), "the listing is the agent's: \(undefined)")
            // The unwinder linked in for frames stays the agent's: preloaded first, an exported
            // `_Unwind_*` would take the place of libgcc_s's in the whole program.
            let defined = try XCTUnwrap(Shell.output("nm -D --defined-only \(agent.path)"))
            XCTAssertTrue(defined.contains("imgtrace_agent_drain"), defined)
            XCTAssertFalse(defined.contains("_Unwind") || defined.contains("__register_frame") || defined.contains("__gcc"), defined)
            // Nothing else of its own is exported either, `dlopen` included: a name the program or
            // a library also defines would change what the program's symbols resolve to.
            let exported = defined.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
            let unexpected = exported.filter { !$0.hasPrefix("imgtrace_agent_") && !["_edata", "_end", "__bss_start", "_init", "_fini"].contains($0) }
            XCTAssertEqual(unexpected, [], defined)
        }

        func testTheUIKitModelGivesEachRequestOnceWithItsKindOnBothThreads() throws {
            let program = try compileObjC(Self.uikitModel, to: "uikit_model")
            let log = work.appendingPathComponent("agent.log"), truthFile = work.appendingPathComponent("truth.tsv")
            let run = try BinaryRunner.run([
                "record", "--agent", "--launch-end=-[AppModel finishLaunching]", "--output", log.path, "--", program.path, truthFile.path,
            ])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdoutText, "model done\n", "the program's output passes through")
            XCTAssertNotNil(
                run.stderr.range(
                    of: #"imgtrace: recorded 607 hits; the program exited with status 0; the launch end was reached after [0-9]+ ms\n$"#,
                    options: .regularExpression), run.stderr)
            // Every request once, at its outermost API, with its kind; the worker thread's too.
            let recorded = try events(log), expected = try truthLines(truthFile)
            XCTAssertEqual(recorded.count, 607)
            XCTAssertEqual(recorded.sorted(), expected.sorted())
            // The main thread's requests in the order it made them.
            let text = try String(contentsOf: log, encoding: .utf8)
            let mainLines = text.split(separator: "\n").filter { $0.contains("[uikit_model]") }
            XCTAssertEqual(mainLines.count, 307, "300 + 7 requests on the main thread")
            XCTAssertTrue(text.contains("imgtrace-launch-end\n"), "the launch end is marked")
            let afterEnd = try XCTUnwrap(text.components(separatedBy: "imgtrace-launch-end\n").last)
            XCTAssertTrue(afterEnd.hasPrefix(mainLines.last.map { String($0) + "\n" } ?? "x"), "after_launch comes after the marker")
            XCTAssertNotNil(
                text.range(of: #"imgtrace-recording-end hits=607 launch-end=reached program=exit:0 launch-ms=[0-9]+\n$"#, options: .regularExpression))
        }

        /// The conformance matrix's GNUstep column: the Objective-C model built at -O0 and at -O2
        /// (where gcc makes the wrappers tail calls: `jmp *%rax` after the method lookup, checked
        /// with objdump), recorded by ptrace (with its default backtraces) and by the agent. Each
        /// gives the model's own record, per kind and name, on both threads.
        func testEveryMethodGivesTheModelsRecordUnoptimizedAndOptimized() throws {
            for level in ["-O0", "-O2"] {
                let program = try compileObjC(Self.uikitModel, to: "uikit_model\(level)", level: level)
                if level == "-O2" {
                    let disassembly = try XCTUnwrap(Shell.output("objdump -d --no-show-raw-insn \(program.path)"))
                    let wrapper = try XCTUnwrap(disassembly.components(separatedBy: "<_c_UIImage__imageNamed_>:").last?.components(separatedBy: "\n\n").first)
                    XCTAssertTrue(wrapper.contains("jmp    *%rax"), "+[UIImage imageNamed:] tail-calls at -O2: \(wrapper)")
                }
                var stacksByMethod: [[String]] = []
                for method in [[], ["--agent"]] {
                    let log = work.appendingPathComponent("model.log"), truthFile = work.appendingPathComponent("truth.tsv")
                    let run = try BinaryRunner.run(
                        ["record"] + method + ["--launch-end=-[AppModel finishLaunching]", "--output", log.path, "--", program.path, truthFile.path])
                    if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
                    XCTAssertEqual(run.status, 0, run.stderr)
                    XCTAssertTrue(run.stderr.contains("recorded 607 hits"), "\(level) \(method): \(run.stderr)")
                    let kindAndName = { (line: String) -> String in
                        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                        return "\(fields[0])\t\(fields[2])"
                    }
                    XCTAssertEqual(try events(log).map(kindAndName).sorted(), try truthLines(truthFile).map(kindAndName).sorted(), "\(level) \(method)")
                    stacksByMethod.append(try stacks(log).sorted())
                }
                // The agent unwinds in the program what ptrace unwinds from outside: the same
                // frames for every request, through the wrappers' own returns (a nib's placeholder).
                XCTAssertEqual(stacksByMethod[0].count, 607)
                XCTAssertTrue(stacksByMethod[0].allSatisfy { $0.contains("frame #1: ") }, "\(level): every hit has its caller")
                XCTAssertEqual(stacksByMethod[1], stacksByMethod[0], "\(level): the agent's frames are ptrace's")
            }
        }

        /// The matrix's debugger cells on the same model, -O0 and -O2: `lldb-script --format gdb`
        /// under gdb (both threads) and `lldb-script` under lldb-16 (one thread: lldb-16 can end a
        /// batch session when two threads stop at once, README "Capturing"). Both read GNUstep's
        /// strings from memory, so nothing runs in the program (gdb 13 crashed itself evaluating
        /// `UTF8String` there), and lldb finds the methods gcc -O2 split in two by GCC's symbols.
        func testTheDebuggersGiveTheModelsRecordUnoptimizedAndOptimized() throws {
            let gdb = "/usr/bin/gdb", lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard FileManager.default.isExecutableFile(atPath: gdb), let lldb else { throw XCTSkip("needs gdb and lldb (CI installs both)") }
            let gdbScript = work.appendingPathComponent("capture.gdb"), lldbScript = work.appendingPathComponent("capture.lldb")
            try BinaryRunner.run(["lldb-script", "--format", "gdb", "--arch", "x86_64"]).stdout.write(to: gdbScript)
            try BinaryRunner.run(["lldb-script"]).stdout.write(to: lldbScript)
            let kindAndName = { (line: String) -> String in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                return "\(fields[0])\t\(fields[2])"
            }
            for level in ["-O0", "-O2"] {
                let program = try compileObjC(Self.uikitModel, to: "uikit_model\(level)", level: level)
                let runs: [(name: String, tool: String, arguments: [String])] = [
                    ("gdb", gdb, ["-batch", "-nx", "-x", gdbScript.path, "-ex", "run", "--args", program.path]),
                    ("lldb", lldb, ["-b", "-s", lldbScript.path, "-o", "run", "--", program.path]),
                ]
                for run in runs {
                    let log = work.appendingPathComponent("\(run.name).log"), truthFile = work.appendingPathComponent("truth.tsv")
                    try DebuggerSession.run(run.tool, run.arguments + [truthFile.path] + (run.name == "lldb" ? ["one-thread"] : []), console: log)
                    let console = try String(contentsOf: log, encoding: .utf8)
                    let expected = try truthLines(truthFile)
                    XCTAssertEqual(expected.count, run.name == "lldb" ? 307 : 607, "\(level) \(run.name): the program ran to its end")
                    XCTAssertEqual(
                        try events(log).map(kindAndName).sorted(), expected.map(kindAndName).sorted(),
                        "\(level) \(run.name): \(console.suffix(3000))")
                    XCTAssertFalse(console.contains("Fatal signal"), "\(level) \(run.name): the debugger crashed")
                }
            }
        }

        /// Without imgtrace beside the app (a scheme's or simctl's DYLD_INSERT_LIBRARIES), the agent
        /// records into a file of its own; `agent-log` turns it into the same log afterwards.
        func testTheAgentRecordsIntoAFileByItselfAndAgentLogReadsIt() throws {
            let program = try compileObjC(Self.uikitModel, to: "uikit_model")
            let file = work.appendingPathComponent("agent.bin"), truthFile = work.appendingPathComponent("truth.tsv")
            let env = try BinaryRunner.run(["agent-path", "--env", file.path])
            XCTAssertEqual(env.status, 0, env.stderr)
            // The lines are for a POSIX shell: what it makes of them is the environment.
            let script = work.appendingPathComponent("agent.env")
            try env.stdout.write(to: script)
            // (printed by the shell itself: a program it ran would load the agent, which takes its variables out)
            let sourced = try XCTUnwrap(
                Shell.output(
                    "sh -c '. \(script.path); printf \"%s\\\\n\" \"LD_PRELOAD=$LD_PRELOAD\" \"IMGTRACE_AGENT_FILE=$IMGTRACE_AGENT_FILE\" \"IMGTRACE_AGENT_APIS=$IMGTRACE_AGENT_APIS\"'"
                ))
            var environment: [String: String] = [:]
            for line in sourced.split(separator: "\n") where line.hasPrefix("IMGTRACE_AGENT_") || line.hasPrefix("LD_PRELOAD=") {
                let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
                environment[parts[0]] = parts[1]
            }
            XCTAssertTrue(environment["IMGTRACE_AGENT_APIS"]?.contains("objc +[UIImage imageNamed:];") == true, sourced)
            XCTAssertEqual(Set(environment.keys), ["LD_PRELOAD", "IMGTRACE_AGENT_FILE", "IMGTRACE_AGENT_APIS"])
            let app = Process()
            app.executableURL = program
            app.arguments = [truthFile.path]
            app.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            app.standardOutput = FileHandle.nullDevice
            try app.run()
            app.waitUntilExit()
            XCTAssertEqual(app.terminationStatus, 0)
            let log = work.appendingPathComponent("from-file.log")
            let read = try BinaryRunner.run(["agent-log", file.path, "--output", log.path])
            XCTAssertEqual(read.status, 0, read.stderr)
            XCTAssertEqual(try events(log).sorted(), try truthLines(truthFile).sorted())
            // Not an agent's file: one line, exit 2, no log.
            let bad = try BinaryRunner.run(["agent-log", truthFile.path, "--output", work.appendingPathComponent("bad.log").path])
            XCTAssertEqual(bad.status, 2)
            XCTAssertEqual(bad.stderr, "imgtrace: error: \(truthFile.path): not a file the imgtrace agent wrote (IMGTRACE_AGENT_FILE): not a regular file of its size\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("bad.log").path))
        }

        static let loader = #"""
            #include <dlfcn.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include <sys/wait.h>
            #include <unistd.h>
            const char *image_named(void *a, void *b, const char *name);
            int main(int argc, char **argv) {
                if (argc > 2 && strcmp(argv[2], "exec") == 0) { image_named(0, 0, "execed_child"); return 0; }
                image_named(0, 0, "parent_before");
                image_named(0, 0, NULL);
                pid_t child = fork();
                if (child == 0) {
                    image_named(0, 0, "forked_child");
                    execl(argv[0], argv[0], argv[1], "exec", (char *)NULL);
                    _exit(1);
                }
                waitpid(child, NULL, 0);
                void *plugin = dlopen(argv[1], RTLD_NOW);
                if (!plugin) { fprintf(stderr, "%s\n", dlerror()); return 1; }
                ((void (*)(void))dlsym(plugin, "plugin_load"))();
                image_named(0, 0, "parent_after");
                return 0;
            }
            """#

        /// A class whose +initialize says when it ran: under the agent it runs when the program
        /// first sends the class a message, in main, as it does untraced (the agent once sent +class
        /// while patching, before main). The program's output and exit are the untraced ones.
        func testTheAgentSendsNoMessageBeforeTheProgramDoes() throws {
            let program = try compileObjC(
                #"""
                #import <Foundation/Foundation.h>
                #include <stdio.h>
                static int mainStarted;
                @interface Images : NSObject
                + (id)imageNamed:(NSString *)name;
                @end
                @implementation Images
                + (void)initialize { printf("initialize %s main\n", mainStarted ? "in" : "before"); }
                + (id)imageNamed:(NSString *)name { return name; }
                @end
                int main(void) {
                    mainStarted = 1;
                    NSAutoreleasePool *pool = [NSAutoreleasePool new];
                    [Images imageNamed:@"one"];
                    [Images imageNamed:@"two"];
                    [pool release];
                    printf("done\n");
                    return 4;
                }
                """#, to: "initialize_model", level: "-O2")
            let untraced = try BinaryRunner.run([], program: program)
            XCTAssertEqual(untraced.stdoutText, "initialize in main\ndone\n")
            let log = work.appendingPathComponent("initialize.log")
            let run = try BinaryRunner.run(["record", "--agent", "--objc", "+[Images imageNamed:]", "--no-launch-end", "--output", log.path, "--", program.path])
            XCTAssertEqual(run.stdoutText, untraced.stdoutText)
            XCTAssertTrue(run.stderr.contains("recorded 2 hits"), run.stderr)
            XCTAssertTrue(run.stderr.contains("exited with status 4"), run.stderr)
        }

        /// A C loader through the GOT, a library loaded later, a child that forks and execs.
        func testAFunctionWrappedInEveryModuleAndChildrenOnlyWhenAsked() throws {
            let library = try compileC(
                "__attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(\"\"); return name; }\n",
                to: "libimagekit.so", flags: ["-O1", "-shared", "-fPIC"])
            let plugin = try compileC(
                "const char *image_named(void *a, void *b, const char *name);\nvoid plugin_load(void) { image_named(0, 0, \"from_plugin\"); }\n",
                to: "plugin.so", flags: ["-O1", "-shared", "-fPIC"], libraries: ["-L\(work.path)", "-l:libimagekit.so", "-Wl,-rpath,\(work.path)"])
            let program = try compileC(
                Self.loader, to: "loader", flags: ["-O1"], libraries: ["-L\(work.path)", "-l:libimagekit.so", "-Wl,-rpath,\(work.path)", "-ldl"])
            func names(_ extra: [String]) throws -> [String] {
                let log = work.appendingPathComponent("loader\(extra.count).log")
                let run = try BinaryRunner.run(
                    ["record", "--agent", "--symbol", "image_named", "--no-launch-end", "--output", log.path] + extra + ["--", program.path, plugin.path])
                XCTAssertEqual(run.status, 0, run.stderr)
                return try events(log).map { String($0.split(separator: "\t").last!) }
            }
            XCTAssertEqual(try names([]), ["parent_before", "(nil)", "from_plugin", "parent_after"], "children do not inherit the agent")
            XCTAssertEqual(
                try names(["--agent-children"]).sorted(), ["(nil)", "execed_child", "forked_child", "from_plugin", "parent_after", "parent_before"])
            _ = library
        }

        func testMistakesAreOneLine() throws {
            let missing = try BinaryRunner.run(
                ["record", "--agent", "--output", work.appendingPathComponent("x.log").path, "--", "/bin/true"],
                environment: ["IMGTRACE_AGENT_PATH": "/nonexistent/libImgtraceAgent.so"])
            XCTAssertEqual(missing.status, 2)
            XCTAssertEqual(missing.stderr, "imgtrace: error: /nonexistent/libImgtraceAgent.so: IMGTRACE_AGENT_PATH names no readable file\n")
            XCTAssertFalse(FileManager.default.fileExists(atPath: work.appendingPathComponent("x.log").path))
            let pid = try BinaryRunner.run(["record", "--agent", "--pid", "1"])
            XCTAssertEqual(pid.status, 64)
            XCTAssertTrue(pid.stderr.contains("--agent starts the program with the agent loaded"), pid.stderr)
            let path = try BinaryRunner.run(["agent-path"])
            XCTAssertEqual(path.status, 0)
            XCTAssertTrue(path.stdoutText.hasSuffix("/libImgtraceAgent.so\n"), path.stdoutText)
        }
    }
#endif
