#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// `imgtrace record` on real programs: one the test compiles (threads, nil, empty, hostile
    /// names, a launch end), and Debian's Gridlock against the corpus's lldb capture of it.
    final class RecordCommandTests: XCTestCase {
        var work: URL!

        override func setUpWithError() throws {
            work = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-record-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        }

        override func tearDownWithError() throws {
            if let work { try? FileManager.default.removeItem(at: work) }
        }

        /// Two threads call `image_named` at once; the program writes its own record of each call.
        private let program = #"""
            #include <pthread.h>
            #include <stdio.h>
            static FILE *record;
            static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
            __attribute__((noinline)) const char *image_named(void *cls, void *sel, const char *name) { __asm__ volatile(""); return name; }
            __attribute__((noinline)) void launch_done(void) { __asm__ volatile(""); }
            static void load(const char *name) {
                pthread_mutex_lock(&lock);
                fprintf(record, "%s\n", name ? name : "(nil)");
                pthread_mutex_unlock(&lock);
                image_named(0, 0, name);
            }
            static void *worker(void *arg) { for (int i = 0; i < 200; i++) load("worker_icon"); return 0; }
            int main(int argc, char **argv) {
                record = fopen(argv[1], "w");
                pthread_t t;
                pthread_create(&t, 0, worker, 0);
                for (int i = 0; i < 200; i++) load("main_icon");
                load("AppIcon"); load(0); load("");
                pthread_join(t, 0);
                launch_done();
                load("after_launch");
                fclose(record);
                puts("the program's own output");
                return 0;
            }
            """#

        private func compile() throws -> URL { try compile(program, to: "loader") }

        /// Compiles `source` to `work/NAME`; skips without a C compiler.
        private func compile(_ source: String, to name: String, flags: [String] = ["-O1", "-pthread"]) throws -> URL {
            do { return try CCompiler.compile(source, to: name, in: work, flags: flags) } catch let error as CCompiler.Unavailable { throw XCTSkip(error.description) }
        }

        func testEveryCallOnEveryThreadIsRecordedAndReadBack() throws {
            let binary = try compile()
            let log = work.appendingPathComponent("record.log"), truth = work.appendingPathComponent("truth.txt")
            let run = try BinaryRunner.run(["record", "--symbol", "image_named", "--launch-end", "launch_done", "--output", log.path, "--", binary.path, truth.path])
            if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here: \(run.stderr)") }
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdoutText, "the program's own output\n", "the program's output passes through, the log does not mix in")
            let trace = try BinaryRunner.run(["trace", log.path, "--format", "json"])
            XCTAssertEqual(trace.status, 0, trace.stderr)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: trace.stdout) as? [String: Any])
            let events = try XCTUnwrap(json["events"] as? [[String: Any]])
            let expected = try String(contentsOf: truth, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            // Same multiset of calls (two threads interleave differently in the two records).
            func key(_ event: [String: Any]) -> String {
                switch event["status"] as? String {
                case "nil": return "(nil)"
                case "empty": return ""
                default: return event["name"] as? String ?? "?"
                }
            }
            XCTAssertEqual(events.map(key).sorted(), expected.map(String.init).sorted())
            XCTAssertEqual(events.filter { $0["name"] as? String == "worker_icon" }.count, 200, "every hit on the second thread")
            XCTAssertEqual(events.last?["name"] as? String, "after_launch")
            XCTAssertEqual(events.last?["phase"] as? String, "afterLaunch")
            XCTAssertEqual(events.filter { $0["phase"] as? String == "afterLaunch" }.count, 1)
        }

        func testBacktracesNameTheCallersAndReachTheReader() throws {
            let binary = try compile()
            let log = work.appendingPathComponent("bt.log"), truth = work.appendingPathComponent("truth.txt")
            let run = try BinaryRunner.run([
                "record", "--symbol", "image_named", "--no-launch-end", "--backtrace", "3", "--output", log.path, "--", binary.path, truth.path,
            ])
            if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
            XCTAssertEqual(run.status, 0, run.stderr)
            let trace = try BinaryRunner.run(["trace", log.path, "--format", "json"])
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: trace.stdout) as? [String: Any])
            let events = try XCTUnwrap(json["events"] as? [[String: Any]])
            let appIcon = try XCTUnwrap(events.first { $0["name"] as? String == "AppIcon" })
            let frames = appIcon["backtrace"] as? [String] ?? []
            XCTAssertEqual(frames.count, 3, "\(frames)")
            XCTAssertTrue(frames.first?.hasSuffix("`image_named") == true, "\(frames)")
            // `load` is static (no exported symbol), but -O1 may inline it; `main` is always there.
            XCTAssertTrue(frames.contains { $0.hasSuffix("`main") || $0.hasSuffix("`load") }, "\(frames)")
        }

        func testErrorsAreOneLineAndLeaveNoLog() throws {
            let log = work.appendingPathComponent("none.log")
            var run = try BinaryRunner.run(["record", "--symbol", "image_named", "--output", log.path, "--", "/nonexistent/program"])
            XCTAssertEqual(run.status, 2)
            XCTAssertTrue(run.stderr.hasPrefix("imgtrace: error: /nonexistent/program"), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
            XCTAssertFalse(FileManager.default.fileExists(atPath: log.path))
            run = try BinaryRunner.run(["record", "--symbol", "image_named", "--output", log.path, "--", "/etc/passwd"])
            XCTAssertEqual(run.status, 2)
            XCTAssertTrue(run.stderr.contains("not an ELF"), run.stderr)
            let binary = try compile()
            run = try BinaryRunner.run([
                "record", "--symbol", "no_such_function", "--objc", "+[NoSuchClass imageNamed:]", "--output", log.path, "--", binary.path, work.appendingPathComponent("t").path,
            ])
            if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
            XCTAssertEqual(run.status, 2)
            XCTAssertTrue(run.stderr.contains("no_such_function") && run.stderr.contains("libc.so.6"), "says what it looked for and where: \(run.stderr)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: log.path))
            run = try BinaryRunner.run(["record", "--symbol", "image_named", "--", binary.path])
            XCTAssertEqual(run.status, 64, "the log needs --output")
        }

        /// A forked child runs the traced function without dying of a stray breakpoint byte, and a
        /// library loaded later with `dlopen` is searched when the dynamic linker announces it.
        func testForkedChildrenAndDlopenedLibraries() throws {
            let library = try compile(
                #"""
                __attribute__((noinline)) const char *plugin_image_named(void *a, void *b, const char *name) { __asm__ volatile(""); return name; }
                """#, to: "libplugin.so", flags: ["-O1", "-shared", "-fPIC"])
            let main = try compile(
                #"""
                #include <dlfcn.h>
                #include <stdio.h>
                #include <sys/wait.h>
                #include <unistd.h>
                __attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(""); return name; }
                int main(int argc, char **argv) {
                    image_named(0, 0, "before_fork");
                    pid_t child = fork();
                    if (child == 0) { image_named(0, 0, "in_child"); _exit(7); }
                    int status = 0;
                    waitpid(child, &status, 0);
                    printf("child %s %d\n", WIFEXITED(status) ? "exited" : "killed", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
                    void *plugin = dlopen(argv[1], RTLD_NOW);
                    if (!plugin) { printf("dlopen failed\n"); return 1; }
                    const char *(*load)(void *, void *, const char *) = dlsym(plugin, "plugin_image_named");
                    load(0, 0, "from_plugin");
                    image_named(0, 0, "after_plugin");
                    return 0;
                }
                """#, to: "host", flags: ["-O1", "-ldl"])
            let log = work.appendingPathComponent("fork.log")
            let run = try BinaryRunner.run([
                "record", "--symbol", "image_named", "--symbol", "plugin_image_named", "--no-launch-end", "--output", log.path, "--", main.path, library.path,
            ])
            if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdoutText, "child exited 7\n", "the child ran its own course, not killed by a breakpoint byte")
            let text = try String(contentsOf: log, encoding: .utf8)
            let names = text.split(separator: "\n").compactMap { line in line.split(separator: "\"").dropFirst().first.map(String.init) }
            XCTAssertEqual(names, ["before_fork", "from_plugin", "after_plugin"], text)
            XCTAssertTrue(text.contains("] plugin_image_named: \"from_plugin\""), text)
        }

        /// Attached to a running program for a second: hits on both threads are recorded, then the
        /// program is detached with its bytes restored and runs to its own end.
        func testAttachingRecordsThenLeavesTheProgramRunningHealthy() throws {
            let binary = try compile(
                #"""
                #include <pthread.h>
                #include <stdio.h>
                #include <unistd.h>
                __attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(""); return name; }
                static void *worker(void *x) { for (int i = 0; i < 250; i++) { image_named(0, 0, "worker_tick"); usleep(10000); } return 0; }
                int main(void) {
                    pthread_t t;
                    pthread_create(&t, 0, worker, 0);
                    for (int i = 0; i < 250; i++) { image_named(0, 0, "tick"); usleep(10000); }
                    pthread_join(t, 0);
                    puts("finished");
                    return 5;
                }
                """#, to: "tick", flags: ["-O1", "-pthread"])
            let program = Process(), output = Pipe()
            program.executableURL = binary
            program.standardOutput = output
            try program.run()
            usleep(300_000)
            let log = work.appendingPathComponent("attach.log")
            let run = try BinaryRunner.run([
                "record", "--pid", "\(program.processIdentifier)", "--symbol", "image_named", "--no-launch-end", "--duration", "1", "--output", log.path,
            ])
            if run.stderr.contains("ptrace refused") {
                program.terminate()
                throw XCTSkip("ptrace attach is not allowed here: \(run.stderr)")
            }
            XCTAssertEqual(run.status, 0, run.stderr)
            program.waitUntilExit()
            XCTAssertEqual(program.terminationReason, .exit, "the program was not killed by a leftover breakpoint byte")
            XCTAssertEqual(program.terminationStatus, 5)
            XCTAssertEqual(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "finished\n")
            let text = try String(contentsOf: log, encoding: .utf8)
            XCTAssertGreaterThan(text.components(separatedBy: "\"worker_tick\"").count - 1, 20, text)
            XCTAssertGreaterThan(text.components(separatedBy: "\"tick\"").count - 1, 20, text)
        }

        /// A program that `exec`s keeps being recorded: the breakpoints are set again in the new image.
        func testAnExecedProgramIsRecordedOnward() throws {
            let binary = try compile(
                #"""
                #include <unistd.h>
                __attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(""); return name; }
                int main(int argc, char **argv) {
                    if (argc > 1) { image_named(0, 0, "after_exec"); return 0; }
                    image_named(0, 0, "before_exec");
                    execl(argv[0], argv[0], "again", (char *)0);
                    return 1;
                }
                """#, to: "ex", flags: ["-O1"])
            let log = work.appendingPathComponent("ex.log")
            let run = try BinaryRunner.run(["record", "--symbol", "image_named", "--no-launch-end", "--output", log.path, "--", binary.path])
            if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
            XCTAssertEqual(run.status, 0, run.stderr)
            let text = try String(contentsOf: log, encoding: .utf8)
            XCTAssertEqual(text.components(separatedBy: "\n").filter { $0.contains("image_named: ") }.count, 2, text)
            XCTAssertTrue(text.contains("\"before_exec\"") && text.contains("\"after_exec\""), text)
        }

        /// SIGTERM to imgtrace ends the recording and the launched program; if imgtrace itself is
        /// killed, the program dies with it (never left running with breakpoint bytes).
        func testEndingByASignalOrByImgtraceDyingTakesTheProgramWithIt() throws {
            let binary = try compile(
                #"""
                #include <stdio.h>
                #include <unistd.h>
                __attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(""); return name; }
                int main(int argc, char **argv) {
                    FILE *f = fopen(argv[1], "w"); fprintf(f, "%d", getpid()); fclose(f);
                    for (;;) { image_named(0, 0, "tick"); usleep(5000); }
                }
                """#, to: "forever", flags: ["-O1"])
            for signal in [SIGTERM, SIGKILL] {
                let pidFile = work.appendingPathComponent("pid-\(signal)"), log = work.appendingPathComponent("forever-\(signal).log")
                let recorder = Process()
                recorder.executableURL = BinaryRunner.executable
                recorder.arguments = ["record", "--symbol", "image_named", "--no-launch-end", "--output", log.path, "--", binary.path, pidFile.path]
                recorder.standardError = FileHandle.nullDevice
                try recorder.run()
                var programPID: Int32 = 0
                for _ in 0..<200 where programPID == 0 {
                    usleep(20_000)
                    programPID = Int32((try? String(contentsOf: pidFile, encoding: .utf8)) ?? "") ?? 0
                }
                guard programPID > 0 else {
                    recorder.terminate()
                    throw XCTSkip("the program did not start under imgtrace record (ptrace not allowed?)")
                }
                usleep(200_000)
                kill(recorder.processIdentifier, signal)
                recorder.waitUntilExit()
                // The program is gone shortly after (reaped by imgtrace, or killed by the kernel with it).
                var alive = true
                for _ in 0..<100 where alive {
                    usleep(20_000)
                    let state = (try? String(contentsOfFile: "/proc/\(programPID)/stat", encoding: .utf8)) ?? ""
                    alive = !state.isEmpty && !state.contains(") Z ")
                }
                XCTAssertFalse(alive, "signal \(signal): the program outlived imgtrace")
                if signal == SIGTERM {
                    XCTAssertEqual(recorder.terminationStatus, 0)
                    let text = try String(contentsOf: log, encoding: .utf8)
                    XCTAssertTrue(text.contains("image_named: \"tick\""), "the hits before the signal are kept")
                } else {
                    XCTAssertFalse(FileManager.default.fileExists(atPath: log.path), "no log from a recording that died")
                }
            }
        }

        /// Debian's Gridlock under Xvfb: the same names, in the same order, as the corpus's lldb capture.
        /// A recording says whether it is complete: one line on stderr, the end state as the log's
        /// last line, a non-zero exit when the program died before any hit, and `analyze` warns
        /// about a launch cut short and fails with `no-evidence` on a program that never loaded.
        func testARecordingSaysWhetherItIsComplete() throws {
            let binary = try compile(
                #"""
                #include <signal.h>
                #include <stdlib.h>
                #include <string.h>
                #include <unistd.h>
                __attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(""); return name; }
                __attribute__((noinline)) void launch_done(void) { __asm__ volatile(""); }
                int main(int argc, char **argv) {
                    const char *mode = argc > 1 ? argv[1] : "";
                    if (strcmp(mode, "fail") == 0) return 3;
                    if (strcmp(mode, "crash") == 0) raise(SIGSEGV);
                    image_named(0, 0, "splash");
                    if (strcmp(mode, "hang") == 0) for (;;) pause();
                    launch_done();
                    return 0;
                }
                """#, to: "ender")
            func record(_ mode: String, _ extra: [String] = []) throws -> (run: BinaryRunner.Result, log: String) {
                let log = work.appendingPathComponent("\(mode).log")
                let run = try BinaryRunner.run(
                    ["record", "--symbol", "image_named", "--launch-end", "launch_done", "--output", log.path] + extra + ["--", binary.path, mode])
                if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
                return (run, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
            }
            let whole = try record("whole")
            XCTAssertEqual(whole.run.status, 0, whole.run.stderr)
            // The launch's length as ptrace saw it: from the program's start to the launch end.
            XCTAssertNotNil(
                whole.run.stderr.range(
                    of: #"^imgtrace: recorded 1 hit; the program exited with status 0; the launch end was reached after [0-9]+ ms\n$"#,
                    options: .regularExpression), whole.run.stderr)
            XCTAssertNotNil(
                whole.log.range(of: #"imgtrace-recording-end hits=1 launch-end=reached program=exit:0 launch-ms=[0-9]+\n$"#, options: .regularExpression),
                whole.log)

            let failed = try record("fail")
            XCTAssertEqual(failed.run.status, 1, "died before any hit")
            XCTAssertEqual(failed.run.stderr, "imgtrace: recorded 0 hits; the program exited with status 3; no image load and no launch end were seen\n")
            let crashed = try record("crash")
            XCTAssertEqual(crashed.run.status, 1)
            XCTAssertTrue(crashed.run.stderr.contains("the program was killed by signal 11 (SIGSEGV)"), crashed.run.stderr)

            let cut = try record("hang", ["--duration", "0.5"])
            XCTAssertEqual(cut.run.status, 0, "a recording stopped by --duration after hits is not an error")
            XCTAssertEqual(
                cut.run.stderr,
                "imgtrace: recorded 1 hit; the program was stopped when --duration 0.5 s ran out; the launch end was NOT reached: the log holds only part of the launch\n")

            // analyze: the cut launch is warned about, the failed one fails the gate with no-evidence.
            let app = work.appendingPathComponent("Ender.app")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            try Data(ImageWriter.png(width: 30, height: 30)).write(to: app.appendingPathComponent("splash@3x.png"))
            let audited = try BinaryRunner.run(["analyze", work.appendingPathComponent("hang.log").path, "--bundle", app.path, "--fail-on", "never"])
            XCTAssertTrue(audited.stdoutText.contains("the recording ended before the launch did (the program was stopped when --duration ran out"), audited.stdoutText)
            // Part of a launch is no evidence of one: it gates, says one thing about its launch end, and never becomes a baseline.
            XCTAssertFalse(audited.stdoutText.contains("no launch-end marker, so the whole log is the launch"), audited.stdoutText)
            let gated = try BinaryRunner.run(["analyze", work.appendingPathComponent("hang.log").path, "--bundle", app.path, "--format", "json"])
            XCTAssertEqual(gated.status, 1, gated.stderr)
            XCTAssertTrue(gated.stdoutText.contains("\"rule\":\"no-evidence\""), gated.stdoutText)
            let baseline = work.appendingPathComponent("cut-baseline.json")
            let refused = try BinaryRunner.run(["baseline", "write", work.appendingPathComponent("hang.log").path, "--bundle", app.path, "--output", baseline.path])
            XCTAssertEqual(refused.status, 1)
            XCTAssertTrue(refused.stderr.hasPrefix("imgtrace: not writing a baseline: the recording ended before the launch did"), refused.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: baseline.path))
            let blind = try BinaryRunner.run(["analyze", work.appendingPathComponent("fail.log").path, "--bundle", app.path, "--format", "json"])
            XCTAssertEqual(blind.status, 1)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: blind.stdout) as? [String: Any])
            let evidence = try XCTUnwrap((json["findings"] as? [[String: Any]])?.first { $0["rule"] as? String == "no-evidence" })
            XCTAssertEqual(evidence["message"] as? String, "the program exited with status 3 before any image load: nothing was captured")
        }
    }
#endif
