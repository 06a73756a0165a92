#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// The agent walks each request's stack with its own CFI walker (each return address's rule
    /// read once and cached); what it does not interpret (a signal frame's expressions) goes to
    /// libgcc's unwinder. Both must give the same frames, address for address, on every frame
    /// shape a compiler makes: unoptimized (%rbp frames), optimized (no frame pointer, a frame
    /// sized at run time, several exits, tail calls), optimized with frame pointers; on the main
    /// thread, a second one and inside a signal handler.
    final class AgentUnwindTests: AgentWorkspaceTestCase {
        static let library = #"""
            __attribute__((noinline)) const char *image_named(void *cls, void *sel, const char *name) { __asm__ volatile(""); return name; }
            """#

        /// Recursion, a frame sized at run time (its CFA on %rbp even optimized), several exits
        /// (remember and restore state), a tail call, a signal handler, a second thread. It
        /// lives on a little after its last request, as an app does: the recorder names frames
        /// from the program's memory map, read while it runs.
        static let program = #"""
            #include <alloca.h>
            #include <pthread.h>
            #include <signal.h>
            #include <string.h>
            #include <unistd.h>
            const char *image_named(void *cls, void *sel, const char *name);
            volatile int sink;
            __attribute__((noinline)) void leaf(const char *name) { image_named(0, 0, name); sink++; }
            __attribute__((noinline)) void tail(const char *name) { leaf(name); }
            __attribute__((noinline)) void sized(int n, const char *name) {
                char *scratch = alloca((size_t)n * 16 + 8);
                memset(scratch, n, (size_t)n * 16 + 8);
                sink += scratch[n];
                leaf(name);
                sink += scratch[1];
            }
            __attribute__((noinline)) int exits(int n, const char *name) {
                if (n % 3 == 0) { sized(n, name); return 1; }
                if (n % 3 == 1) { tail(name); sink++; return 2; }
                for (int i = 0; i < n; i++) sink += i;
                leaf(name);
                return 3;
            }
            __attribute__((noinline)) int deep(int n, int shape, const char *name) {
                if (n == 0) return exits(shape, name);
                int r = deep(n - 1, shape, name);
                sink += r;
                return r + 1;
            }
            static void on_signal(int signal) { (void)signal; image_named(0, 0, "from-signal"); sink++; }
            static void *second(void *argument) {
                (void)argument;
                for (int shape = 0; shape < 3; shape++) deep(4 + shape, shape, "second-thread");
                return NULL;
            }
            int main(void) {
                for (int shape = 0; shape < 6; shape++) deep(shape, shape, "main-thread");
                signal(SIGUSR1, on_signal);
                raise(SIGUSR1);
                pthread_t thread;
                pthread_create(&thread, NULL, second, NULL);
                pthread_join(thread, NULL);
                usleep(100000);
                return 0;
            }
            """#

        /// Each request's line and frames, without what differs between two runs (the time, the
        /// duration, the second thread's id; with address randomization on, the addresses).
        private func stacks(_ log: URL, keepAddresses: Bool) throws -> [String] {
            var requests: [String] = []
            for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
                if line.hasPrefix("    frame #"), !requests.isEmpty {
                    let frame = keepAddresses ? String(line) : String(line.replacing(#/0x[0-9a-f]+ /#, with: ""))
                    requests[requests.count - 1] += "\n" + frame
                } else if line.hasPrefix("20") {
                    let withoutThreadID = String(line.dropFirst(24)).replacing(#/ [0-9]+\]/#, with: "]")
                    requests.append(String(withoutThreadID.replacing(#/ [0-9]+\.[0-9]{3} ms$/#, with: "")))
                }
            }
            return requests
        }

        func testTheCachedWalkGivesLibgccsFramesOnEveryFrameShape() throws {
            // Without address randomization the two runs' addresses are the same: compared too.
            let setarch = ["/usr/bin/setarch", "/bin/setarch"].first { FileManager.default.isExecutableFile(atPath: $0) }
            for flags in [["-O0"], ["-O2"], ["-O2", "-fno-omit-frame-pointer"]] {
                let label = flags.joined(separator: " ")
                let suffix = flags.joined().replacingOccurrences(of: "-", with: "")
                let program: URL
                do {
                    _ = try CCompiler.compile(Self.library, to: "libshapes\(suffix).so", in: work, flags: flags + ["-shared", "-fPIC"])
                    program = try CCompiler.compile(
                        Self.program, to: "shapes\(suffix)", in: work,
                        flags: flags + ["-pthread", "-Wl,--no-as-needed", "-L\(work.path)", "-l:libshapes\(suffix).so", "-Wl,-rpath,\(work.path)"])
                } catch let error as CCompiler.Unavailable {
                    throw XCTSkip(error.description)
                }
                var byUnwinder: [[String]] = []
                for unwinder in ["", "libgcc"] {
                    let log = work.appendingPathComponent("\(suffix)-\(unwinder).log")
                    let record = [
                        BinaryRunner.executable.path, "record", "--agent", "--backtrace", "16", "--symbol", "image_named:3", "--no-launch-end",
                        "--output", log.path, "--", program.path,
                    ]
                    let run =
                        try setarch.map { try BinaryRunner.run(["-R"] + record, environment: ["IMGTRACE_AGENT_UNWINDER": unwinder], program: URL(fileURLWithPath: $0)) }
                        ?? BinaryRunner.run(Array(record.dropFirst()), environment: ["IMGTRACE_AGENT_UNWINDER": unwinder])
                    XCTAssertEqual(run.status, 0, "\(label): \(run.stderr)")
                    byUnwinder.append(try stacks(log, keepAddresses: setarch != nil))
                }
                let (cached, libgcc) = (byUnwinder[0], byUnwinder[1])
                XCTAssertEqual(cached.count, 10, "\(label): six requests on the main thread, one in the handler, three on the second")
                XCTAssertEqual(cached, libgcc, "\(label): the cached walk gives libgcc's frames")
                // Every request is walked to the program's start, the handler's through the
                // signal frame (libgcc's part of the walk) back into main.
                for stack in cached { XCTAssertTrue(stack.contains("`_start") || stack.contains("`start_thread"), "\(label): \(stack)") }
                let handler = try XCTUnwrap(cached.first { $0.contains("\"from-signal\"") })
                XCTAssertTrue(handler.contains("`raise") && handler.contains("`main"), "\(label): \(handler)")
                // The deepest recursion's frames are all there (sixteen frames hold it).
                if flags == ["-O0"] {
                    let deepest = try XCTUnwrap(cached.filter { $0.contains("main-thread") }.last)
                    XCTAssertEqual(deepest.components(separatedBy: "`deep\n").count - 1, 6, deepest)
                }
            }
        }

        /// A burst faster than lines are made (30,000 requests with 4 frames each in a few
        /// milliseconds, right at the start, while the recorder reads the program's libraries)
        /// fills no ring: the recorder copies the rings on a thread of its own, and every
        /// request is written with its stack.
        func testABurstOfRequestsWithFramesLosesNothing() throws {
            let program = try burstProgram()
            let log = work.appendingPathComponent("burst.log")
            let run = try BinaryRunner.run(
                ["record", "--agent", "--backtrace", "4", "--symbol", "image_named:3", "--no-launch-end", "--output", log.path, "--", program.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            let text = try String(contentsOf: log, encoding: .utf8)
            XCTAssertTrue(text.hasSuffix("imgtrace-recording-end hits=30000 launch-end=not-watched program=exit:0\n"), String(text.suffix(200)))
            let stacks = try stacks(log, keepAddresses: false)
            XCTAssertEqual(stacks.count, 30000)
            XCTAssertEqual(stacks.filter { $0.contains("`layout\n") && $0.hasSuffix("`main") }.count, 30000, "every request with its four frames")
        }

        /// 200,000 requests while two other jobs keep both cores busy: imgtrace is not given a
        /// core for milliseconds at a time, and the program waits for it rather than give up
        /// (it took a tail still for 2 ms for a recorder gone, and lost a tenth of the burst).
        func testABurstOnABusyMachineKeepsEveryRecord() throws {
            let program = try burstProgram()
            var loads: [Process] = []
            defer {
                for load in loads where load.isRunning {
                    load.terminate()
                    load.waitUntilExit()
                }
            }
            for _ in 0..<3 {
                let load = Process()
                load.executableURL = URL(fileURLWithPath: "/bin/sh")
                load.arguments = ["-c", "while :; do :; done"]
                try load.run()
                loads.append(load)
            }
            // Without frames: the records come fastest (with frames, testABurstOfRequestsWithFramesLosesNothing).
            for backtrace in ["0"] {
                let log = work.appendingPathComponent("busy\(backtrace).log")
                let run = try BinaryRunner.run(
                    ["record", "--agent", "--backtrace", backtrace, "--symbol", "image_named:3", "--no-launch-end", "--output", log.path, "--", program.path],
                    environment: ["LOOP_COUNT": "200000"])
                XCTAssertEqual(run.status, 0, run.stderr)
                let end = try XCTUnwrap(String(contentsOf: log, encoding: .utf8).split(separator: "\n").last)
                XCTAssertEqual(end, "imgtrace-recording-end hits=200000 launch-end=not-watched program=exit:0", "--backtrace \(backtrace)")
            }
        }

        /// Into a file nobody drains (IMGTRACE_AGENT_FILE), the same burst fills the ring: the
        /// program waits for room once (2 ms without the tail moving), then goes on and the
        /// records that found no room are counted lost, never waited for one by one.
        func testAFullRingNobodyDrainsIsCountedNotWaitedFor() throws {
            let program = try burstProgram()
            let agent = try XCTUnwrap(BinaryRunner.agentLibrary)
            let file = work.appendingPathComponent("burst.agent")
            let run = try BinaryRunner.run(
                [], environment: ["LD_PRELOAD": agent.path, "IMGTRACE_AGENT_FILE": file.path, "IMGTRACE_AGENT_APIS": "symbol image_named 3", "LOOP_COUNT": "60000"],
                timeout: 60, program: program)
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertFalse(run.timedOut)
            let log = work.appendingPathComponent("burst-file.log")
            let read = try BinaryRunner.run(["agent-log", file.path, "--output", log.path])
            XCTAssertEqual(read.status, 0, read.stderr)
            let end = try XCTUnwrap(String(contentsOf: log, encoding: .utf8).split(separator: "\n").last)
            let hits = try XCTUnwrap(end.firstMatch(of: #/hits=([0-9]+)/#).flatMap { Int($0.1) })
            let lost = try XCTUnwrap(end.firstMatch(of: #/lost=([0-9]+)/#).flatMap { Int($0.1) }, String(end))
            XCTAssertGreaterThan(hits, 1000)
            XCTAssertGreaterThan(lost, 10000, "a ring of 4 MiB holds fewer than 60,000 requests: \(end)")
        }

        /// A loop of requests through two callers (LOOP_COUNT of them, 30,000 by default).
        private func burstProgram() throws -> URL {
            let burst = #"""
                const char *image_named(void *cls, void *sel, const char *name);
                __attribute__((noinline)) void draw(const char *name) { image_named(0, 0, name); __asm__ volatile(""); }
                __attribute__((noinline)) void layout(const char *name) { draw(name); __asm__ volatile(""); }
                #include <stdlib.h>
                int main(void) {
                    const char *names[] = {"AppIcon", "tab_home", "hero_banner", "icon@2x"};
                    int count = getenv("LOOP_COUNT") ? atoi(getenv("LOOP_COUNT")) : 30000;
                    for (int i = 0; i < count; i++) layout(names[i % 4]);
                    return 0;
                }
                """#
            do {
                _ = try CCompiler.compile(Self.library, to: "libburst.so", in: work, flags: ["-O2", "-shared", "-fPIC"])
                return try CCompiler.compile(
                    burst, to: "burst", in: work, flags: ["-O1", "-Wl,--no-as-needed", "-L\(work.path)", "-l:libburst.so", "-Wl,-rpath,\(work.path)"])
            } catch let error as CCompiler.Unavailable {
                throw XCTSkip(error.description)
            }
        }
    }
#endif
