#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// `record --agent` times each request: from its outermost image API's entry to that call's
    /// return, nested image calls included. A C loader whose calls take known times (it waits as
    /// long as the name says) measures each call inside itself; the agent's durations must
    /// agree within 10% or 20 µs, unoptimized and optimized (where the wrapper's call to the
    /// worker is a tail call through the PLT, wrapped too: a nested API), on the main thread and
    /// on a second one, live and from the agent's own file (`agent-log`). A call left by `longjmp`
    /// has no return: it keeps no duration and the next request still gets its own.
    final class RequestTimeTests: AgentWorkspaceTestCase {
        /// The image library: `load_image` hands over to `load_inner`, which waits the
        /// microseconds after the name's dash; a name starting with `!` leaves by longjmp.
        static let library = #"""
            #include <setjmp.h>
            #include <stdlib.h>
            #include <string.h>
            #include <time.h>
            jmp_buf image_escape;
            /* What this thread's last call took, measured inside it: the API's own time, without
               the tracer's first-call work (claiming a ring) that a clock around the call would add. */
            __thread unsigned long long last_call_ns;
            static unsigned long long now_ns(void) {
                struct timespec t;
                clock_gettime(CLOCK_MONOTONIC, &t);
                return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
            }
            /* The first call through the PLT binds clock_gettime, inside the first request but before its
               own clock starts: bound here, before main, so the library's clock sees what the agent sees. */
            __attribute__((constructor)) static void bind_clock(void) { (void)now_ns(); }
            __attribute__((noinline)) const char *load_inner(void *a, void *b, const char *name) {
                unsigned long long start = now_ns();
                const char *dash = strchr(name, '-');
                unsigned long long end = start + (dash ? strtoull(dash + 1, 0, 10) : 0) * 1000ull;
                while (now_ns() < end) {}
                if (name[0] == '!') longjmp(image_escape, 1);
                last_call_ns = now_ns() - start;
                return name;
            }
            /* A thin wrapper: a tail call at -O2. */
            __attribute__((noinline)) const char *load_image(void *a, void *b, const char *name) { return load_inner(a, b, name); }
            """#

        /// The program: each request with the time the library measured, as `name<TAB>microseconds`.
        static let program = #"""
            #include <pthread.h>
            #include <setjmp.h>
            #include <stdio.h>
            #include <time.h>
            #include <unistd.h>
            extern jmp_buf image_escape;
            extern __thread unsigned long long last_call_ns;
            const char *load_image(void *a, void *b, const char *name);
            static FILE *truth;
            static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
            static void request(const char *name) {
                load_image(0, 0, name);
                pthread_mutex_lock(&lock);
                fprintf(truth, "%s\t%llu\n", name, last_call_ns / 1000);
                pthread_mutex_unlock(&lock);
            }
            static void *worker(void *unused) {
                request("worker-4000");
                return unused;
            }
            int main(int argc, char **argv) {
                truth = fopen(argv[1], "w");
                request("quick-0");
                request("short-300");
                request("medium-3000");
                request("long-20000");
                if (!setjmp(image_escape)) request("!escaped-1000");
                request("after-2000");
                pthread_t thread;
                pthread_create(&thread, 0, worker, 0);
                pthread_join(thread, 0);
                fclose(truth);
                /* "wait": a program that does not end by itself, as a GUI app (record stops it at --duration). */
                if (argc > 2) sleep(30);
                return 0;
            }
            """#

        private func build(_ level: String) throws -> URL {
            do {
                _ = try CCompiler.compile(Self.library, to: "libtimed\(level).so", in: work, flags: [level, "-shared", "-fPIC"])
                return try CCompiler.compile(
                    Self.program, to: "timed\(level)", in: work,
                    flags: [level, "-pthread", "-Wl,--no-as-needed", "-L\(work.path)", "-l:libtimed\(level).so", "-Wl,-rpath,\(work.path)"])
            } catch let error as CCompiler.Unavailable {
                throw XCTSkip(error.description)
            }
        }

        /// name → (microseconds, thread) of each event `trace` reads, nil microseconds for an untimed one.
        private func timedEvents(_ log: URL) throws -> [String: (microseconds: Int?, thread: String)] {
            let trace = try BinaryRunner.run(["trace", log.path, "--format", "json"])
            XCTAssertEqual(trace.status, 0, trace.stderr)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: trace.stdout) as? [String: Any])
            var events: [String: (Int?, String)] = [:]
            for event in json["events"] as? [[String: Any]] ?? [] {
                let name = event["name"] as? String ?? "?"
                XCTAssertNil(events[name], "\(name) is one request")
                events[name] = (event["microseconds"] as? Int, event["thread"] as? String ?? "")
            }
            return events
        }

        private func truth(_ file: URL) throws -> [String: Int] {
            var times: [String: Int] = [:]
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let fields = line.split(separator: "\t")
                times[String(fields[0])] = Int(fields[1])
            }
            return times
        }

        private func assertAgrees(_ events: [String: (microseconds: Int?, thread: String)], _ truth: [String: Int], _ label: String) {
            XCTAssertEqual(Set(events.keys), Set(truth.keys).union(["!escaped-1000"]), label)
            for (name, measured) in truth {
                guard let recorded = events[name]?.microseconds else {
                    XCTFail("\(label): \(name) has no duration")
                    continue
                }
                // The library's clock starts inside the call: the agent's also holds the wrapper and the nested API's trampoline.
                let allowed = max(20, measured / 10)
                XCTAssertLessThanOrEqual(abs(recorded - measured), allowed, "\(label): \(name) recorded \(recorded) µs, measured \(measured) µs")
            }
            XCTAssertNil(events["!escaped-1000"]?.microseconds, "\(label): a call left by longjmp has no end to time")
            XCTAssertEqual(events["worker-4000"]?.thread.hasSuffix(" ") == false, true)
        }

        func testDurationsAgreeWithTheProgramsOwnClockUnoptimizedAndOptimized() throws {
            var checked = 0
            for level in ["-O0", "-O2"] {
                let program = try build(level)
                let truthFile = work.appendingPathComponent("truth\(level).tsv"), log = work.appendingPathComponent("timed\(level).log")
                let run = try BinaryRunner.run(
                    [
                        "record", "--agent", "--symbol", "load_image:3", "--symbol", "load_inner:3", "--no-launch-end", "--output", log.path, "--", program.path,
                        truthFile.path,
                    ])
                XCTAssertEqual(run.status, 0, run.stderr)
                let truth = try truth(truthFile)
                XCTAssertEqual(truth.count, 6, "the program wrote its record")
                let events = try timedEvents(log)
                assertAgrees(events, truth, "record --agent \(level)")
                // The second thread is not the main thread: the audit counts its time apart.
                let mainThread = try XCTUnwrap(events["quick-0"]?.thread)
                XCTAssertNotEqual(events["worker-4000"]?.thread, mainThread)
                let analyze = try BinaryRunner.run(["analyze", log.path, "--bundle", work.path, "--format", "json", "--fail-on", "never"])
                XCTAssertEqual(analyze.status, 0, analyze.stderr)
                let report = try XCTUnwrap(JSONSerialization.jsonObject(with: analyze.stdout) as? [String: Any])
                let time = try XCTUnwrap((((report["metrics"] as? [String: Any])?["launch"] as? [String: Any])?["median"] as? [String: Any])?["time"] as? [String: Any])
                let timed = truth.keys.filter { $0 != "worker-4000" }.compactMap { events[$0]?.microseconds }
                XCTAssertEqual(time["timedLoads"] as? Int, 6)
                XCTAssertEqual(time["mainThreadMicroseconds"] as? Int, timed.reduce(0, +))
                XCTAssertEqual(time["microseconds"] as? Int, timed.reduce(0, +) + (events["worker-4000"]?.microseconds ?? 0))
                XCTAssertEqual(time["longestMainThreadMicroseconds"] as? Int, events["long-20000"]?.microseconds)
                // Over a frame on the main thread: what slow-image names (the 20 ms request, and a
                // shorter one only if the machine stretched it past 16 ms); never the second thread's.
                let findings = report["findings"] as? [[String: Any]] ?? []
                let slow = findings.filter { $0["rule"] as? String == "slow-image" }.compactMap { ($0["names"] as? [String])?.first }
                let overAFrame = truth.keys.filter { $0 != "worker-4000" && (events[$0]?.microseconds ?? 0) > 16_000 }
                XCTAssertEqual(Set(slow), Set(overAFrame))
                XCTAssertTrue(slow.contains("long-20000"), "\(slow)")
                checked += 1
            }
            XCTAssertEqual(checked, 2)
        }

        /// `--runs 3` records three launches into three logs; analysed together, each name has
        /// its time per launch and the report gives the median launch and the spread.
        func testSeveralLaunchesGiveEachNamesMedianAndSpread() throws {
            let program = try build("-O2")
            let output = work.appendingPathComponent("runs.log")
            let run = try BinaryRunner.run(
                [
                    "record", "--agent", "--runs", "3", "--symbol", "load_image:3", "--no-launch-end", "--output", output.path, "--", program.path,
                    work.appendingPathComponent("truth.tsv").path,
                ])
            XCTAssertEqual(run.status, 0, run.stderr)
            let logs = (1...3).map { work.appendingPathComponent("runs-\($0).log").path }
            for log in logs { XCTAssertTrue(run.stderr.contains("imgtrace: \(log): recorded 7 hits"), run.stderr) }
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
            let analyze = try BinaryRunner.run(["analyze"] + logs + ["--bundle", work.path, "--format", "json", "--fail-on", "never"])
            XCTAssertEqual(analyze.status, 0, analyze.stderr)
            let report = try XCTUnwrap(JSONSerialization.jsonObject(with: analyze.stdout) as? [String: Any])
            let long = try XCTUnwrap((report["names"] as? [[String: Any]])?.first { $0["name"] as? String == "long-20000" })
            let perLaunch = try XCTUnwrap(long["mainThreadMicrosecondsPerLaunch"] as? [Int])
            XCTAssertEqual(perLaunch.count, 3)
            for microseconds in perLaunch { XCTAssertGreaterThanOrEqual(microseconds, 20_000) }
            let text = try BinaryRunner.run(["analyze"] + logs + ["--bundle", work.path, "--fail-on", "never"])
            XCTAssertTrue(text.stdoutText.contains("image time  the median of 3 timed launches: "), text.stdoutText)
            XCTAssertTrue(text.stdoutText.contains(", 3 launches)"), text.stdoutText)
            // A budget for the main thread's image time: the median launch is over 5 ms (its
            // 20 ms request), so it fails; 10 s is never reached.
            let config = work.appendingPathComponent("budget.yml")
            for (budget, fires) in [(5, true), (10_000, false)] {
                try "budgets:\n  maxMainThreadImageMilliseconds: \(budget)\n".write(to: config, atomically: true, encoding: .utf8)
                let budgeted = try BinaryRunner.run(["analyze"] + logs + ["--bundle", work.path, "--config", config.path, "--format", "json", "--fail-on", "never"])
                XCTAssertEqual(budgeted.status, 0, budgeted.stderr)
                let findings = try XCTUnwrap(JSONSerialization.jsonObject(with: budgeted.stdout) as? [String: Any])["findings"] as? [[String: Any]] ?? []
                let breach = findings.first { $0["rule"] as? String == "budget-exceeded" }
                XCTAssertEqual(breach != nil, fires, "\(budget) ms: \(findings)")
                if let breach {
                    XCTAssertTrue((breach["message"] as? String)?.contains(" ms > 5.000 ms") == true, "\(breach)")
                    XCTAssertGreaterThanOrEqual((breach["values"] as? [String: Any])?["actual"] as? Int ?? 0, 20_000)
                }
            }
            // A program that does not end by itself: each launch is stopped at --duration, and the
            // next one still runs (the last launch's timer does not stop it at once).
            let waiting = try BinaryRunner.run(
                [
                    "record", "--agent", "--runs", "2", "--duration", "1", "--symbol", "load_image:3", "--no-launch-end", "--output", output.path, "--",
                    program.path, work.appendingPathComponent("truth.tsv").path, "wait",
                ])
            XCTAssertEqual(waiting.status, 0, waiting.stderr)
            for log in logs.prefix(2) {
                XCTAssertTrue(waiting.stderr.contains("imgtrace: \(log): recorded 7 hits; the program was stopped when --duration 1 s ran out"), waiting.stderr)
            }
            // Not without the agent: a debugger's stops would distort the times.
            let refused = try BinaryRunner.run(["record", "--runs", "3", "--output", output.path, "--", program.path])
            XCTAssertEqual(refused.status, 64)
            XCTAssertTrue(refused.stderr.contains("--runs goes with --agent"), refused.stderr)
        }

        /// GNUstep's shape, in an Objective-C model that knows its own times: a lookup that calls a
        /// nested image API (its time inclusive, and its own time apart), an image decoded at its first draw
        /// (`-[NSImage _loadFromFile:]`, the agent's default decoder) and named by the lookup that
        /// returned it, a second draw that decodes nothing, and an image the program made itself
        /// whose decode no lookup explains (counted, never dropped).
        static let objcModel = #"""
            #import <Foundation/Foundation.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <time.h>
            static FILE *truth;
            static unsigned long long now_ns(void) {
                struct timespec t;
                clock_gettime(CLOCK_MONOTONIC, &t);
                return (unsigned long long)t.tv_sec * 1000000000ull + (unsigned long long)t.tv_nsec;
            }
            static void busy(unsigned long long microseconds) {
                unsigned long long end = now_ns() + microseconds * 1000ull;
                while (now_ns() < end) {}
            }
            /* name-LOOKUP-DECODE: microseconds each takes */
            static unsigned long long part(NSString *name, int which) {
                NSArray *parts = [name componentsSeparatedByString:@"-"];
                return strtoull([[parts objectAtIndex:which] UTF8String], 0, 10);
            }
            @interface NSImage : NSObject {
            @public
                NSString *file;
                int loaded;
            }
            + (id)imageNamed:(NSString *)name;
            + (id)_catalogImageWithName:(NSString *)name bundle:(id)bundle;
            - (BOOL)_loadFromFile:(NSString *)path;
            - (void)draw;
            @end
            @implementation NSImage
            + (id)_catalogImageWithName:(NSString *)name bundle:(id)bundle {
                busy(part(name, 1));
                NSImage *image = [NSImage new];
                image->file = [name retain];
                return image;
            }
            /* Each call's own clock reads, written down by its caller once it returned: the
               writing is no part of the call the agent times. */
            static unsigned long long last_took, last_nested, last_decode;
            + (id)imageNamed:(NSString *)name {
                unsigned long long start = now_ns();
                id image = [self _catalogImageWithName:name bundle:nil];
                unsigned long long nested = now_ns() - start;
                busy(200);
                last_took = now_ns() - start;
                last_nested = nested;
                return image;
            }
            - (BOOL)_loadFromFile:(NSString *)path {
                unsigned long long start = now_ns();
                busy(part(path, 2));
                last_decode = now_ns() - start;
                return YES;
            }
            - (void)draw {
                if (!loaded) {
                    loaded = 1;
                    [self _loadFromFile:file];
                    fprintf(truth, "decode\t%s\t%llu\n", [file UTF8String], last_decode / 1000);
                }
            }
            @end
            int main(int argc, char **argv) {
                truth = fopen(argv[1], "w");
                NSAutoreleasePool *pool = [NSAutoreleasePool new];
                /* The first lookup pays the runtime's first sends (its own time, as the agent counts it). */
                NSArray *names = [NSArray arrayWithObjects:@"warm-0-0", @"hero-3000-5000", @"icon-100-800", nil];
                NSImage *images[3];
                for (int i = 0; i < 3; i++) {
                    NSString *name = [names objectAtIndex:i];
                    images[i] = [NSImage imageNamed:name];
                    fprintf(truth, "lookup\t%s\t%llu\nown\t%s\t%llu\n", [name UTF8String], last_took / 1000, [name UTF8String], (last_took - last_nested) / 1000);
                }
                NSImage *hero = images[1], *icon = images[2];
                [icon draw];
                [hero draw];
                [hero draw];
                NSImage *orphan = [NSImage new];
                orphan->file = @"orphan-0-1000";
                [orphan draw];
                [pool release];
                fclose(truth);
                return 0;
            }
            """#

        func testTheObjectiveCModelsLookupsAndLazyDecodesAreTimedAndNamed() throws {
            guard let flags = Shell.output("gnustep-config --objc-flags"), let libraries = Shell.output("gnustep-config --base-libs") else {
                throw XCTSkip("needs gobjc and libgnustep-base-dev (gnustep-config)")
            }
            let source = work.appendingPathComponent("decode_model.m")
            try Self.objcModel.write(to: source, atomically: true, encoding: .utf8)
            var checked = 0
            for level in ["-O0", "-O2"] {
                let program = work.appendingPathComponent("decode_model\(level)")
                let cleaned = flags.replacingOccurrences(of: "-MMD -MP", with: "")
                guard Shell.output("cc -x objective-c -std=gnu99 \(cleaned) \(level) -o \(program.path) \(source.path) \(libraries) 2>&1 >/dev/null") != nil else {
                    throw XCTSkip("gobjc could not build the model")
                }
                let truthFile = work.appendingPathComponent("truth\(level).tsv"), log = work.appendingPathComponent("model\(level).log")
                let run = try BinaryRunner.run(["record", "--agent", "--no-launch-end", "--output", log.path, "--", program.path, truthFile.path])
                XCTAssertEqual(run.status, 0, run.stderr)
                var truth: [String: Int] = [:]
                for line in try String(contentsOf: truthFile, encoding: .utf8).split(separator: "\n") {
                    let fields = line.split(separator: "\t")
                    truth[fields[0] + " " + fields[1]] = Int(fields[2])
                }
                XCTAssertEqual(truth.count, 9, "three lookups with their own time, three decodes")
                let text = try String(contentsOf: log, encoding: .utf8)
                // One request per lookup: the nested API is inside it.
                XCTAssertEqual(text.components(separatedBy: "+[NSImage _catalogImageWithName:bundle:]").count, 1, text)
                let analyze = try BinaryRunner.run(["analyze", log.path, "--bundle", work.path, "--format", "json", "--fail-on", "never"])
                XCTAssertEqual(analyze.status, 0, analyze.stderr)
                let report = try XCTUnwrap(JSONSerialization.jsonObject(with: analyze.stdout) as? [String: Any])
                let names = report["names"] as? [[String: Any]] ?? []
                func close(_ recorded: Int?, _ key: String) {
                    let measured = truth[key] ?? -1
                    XCTAssertLessThanOrEqual(
                        abs((recorded ?? -1_000_000) - measured), max(20, measured / 10), "\(level) \(key): recorded \(recorded ?? -1) µs, measured \(measured) µs")
                }
                for name in ["hero-3000-5000", "icon-100-800"] {
                    let time = try XCTUnwrap(names.first { $0["name"] as? String == name }?["launchTime"] as? [String: Any], "\(level) \(name)")
                    XCTAssertEqual(time["timedLoads"] as? Int, 1)
                    XCTAssertEqual(time["decodes"] as? Int, 1, "\(level) \(name): one decode at the first draw")
                    close(time["microseconds"] as? Int, "lookup " + name)
                    // Its own time: outside the nested image API it called.
                    close(time["ownMicroseconds"] as? Int, "own " + name)
                    close(time["decodeMicroseconds"] as? Int, "decode " + name)
                }
                let launch = try XCTUnwrap((((report["metrics"] as? [String: Any])?["launch"] as? [String: Any])?["median"] as? [String: Any])?["time"] as? [String: Any])
                XCTAssertEqual(launch["decodes"] as? Int, 3)
                XCTAssertEqual(launch["unattributedDecodes"] as? Int, 1, "the image the program made itself")
                XCTAssertTrue(text.contains("(decode) -[NSImage _loadFromFile:]: <unread: no recorded lookup returned this image"), text)
                checked += 1
            }
            XCTAssertEqual(checked, 2)
        }

        /// The agent's own file (IMGTRACE_AGENT_FILE, no imgtrace beside the app) keeps the
        /// durations: `agent-log` writes them as `record --agent` does.
        func testTheAgentsFileKeepsTheDurations() throws {
            let program = try build("-O2")
            let file = work.appendingPathComponent("agent.bin"), truthFile = work.appendingPathComponent("truth.tsv")
            // The variables `agent-path --env` prints, with this loader's functions as the APIs.
            let agent = BinaryRunner.executable.deletingLastPathComponent().appendingPathComponent("libImgtraceAgent.so")
            var environment = ProcessInfo.processInfo.environment
            environment["LD_PRELOAD"] = agent.path
            environment["IMGTRACE_AGENT_FILE"] = file.path
            environment["IMGTRACE_AGENT_APIS"] = "symbol load_image 3;symbol load_inner 3"
            let app = Process()
            app.executableURL = program
            app.arguments = [truthFile.path]
            app.environment = environment
            try app.run()
            app.waitUntilExit()
            XCTAssertEqual(app.terminationStatus, 0)
            let log = work.appendingPathComponent("from-file.log")
            let read = try BinaryRunner.run(["agent-log", file.path, "--output", log.path])
            XCTAssertEqual(read.status, 0, read.stderr)
            assertAgrees(try timedEvents(log), try truth(truthFile), "agent-log")
        }
    }
#endif
