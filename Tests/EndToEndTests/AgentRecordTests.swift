#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// `imgtrace record --agent` against programs the test compiles: an Objective-C model of
    /// UIKit's call graph on GNUstep's runtime (../shared/docs/apple-image-paths.md: nested class
    /// methods, the nib placeholder's direct asset-manager call, CoreUI's ten-argument lookups with
    /// a double, SwiftUI's and trait changes' paths), a C loader wrapped through the GOT, a program
    /// that forks and execs, and Debian's Gridlock. Each program writes its own truth.
    final class AgentRecordTests: XCTestCase {
        private var work: URL!

        override func setUpWithError() throws {
            work = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-agent-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            // The agent is a product of its own: `swift build --build-tests` builds it beside imgtrace.
            let agent = BinaryRunner.executable.deletingLastPathComponent().appendingPathComponent("libImgtraceAgent.so")
            guard FileManager.default.fileExists(atPath: agent.path) else { throw XCTSkip("libImgtraceAgent.so is not built (swift build)") }
        }

        override func tearDownWithError() throws {
            if let work { try? FileManager.default.removeItem(at: work) }
        }

        /// Compiles Objective-C against GNUstep Base (gobjc); skips without it.
        private func compileObjC(_ source: String, to name: String, level: String = "-O1") throws -> URL {
            guard let flags = Shell.output("gnustep-config --objc-flags"), let libraries = Shell.output("gnustep-config --base-libs") else {
                throw XCTSkip("needs gobjc and libgnustep-base-dev (gnustep-config)")
            }
            let file = work.appendingPathComponent(name + ".m"), output = work.appendingPathComponent(name)
            try source.write(to: file, atomically: true, encoding: .utf8)
            let cleaned = flags.replacingOccurrences(of: "-MMD -MP", with: "")
            guard Shell.output("cc -x objective-c -std=gnu99 \(cleaned) \(level) -o \(output.path) \(file.path) \(libraries) 2>&1 >/dev/null") != nil else {
                throw XCTSkip("gobjc could not build \(name).m")
            }
            return output
        }

        /// Compiles C with `libraries` after the source (the linker drops a library named before it).
        private func compileC(_ source: String, to name: String, flags: [String], libraries: [String] = []) throws -> URL {
            let file = work.appendingPathComponent(name + ".c"), output = work.appendingPathComponent(name)
            try source.write(to: file, atomically: true, encoding: .utf8)
            let command = (["cc"] + flags + ["-o", output.path, file.path] + libraries).joined(separator: " ")
            guard Shell.output(command + " 2>&1 >/dev/null") != nil else { throw XCTSkip("cc could not build \(name).c") }
            return output
        }

        /// The events `trace` reads from a log, as `kind<TAB>api<TAB>name` (nil as `(nil)`).
        private func events(_ log: URL) throws -> [String] {
            let trace = try BinaryRunner.run(["trace", log.path, "--format", "json"])
            XCTAssertEqual(trace.status, 0, trace.stderr)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: trace.stdout) as? [String: Any])
            return (json["events"] as? [[String: Any]] ?? []).map { event in
                let name = event["status"] as? String == "nil" ? "(nil)" : (event["name"] as? String ?? "?")
                return "\(event["kind"] as? String ?? "-")\t\(event["api"] as? String ?? "-")\t\(name)"
            }
        }

        private func truth(_ file: URL) throws -> [String] {
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        static let uikitModel = #"""
            #import <Foundation/Foundation.h>
            #include <pthread.h>
            #include <stdio.h>
            #include <stdlib.h>

            /* The truth: one line per request, written by the code that makes it. */
            static FILE *truth;
            static NSLock *truthLock;
            static void request(const char *kind, const char *api, NSString *name) {
                [truthLock lock];
                fprintf(truth, "%s\t%s\t%s\n", kind, api, name ? [name UTF8String] : "(nil)");
                fflush(truth);
                [truthLock unlock];
            }

            /* CoreUI: ten arguments, a double among them; it checks they all arrive. */
            @interface CUICatalog : NSObject
            - (id)imageWithName:(NSString *)n scaleFactor:(double)s deviceIdiom:(long)i deviceSubtype:(unsigned long)st displayGamut:(long)g layoutDirection:(long)l sizeClassHorizontal:(long)h sizeClassVertical:(long)v appearanceName:(NSString *)a locale:(NSString *)loc;
            - (id)namedLookupWithName:(NSString *)n scaleFactor:(double)s deviceIdiom:(long)i deviceSubtype:(unsigned long)st displayGamut:(long)g layoutDirection:(long)l sizeClassHorizontal:(long)h sizeClassVertical:(long)v appearanceName:(NSString *)a locale:(NSString *)loc;
            @end
            static void check(double s, long i, unsigned long st, long g, long l, long h, long v, NSString *a, NSString *loc) {
                if (s != 3.0 || i != 1 || st != 2 || g != 3 || l != 4 || h != 5 || v != 6 || ![a isEqual:@"dark"] || ![loc isEqual:@"en"]) {
                    fprintf(stderr, "arguments damaged\n");
                    abort();
                }
            }
            @implementation CUICatalog
            - (id)imageWithName:(NSString *)n scaleFactor:(double)s deviceIdiom:(long)i deviceSubtype:(unsigned long)st displayGamut:(long)g layoutDirection:(long)l sizeClassHorizontal:(long)h sizeClassVertical:(long)v appearanceName:(NSString *)a locale:(NSString *)loc {
                check(s, i, st, g, l, h, v, a, loc); return n;
            }
            - (id)namedLookupWithName:(NSString *)n scaleFactor:(double)s deviceIdiom:(long)i deviceSubtype:(unsigned long)st displayGamut:(long)g layoutDirection:(long)l sizeClassHorizontal:(long)h sizeClassVertical:(long)v appearanceName:(NSString *)a locale:(NSString *)loc {
                check(s, i, st, g, l, h, v, a, loc); return n;
            }
            @end
            static CUICatalog *catalog;
            #define LOOKUP scaleFactor:3.0 deviceIdiom:1 deviceSubtype:2 displayGamut:3 layoutDirection:4 sizeClassHorizontal:5 sizeClassVertical:6 appearanceName:@"dark" locale:@"en"

            @interface _UIAssetManager : NSObject
            - (id)imageNamed:(NSString *)n;
            - (id)imageNamed:(NSString *)n configuration:(id)c cachingOptions:(long)o attachCatalogImage:(BOOL)attach;
            @end
            @implementation _UIAssetManager
            - (id)imageNamed:(NSString *)n { return [self imageNamed:n configuration:nil cachingOptions:0 attachCatalogImage:YES]; }
            - (id)imageNamed:(NSString *)n configuration:(id)c cachingOptions:(long)o attachCatalogImage:(BOOL)attach {
                return [catalog namedLookupWithName:n LOOKUP];
            }
            @end
            static _UIAssetManager *manager;
            static NSMutableSet *cache;

            @interface UIImage : NSObject
            + (id)imageNamed:(NSString *)n;
            + (id)imageNamed:(NSString *)n inBundle:(id)b withConfiguration:(id)c;
            + (id)imageNamed:(NSString *)n inBundle:(id)b compatibleWithTraitCollection:(id)t;
            + (id)imageWithContentsOfFile:(NSString *)p;
            - (id)initWithContentsOfFile:(NSString *)p;
            @end
            @implementation UIImage
            + (id)imageNamed:(NSString *)n { return [self imageNamed:n inBundle:nil withConfiguration:nil]; }
            + (id)imageNamed:(NSString *)n inBundle:(id)b compatibleWithTraitCollection:(id)t { return [self imageNamed:n inBundle:b withConfiguration:nil]; }
            + (id)imageNamed:(NSString *)n inBundle:(id)b withConfiguration:(id)c {
                if (n == nil) return nil;
                @synchronized (cache) { if ([cache containsObject:n]) return n; [cache addObject:n]; }
                return [manager imageNamed:n configuration:c cachingOptions:0 attachCatalogImage:YES];
            }
            + (id)imageWithContentsOfFile:(NSString *)p { return [[self alloc] initWithContentsOfFile:p]; }
            - (id)initWithContentsOfFile:(NSString *)p { return self; }
            @end

            /* A storyboard's image: the placeholder decodes the name and asks the asset manager directly. */
            @interface UIImageNibPlaceholder : NSObject
            - (id)initWithCoder:(id)coder;
            @end
            @implementation UIImageNibPlaceholder
            - (id)initWithCoder:(id)coder { [manager imageNamed:[coder objectForKey:@"UIResourceName"]]; return self; }
            @end

            /* A trait change re-decodes through CoreUI, with no imageNamed: call. */
            @interface UIImageAsset : NSObject { @public NSString *assetName; }
            - (id)imageWithConfiguration:(id)c;
            @end
            @implementation UIImageAsset
            - (id)imageWithConfiguration:(id)c { return [catalog imageWithName:assetName LOOKUP]; }
            @end

            @interface AppModel : NSObject
            - (void)finishLaunching;
            @end
            @implementation AppModel
            - (void)finishLaunching {}
            @end

            /* SwiftUI: a Swift function calls CoreUI directly. */
            static id swiftui_body(NSString *n) { return [catalog imageWithName:n LOOKUP]; }

            static void *worker(void *unused) {
                NSAutoreleasePool *pool = [NSAutoreleasePool new];
                for (int i = 0; i < 300; i++) {
                    NSString *n = [NSString stringWithFormat:@"worker_%d", i % 7];
                    request("code", "+[UIImage imageNamed:]", n);
                    [UIImage imageNamed:n];
                }
                [pool drain];
                return NULL;
            }

            int main(int argc, char **argv) {
                NSAutoreleasePool *pool = [NSAutoreleasePool new];
                [NSThread currentThread];  /* GNUstep's threading before the second thread */
                truth = fopen(argv[1], "w");
                truthLock = [NSLock new];
                catalog = [CUICatalog new];
                manager = [_UIAssetManager new];
                cache = [NSMutableSet new];
                pthread_t thread;
                /* `one-thread`: the worker stays out (lldb-16 on Linux can end a batch session when
                   two threads stop at breakpoints at once). */
                int two = argc < 3 || strcmp(argv[2], "one-thread") != 0;
                if (two) pthread_create(&thread, NULL, worker, NULL);
                for (int i = 0; i < 300; i++) {
                    NSString *n = [NSString stringWithFormat:@"main_%d", i % 5];
                    request("code", "+[UIImage imageNamed:]", n);
                    [UIImage imageNamed:n];
                }
                if (two) pthread_join(thread, NULL);
                request("code", "+[UIImage imageNamed:inBundle:compatibleWithTraitCollection:]", @"tab");
                [UIImage imageNamed:@"tab" inBundle:nil compatibleWithTraitCollection:nil];
                request("code", "+[UIImage imageNamed:]", nil);
                [UIImage imageNamed:nil];
                request("nib", "-[_UIAssetManager imageNamed:]", @"Placeholder");
                [[UIImageNibPlaceholder alloc] initWithCoder:[NSDictionary dictionaryWithObject:@"Placeholder" forKey:@"UIResourceName"]];
                request("swiftui", "-[CUICatalog imageWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]", @"hero");
                swiftui_body(@"hero");
                UIImageAsset *asset = [UIImageAsset new];
                asset->assetName = @"header";
                request("trait", "-[CUICatalog imageWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]", @"header");
                [asset imageWithConfiguration:nil];
                request("file", "+[UIImage imageWithContentsOfFile:]", @"/var/mobile/a.png");
                [UIImage imageWithContentsOfFile:@"/var/mobile/a.png"];
                [[AppModel new] finishLaunching];
                request("code", "+[UIImage imageNamed:]", @"after_launch");
                [UIImage imageNamed:@"after_launch"];
                fclose(truth);
                [pool drain];
                puts("model done");
                return 0;
            }
            """#

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
            let recorded = try events(log), expected = try truth(truthFile)
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
                    XCTAssertEqual(try events(log).map(kindAndName).sorted(), try truth(truthFile).map(kindAndName).sorted(), "\(level) \(method)")
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
                    let expected = try truth(truthFile)
                    XCTAssertEqual(expected.count, run.name == "lldb" ? 307 : 607, "\(level) \(run.name): the program ran to its end")
                    XCTAssertEqual(
                        try events(log).map(kindAndName).sorted(), expected.map(kindAndName).sorted(),
                        "\(level) \(run.name): \(console.suffix(3000))")
                    XCTAssertFalse(console.contains("Fatal signal"), "\(level) \(run.name): the debugger crashed")
                }
            }
        }

        /// Each hit of a recording with its frames (up to the launch end, or all), without what
        /// differs between two runs: the time, the thread's id and the addresses.
        private func stacks(_ log: URL, launchOnly: Bool = false) throws -> [String] {
            var hits: [String] = []
            for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
                if launchOnly, line == "imgtrace-launch-end" { break }
                if line.hasPrefix("    frame #"), !hits.isEmpty {
                    hits[hits.count - 1] += "\n" + line.replacing(#/0x[0-9a-f]+ /#, with: "")
                } else if let request = Self.request(line) {
                    hits.append(String(request.dropFirst(24)).replacing(#/ [0-9]+\]/#, with: "]"))
                }
            }
            return hits
        }

        /// A request's line as ptrace writes it: the agent's duration taken off; nil for what is
        /// no request line (a decode the agent timed, a marker, frames).
        static func request(_ line: Substring) -> Substring? {
            guard line.hasPrefix("20"), !line.contains("] (decode) ") else { return nil }
            guard let duration = line.firstMatch(of: #/ [0-9]+\.[0-9]{3} ms(, [0-9]+\.[0-9]{3} ms own)?$/#) else { return line }
            return line[..<duration.range.lowerBound]
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
            XCTAssertEqual(try events(log).sorted(), try truth(truthFile).sorted())
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

        /// The names of a log's events, from `trace`.
        private func events(file log: Data) throws -> [String] {
            let logURL = work.appendingPathComponent("events-\(UUID().uuidString).log")
            try log.write(to: logURL)
            return try events(logURL).map { String($0.split(separator: "\t").last!) }
        }

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
