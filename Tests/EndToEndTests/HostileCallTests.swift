#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// A wrapped function called with what is not a name: a small integer (a sentinel id, a wrong
    /// `:ARG`), a pointer to memory the program unmapped, a string running into an unmapped page,
    /// and a name longer than the agent keeps. Neither recorder faults the program or changes its
    /// `errno`; an unreadable name is recorded as a hit that failed, with its address, and a cut
    /// name is counted in the recording's end line.
    final class HostileCallTests: XCTestCase {
        private var work: URL!

        override func setUpWithError() throws {
            work = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-hostile-call-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        }

        override func tearDownWithError() throws {
            if let work { try? FileManager.default.removeItem(at: work) }
        }

        private static let program = #"""
            #include <errno.h>
            #include <stdlib.h>
            #include <string.h>
            #include <sys/mman.h>
            const char *image_named(void *a, void *b, const char *name);
            int main(void) {
                image_named(0, 0, "first");
                image_named(0, 0, (const char *)5);
                char *stale = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                strcpy(stale, "stale");
                munmap(stale, 4096);
                errno = 1234;
                image_named(0, 0, stale);
                if (errno != 1234) return 3;
                char *edge = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                memset(edge, 'x', 8192);
                munmap(edge + 4096, 4096);
                image_named(0, 0, edge + 4000);
                char *long_name = malloc(6000);
                memset(long_name, 'n', 5999);
                long_name[5999] = 0;
                image_named(0, 0, long_name);
                errno = 1234;
                image_named(0, 0, "errno");
                if (errno != 1234) return 3;
                image_named(0, 0, "last");
                return 0;
            }
            """#

        func testNoRecorderFaultsTheProgramOrTakesAnAddressForAName() throws {
            let library = try CCompiler.compile(
                "__attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(\"\"); return name; }\n",
                to: "libimagekit.so", in: work, flags: ["-O1", "-shared", "-fPIC"])
            let program = try CCompiler.compile(
                Self.program, to: "caller", in: work, flags: ["-O1", "-Wl,--no-as-needed", library.path, "-Wl,-rpath,\(work.path)"])
            for method in [[], ["--agent"]] {
                let log = work.appendingPathComponent("calls\(method.count).log")
                let run = try BinaryRunner.run(
                    ["record"] + method + ["--symbol", "image_named", "--no-launch-end", "--backtrace", "0", "--output", log.path, "--", program.path])
                if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
                XCTAssertEqual(run.status, 0, "\(method): the program ran to its end with its errno: \(run.stderr)")
                let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").map(String.init)
                // The agent times each call: its duration follows the value.
                let duration = #/ [0-9]+\.[0-9]{3} ms(, [0-9]+\.[0-9]{3} ms own)?$/#
                let values = lines.compactMap { line in line.range(of: "image_named: ").map { String(line[$0.upperBound...]).replacing(duration, with: "") } }
                XCTAssertEqual(values.count, 7, "\(method): \(lines)")
                guard values.count == 7 else { continue }
                XCTAssertEqual(values[0], "\"first\"")
                XCTAssertEqual(values[1], "<unread: no readable string at 0x0000000000000005>", "\(method): a small integer is no name")
                for value in values[2...3] {
                    XCTAssertNotNil(value.range(of: "^<unread: no readable string at 0x[0-9a-f]{16}>$", options: .regularExpression), "\(method): \(value)")
                }
                XCTAssertEqual(values[5], "\"errno\"")
                XCTAssertEqual(values[6], "\"last\"")
                let end = try XCTUnwrap(lines.last)
                let trace = try BinaryRunner.run(["trace", log.path])
                XCTAssertTrue(
                    trace.stdoutText.contains("3 hits failed: the capture could not read the name: no readable string at 0x0000000000000005"),
                    "\(method): \(trace.stdoutText)")
                if method == ["--agent"] {
                    XCTAssertEqual(values[4], "\"" + String(repeating: "n", count: 4096) + "\"", "the agent keeps 4,096 bytes")
                    XCTAssertTrue(end.contains(" cut=1"), end)
                    XCTAssertTrue(trace.stdoutText.contains("1 name was longer than the recorder keeps (4,096 bytes)"), trace.stdoutText)
                } else {
                    XCTAssertEqual(values[4], "\"" + String(repeating: "n", count: 5999) + "\"", "ptrace reads the whole name")
                    XCTAssertFalse(end.contains("cut="), end)
                }
            }
        }

        /// A thread created with the smallest stack the system allows, using 8 KiB of it, runs
        /// under the agent as it does untraced: the agent's thread-local state is bytes, not pages
        /// (its 4 KiB shadow stack once left such a thread no stack at all).
        func testAThreadWithTheSmallestStackRunsUnderTheAgent() throws {
            let library = try CCompiler.compile(
                "__attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(\"\"); return name; }\n",
                to: "libimagekit.so", in: work, flags: ["-O1", "-shared", "-fPIC"])
            let program = try CCompiler.compile(
                #"""
                #include <limits.h>
                #include <pthread.h>
                #include <stdio.h>
                #include <string.h>
                const char *image_named(void *a, void *b, const char *name);
                static void *run(void *unused) {
                    volatile char buffer[8192];
                    memset((char *)buffer, 1, sizeof buffer);
                    image_named(0, 0, "on_a_small_stack");
                    return (void *)(long)buffer[100];
                }
                int main(void) {
                    pthread_attr_t attributes;
                    pthread_attr_init(&attributes);
                    pthread_attr_setstacksize(&attributes, PTHREAD_STACK_MIN);
                    pthread_t thread;
                    if (pthread_create(&thread, &attributes, run, 0) != 0) return 2;
                    pthread_join(thread, 0);
                    puts("done");
                    return 0;
                }
                """#, to: "small_stack", in: work, flags: ["-O0", "-pthread", "-Wl,--no-as-needed", library.path, "-Wl,-rpath,\(work.path)"])
            XCTAssertEqual(try BinaryRunner.run([], program: program).stdoutText, "done\n")
            let log = work.appendingPathComponent("small.log")
            let run = try BinaryRunner.run(["record", "--agent", "--symbol", "image_named", "--no-launch-end", "--output", log.path, "--", program.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdoutText, "done\n", run.stderr)
            XCTAssertTrue(try String(contentsOf: log, encoding: .utf8).contains("image_named: \"on_a_small_stack\""))
        }

        /// A call the program leaves by `longjmp` never returns through the agent's stub: the next
        /// wrapped call sees that frame is gone, and its request is a request (the thread's depth
        /// once stayed at 1, and every later request was taken for a nested one and lost).
        func testRequestsAfterALongjmpOutOfAWrappedCallAreRecorded() throws {
            let library = try CCompiler.compile(
                #"""
                void (*image_hook)(void);
                __attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) {
                    if (image_hook) image_hook();
                    __asm__ volatile("");
                    return name;
                }
                """#, to: "libimagekit.so", in: work, flags: ["-O1", "-shared", "-fPIC"])
            let program = try CCompiler.compile(
                #"""
                #include <setjmp.h>
                #include <stdio.h>
                const char *image_named(void *a, void *b, const char *name);
                extern void (*image_hook)(void);
                static jmp_buf out;
                static void leave(void) { longjmp(out, 1); }
                int main(void) {
                    image_named(0, 0, "before");
                    image_hook = leave;
                    if (setjmp(out) == 0) image_named(0, 0, "left_by_longjmp");
                    image_hook = 0;
                    image_named(0, 0, "after_one");
                    image_named(0, 0, "after_two");
                    puts("done");
                    return 0;
                }
                """#, to: "longjmp_caller", in: work, flags: ["-O1", "-Wl,--no-as-needed", library.path, "-Wl,-rpath,\(work.path)"])
            let log = work.appendingPathComponent("longjmp.log")
            let run = try BinaryRunner.run(["record", "--agent", "--symbol", "image_named", "--no-launch-end", "--output", log.path, "--", program.path])
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdoutText, "done\n")
            let names = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap { line in
                line.range(of: "image_named: ").map { String(line[$0.upperBound...]) }
            }
            // Each call that returned is timed; the one left by longjmp has no return to time.
            XCTAssertEqual(
                names.map { $0.replacing(#/ [0-9]+\.[0-9]{3} ms(, [0-9]+\.[0-9]{3} ms own)?$/#, with: " (timed)") },
                [
                    "\"before\" (timed)", "\"left_by_longjmp\"", "\"after_one\" (timed)", "\"after_two\" (timed)",
                ])
        }
    }
#endif
