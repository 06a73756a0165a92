#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// What the agent promises a program: nothing changes in it. Each test runs a program alone,
    /// with the agent merely preloaded and recording, and compares what the program itself says
    /// (its output, how it ends), at -O0 and -O2 where it is compiled.
    final class AgentIsolationTests: AgentWorkspaceTestCase {
        private var agent: URL { BinaryRunner.agentLibrary! }

        /// A log's `image_named` hits, each with its frame lines.
        static func hits(_ log: String) -> [[String]] {
            var blocks: [[String]] = []
            for line in log.components(separatedBy: "\n") {
                if line.contains("image_named:") { blocks.append([line]) } else if line.hasPrefix("    frame #"), !blocks.isEmpty { blocks[blocks.count - 1].append(line) }
            }
            return blocks
        }

        private func shell(_ command: String) throws {
            guard Shell.output(command + " 2>&1 >/dev/null") != nil else { throw XCTSkip("could not run: \(command)") }
        }

        private func write(_ text: String, _ name: String) throws -> URL {
            let file = work.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            return file
        }

        /// The agent's environment when it records into a file of its own.
        private func recording(_ apis: String, file: String = "launch.agent") -> [String: String] {
            ["LD_PRELOAD": agent.path, "IMGTRACE_AGENT_FILE": work.appendingPathComponent(file).path, "IMGTRACE_AGENT_APIS": apis]
        }

        // MARK: No Swift runtime

        /// The agent's files share at most three mutable variables (issue 62): its state, the
        /// thread's, and the exit hook its assembly jumps through. Read from the compiled objects'
        /// symbol tables (writable sections, global binding), so a variable added in any file counts.
        func testTheAgentsFilesShareAtMostThreeMutableVariables() throws {
            let folder = BinaryRunner.executable.deletingLastPathComponent().appendingPathComponent("ImgtraceAgent.build")
            let objects = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".o") }.sorted()
            guard !objects.isEmpty else { throw XCTSkip("the agent's object files are not in \(folder.path)") }
            var mutable: [String] = []
            for object in objects {
                let table = try XCTUnwrap(Shell.output("objdump -t \(folder.appendingPathComponent(object).path)"), object)
                for line in table.split(separator: "\n") {
                    let fields = line.split(whereSeparator: \.isWhitespace)
                    guard fields.count >= 5, fields[1] == "g", let section = fields.first(where: { $0.hasPrefix(".") }),
                        [".data", ".bss", ".tdata", ".tbss"].contains(section)
                    else { continue }
                    mutable.append("\(object): \(fields.last!)")
                }
            }
            XCTAssertGreaterThanOrEqual(objects.count, 10, "every file of the agent compiled: \(objects)")
            XCTAssertLessThanOrEqual(mutable.count, 3, "mutable globals: \(mutable)")
            XCTAssertEqual(Set(mutable.map { String($0.split(separator: " ").last!) }), ["agent", "this_thread", "imgtrace_agent_real_exit"], "\(mutable)")
        }

        /// The agent's C in layers (issue 62), as agent.c's header draws them: each compiled
        /// object calls only into objects of a lower layer, the state agent.c owns (`agent`,
        /// `this_thread`) is the one thing read across, and the patchers, given their table, read
        /// not even that. Read from the objects' symbol tables, so a call added anywhere counts.
        func testTheAgentsFilesCallOnlyDownwards() throws {
            let layers = [
                ["agent"], ["objc_patch", "got_patch"], ["wrappers"], ["requests"], ["records", "objc_runtime"], ["frames"], ["region"],
                ["cfi_unwind", "type_encoding"], ["untrusted_copy"],
            ]
            let folder = BinaryRunner.executable.deletingLastPathComponent().appendingPathComponent("ImgtraceAgent.build")
            let objects = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".c.o") }.sorted()
            guard !objects.isEmpty else { throw XCTSkip("the agent's object files are not in \(folder.path)") }
            let layerOf = Dictionary(uniqueKeysWithValues: layers.enumerated().flatMap { index, files in files.map { ($0 + ".c.o", index) } })
            XCTAssertEqual(Set(objects), Set(layerOf.keys), "every file of the agent has its layer")
            func symbols(_ flags: String, _ object: String) throws -> [String] {
                let text = try XCTUnwrap(Shell.output("nm \(flags) \(folder.appendingPathComponent(object).path)"), object)
                return text.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
            }
            var definedIn: [String: String] = [:]
            for object in objects { for symbol in try symbols("--defined-only -g", object) { definedIn[symbol] = object } }
            let state: Set = ["agent", "this_thread"]
            var upward: [String] = []
            for object in objects {
                for symbol in try symbols("-u", object) {
                    guard let owner = definedIn[symbol], owner != object else { continue }
                    if state.contains(symbol) {
                        if layerOf[object] == 1 { upward.append("\(object) reads \(symbol): a patcher is given its table") }
                    } else if layerOf[owner]! <= layerOf[object]! {
                        upward.append("\(object) calls \(symbol) of \(owner)")
                    }
                }
            }
            XCTAssertEqual(upward, [], "calls that are not downwards")
            XCTAssertGreaterThan(definedIn.count, 20, "the symbol tables were read")
        }

        /// What a library loads is its NEEDED entries: libc and the loader only, and no RUNPATH into
        /// the Swift toolchain. A program that dies of a signal dies of it under the agent (the
        /// Swift runtime's constructors installed handlers that printed a backtrace and went on).
        func testTheAgentLoadsNothingButLibcAndAProgramDiesOfItsOwnSignals() throws {
            let dynamic = try XCTUnwrap(Shell.output("readelf -d \(agent.path)"), "readelf is needed")
            let needed = dynamic.split(separator: "\n").filter { $0.contains("(NEEDED)") }.compactMap { line in
                line.split(separator: "[").last?.split(separator: "]").first.map(String.init)
            }
            XCTAssertFalse(needed.isEmpty, dynamic)
            XCTAssertEqual(needed.filter { !$0.hasPrefix("libc.so") && !$0.hasPrefix("ld-linux") }, [], dynamic)
            for line in dynamic.split(separator: "\n") where line.contains("RUNPATH") || line.contains("(RPATH)") {
                XCTAssertFalse(line.lowercased().contains("swift"), String(line))
            }
            for level in ["-O0", "-O2"] {
                let source = try write(
                    "#include <signal.h>\n#include <stdio.h>\n#include <stdlib.h>\nint main(int c, char **v) { raise(atoi(v[1])); puts(\"survived\"); return 0; }\n",
                    "dies\(level).c")
                let program = work.appendingPathComponent("dies\(level)")
                try shell("cc \(level) -o \(program.path) \(source.path)")
                for signal in [SIGQUIT, SIGTRAP, SIGSEGV] {
                    let alone = try run(program, ["\(signal)"])
                    XCTAssertEqual(alone.signal, signal)
                    XCTAssertEqual(try run(program, ["\(signal)"], environment: ["LD_PRELOAD": agent.path]), alone, "\(level) preloaded, signal \(signal)")
                    XCTAssertEqual(try run(program, ["\(signal)"], environment: recording("symbol image_named 1")), alone, "\(level) recording, signal \(signal)")
                }
            }
        }

        // MARK: dlopen and function identity

        static let imageKit = "__attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(\"\"); return name; }\n"

        /// A host whose plugins are found through its own RUNPATH (`$ORIGIN/plugins`), which also
        /// asks for itself (`dlopen(NULL)`), for a loaded plugin again (`RTLD_NOLOAD`), and
        /// compares a function's address with the loader's answer.
        static let pluginHost = #"""
            #include <dlfcn.h>
            #include <stdio.h>
            const char *image_named(void *a, void *b, const char *name);
            int main(void) {
                image_named(0, 0, "before");
                if ((void *)&image_named != dlsym(RTLD_DEFAULT, "image_named")) puts("the function's address changed");
                if (!dlopen(NULL, RTLD_NOW)) puts("dlopen(NULL) failed");
                void *plugin = dlopen("libplug.so", RTLD_NOW);
                if (!plugin) { printf("no plugin: %s\n", dlerror()); return 1; }
                if (dlopen("libplug.so", RTLD_NOW | RTLD_NOLOAD) != plugin) puts("RTLD_NOLOAD gave another handle");
                ((void (*)(void))dlsym(plugin, "plugin_load"))();
                image_named(0, 0, "after");
                puts("done");
                return 0;
            }
            """#

        /// Plugins load through the host's RUNPATH under the agent (its exported `dlopen` was the
        /// caller glibc took the RUNPATH from), a function's address is the loader's (its data
        /// slots were rewritten), and every call is still recorded: through the PLT, through the
        /// `.plt.got` stub a module that takes the address calls by, and `-fno-plt`'s direct
        /// calls through the data slot, from the host and from the plugin.
        func testPluginsLoadThroughTheHostsRunpathAndFunctionsKeepTheirAddress() throws {
            let kit = try write(Self.imageKit, "kit.c")
            let plugin = try write(
                "const char *image_named(void *a, void *b, const char *name);\nvoid plugin_load(void) { image_named(0, 0, \"from_plugin\"); }\n", "plug.c")
            let host = try write(Self.pluginHost, "host.c")
            try FileManager.default.createDirectory(at: work.appendingPathComponent("plugins"), withIntermediateDirectories: true)
            try shell("cc -O1 -shared -fPIC -o \(work.path)/libkit.so \(kit.path)")
            for flags in ["-O0", "-O2", "-O2 -fno-plt"] {
                try shell("cc \(flags) -shared -fPIC -o \(work.path)/plugins/libplug.so \(plugin.path) -L\(work.path) -lkit")
                let program = work.appendingPathComponent("host")
                try shell("cc \(flags) -o \(program.path) \(host.path) -L\(work.path) -lkit -Wl,-rpath,'$ORIGIN' -Wl,-rpath,'$ORIGIN/plugins' -ldl")
                if flags.contains("-O2") {
                    // The host takes the address and calls: its calls go through the data slot.
                    let code = try XCTUnwrap(Shell.output("objdump -d --no-show-raw-insn \(program.path)"))
                    XCTAssertTrue(code.contains("image_named@GOTPCREL") || code.contains("<image_named@plt>") || code.contains(".plt.got"), flags)
                }
                let alone = try run(program)
                XCTAssertEqual(alone, Run(signal: nil, status: 0, stdout: "done\n", stderr: ""), flags)
                XCTAssertEqual(try run(program, environment: ["LD_PRELOAD": agent.path]), alone, "\(flags) preloaded")
                XCTAssertEqual(
                    try run(program, environment: recording("symbol image_named 3", file: "host\(flags.replacingOccurrences(of: " ", with: "")).agent")), alone,
                    "\(flags) recording")
                let log = work.appendingPathComponent("host.log")
                let recorded = try BinaryRunner.run(
                    ["record", "--agent", "--symbol", "image_named", "--no-launch-end", "--backtrace", "0", "--output", log.path, "--", program.path])
                XCTAssertEqual(recorded.status, 0, recorded.stderr)
                let names = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter { $0.contains("image_named:") }.map {
                    String($0.split(separator: "\"")[1])
                }
                XCTAssertEqual(names, ["before", "from_plugin", "after"], flags)
            }
        }

        // MARK: Exceptions

        /// A C++ exception thrown by a wrapped function reaches its caller's handler (it aborted:
        /// the swapped return address had no unwind information), and the next request is recorded.
        func testAnExceptionFromAWrappedFunctionReachesTheCallersHandler() throws {
            let library = try write(
                #"""
                #include <stdexcept>
                extern "C" __attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) {
                    if (name[0] == '!') throw std::runtime_error("no such image");
                    return name;
                }
                """#, "kit.cpp")
            let main = try write(
                #"""
                #include <cstdio>
                #include <stdexcept>
                extern "C" const char *image_named(void *a, void *b, const char *name);
                int main() {
                    image_named(0, 0, "first");
                    try { image_named(0, 0, "!missing"); puts("not thrown"); } catch (const std::exception &e) { printf("caught: %s\n", e.what()); }
                    image_named(0, 0, "second");
                    return 0;
                }
                """#, "main.cpp")
            for level in ["-O0", "-O2"] {
                try shell("c++ \(level) -shared -fPIC -o \(work.path)/libkit.so \(library.path)")
                let program = work.appendingPathComponent("thrower")
                try shell("c++ \(level) -o \(program.path) \(main.path) -L\(work.path) -lkit -Wl,-rpath,'$ORIGIN'")
                let alone = try run(program)
                XCTAssertEqual(alone.stdout, "caught: no such image\n")
                XCTAssertEqual(try run(program, environment: recording("symbol image_named 3", file: "thrower\(level).agent")), alone, level)
                let log = work.appendingPathComponent("thrower.log")
                let recorded = try BinaryRunner.run(["record", "--agent", "--symbol", "image_named", "--no-launch-end", "--output", log.path, "--", program.path])
                XCTAssertEqual(recorded.status, 0, "\(level): \(recorded.stderr)")
                let text = try String(contentsOf: log, encoding: .utf8)
                let hits = text.split(separator: "\n").filter { $0.contains("image_named:") }
                XCTAssertEqual(hits.map { String($0.split(separator: "\"")[1]) }, ["first", "!missing", "second"], text)
                // The call left by the exception has no duration; the others have theirs.
                XCTAssertEqual(hits.map { $0.hasSuffix(" ms") }, [true, false, true], text)
            }
        }

        /// An Objective-C exception raised in a wrapped method reaches the caller's @catch.
        func testAnObjectiveCExceptionFromAWrappedMethodReachesTheCallersHandler() throws {
            guard let flags = Shell.output("gnustep-config --objc-flags"), let libraries = Shell.output("gnustep-config --base-libs") else {
                throw XCTSkip("needs gobjc and libgnustep-base-dev (gnustep-config)")
            }
            let source = try write(
                #"""
                #import <Foundation/Foundation.h>
                #include <stdio.h>
                @interface Kit : NSObject
                + (id)imageNamed:(NSString *)name;
                @end
                @implementation Kit
                + (id)imageNamed:(NSString *)name {
                    if ([name hasPrefix:@"!"]) [NSException raise:@"NoImage" format:@"no image %@", name];
                    return name;
                }
                @end
                int main(void) {
                    NSAutoreleasePool *pool = [NSAutoreleasePool new];
                    [Kit imageNamed:@"first"];
                    @try { [Kit imageNamed:@"!missing"]; puts("not thrown"); } @catch (NSException *e) { printf("caught: %s\n", [[e reason] UTF8String]); }
                    [Kit imageNamed:@"second"];
                    [pool release];
                    return 0;
                }
                """#, "kit.m")
            let cleaned = flags.replacingOccurrences(of: "-MMD -MP", with: "")
            for level in ["-O0", "-O2"] {
                let program = work.appendingPathComponent("objc\(level)")
                try shell("cc -x objective-c -std=gnu99 \(cleaned) -fobjc-exceptions \(level) -o \(program.path) \(source.path) \(libraries)")
                let alone = try run(program)
                XCTAssertEqual(alone.stdout, "caught: no image !missing\n", alone.stderr)
                let log = work.appendingPathComponent("objc.log")
                let recorded = try BinaryRunner.run(
                    ["record", "--agent", "--objc", "+[Kit imageNamed:]", "--no-launch-end", "--output", log.path, "--", program.path])
                XCTAssertEqual(recorded.status, 0, "\(level): \(recorded.stderr)")
                let text = try String(contentsOf: log, encoding: .utf8)
                let names = text.split(separator: "\n").filter { $0.contains("imageNamed:]:") }.map { String($0.split(separator: "\"")[1]) }
                XCTAssertEqual(names, ["first", "!missing", "second"], text)
                XCTAssertEqual(try run(program, environment: recording("objc +[Kit imageNamed:]", file: "objc\(level).agent")), alone, level)
            }
        }

        // MARK: Short programs and exits

        /// A program over in a millisecond keeps its frames (they were dropped: imgtrace read the
        /// program's map after it had gone; the agent now copies it when it is ready), and an
        /// `exit()` inside a wrapped call leaves the requests of the atexit handlers and
        /// destructors that run then outermost, so they are recorded (they were taken for nested
        /// calls of the call that never returned).
        func testAShortProgramKeepsItsFramesAndItsExitHandlersRecord() throws {
            let kit = try write(
                "#include <stdlib.h>\n__attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { if (name[0] == '!') exit(0); return name; }\n",
                "exitkit.c")
            let source = try write(
                #"""
                #include <stdlib.h>
                const char *image_named(void *a, void *b, const char *name);
                static void at_exit(void) { image_named(0, 0, "from_atexit"); }
                __attribute__((destructor)) static void destructor(void) { image_named(0, 0, "from_destructor"); }
                int main(void) {
                    atexit(at_exit);
                    image_named(0, 0, "first");
                    image_named(0, 0, "!quit");
                    return 1;
                }
                """#, "exits.c")
            for level in ["-O0", "-O2"] {
                try shell("cc \(level) -shared -fPIC -o \(work.path)/libexitkit.so \(kit.path)")
                let program = work.appendingPathComponent("exits")
                try shell("cc \(level) -o \(program.path) \(source.path) -L\(work.path) -lexitkit -Wl,-rpath,'$ORIGIN'")
                for attempt in 1...3 {
                    let log = work.appendingPathComponent("exits.log")
                    let recorded = try BinaryRunner.run(["record", "--agent", "--symbol", "image_named", "--no-launch-end", "--output", log.path, "--", program.path])
                    XCTAssertTrue(recorded.stderr.contains("exited with status 0"), "\(level): \(recorded.stderr)")
                    let text = try String(contentsOf: log, encoding: .utf8)
                    let blocks = Self.hits(text)
                    XCTAssertEqual(blocks.map { String($0[0].split(separator: "\"")[1]) }, ["first", "!quit", "from_atexit", "from_destructor"], "\(level) #\(attempt): \(text)")
                    XCTAssertTrue(blocks.first?.contains { $0.hasSuffix("exits`main") } == true, "\(level) #\(attempt): the caller is named: \(text)")
                    XCTAssertTrue(blocks.dropFirst(2).first?.contains { $0.contains("`__run_exit_handlers") } == true, "\(level) #\(attempt): \(text)")
                    XCTAssertFalse(text.contains("libImgtraceAgent"), "no frame of the agent's: \(text)")
                }
            }
        }

        // MARK: Stack reads

        /// A routine whose CFI claims a 1 MiB frame calls the image API from a thread whose stack
        /// is 256 KiB with nothing mapped above it: the walk reads nothing off the stack (it read
        /// there and the program died of SIGSEGV), and the record says where its frames end.
        func testAFrameWhoseUnwindInformationLiesIsCutNotFollowed() throws {
            let kit = try write(Self.imageKit, "kit.c")
            try shell("cc -O1 -shared -fPIC -o \(work.path)/libkit.so \(kit.path)")
            let source = try write(
                #"""
                #include <pthread.h>
                #include <stdio.h>
                #include <sys/mman.h>
                const char *image_named(void *a, void *b, const char *name);
                void liar(const char *name);
                __asm__(".text\n.globl liar\n.type liar,@function\nliar:\n.cfi_startproc\n"
                        "  pushq %rbp\n  .cfi_def_cfa_offset 1048592\n  .cfi_offset %rbp, -16\n"
                        "  movq %rdi, %rdx\n  xorl %edi, %edi\n  xorl %esi, %esi\n  call image_named@PLT\n"
                        "  popq %rbp\n  .cfi_def_cfa_offset 8\n  ret\n.cfi_endproc\n.size liar, .-liar\n");
                static void *body(void *unused) { liar("from_the_liar"); return NULL; }
                int main(void) {
                    size_t stack = 256 << 10, guard = 4 << 20;
                    char *block = mmap(NULL, stack + guard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                    if (block == MAP_FAILED || mprotect(block + stack, guard, PROT_NONE) != 0) return 3;
                    pthread_attr_t attributes;
                    pthread_attr_init(&attributes);
                    pthread_attr_setstack(&attributes, block, stack);
                    pthread_t thread;
                    if (pthread_create(&thread, &attributes, body, NULL) != 0) return 4;
                    pthread_join(thread, NULL);
                    image_named(0, 0, "from_main");
                    puts("done");
                    return 0;
                }
                """#, "liar.c")
            for level in ["-O0", "-O2"] {
                let program = work.appendingPathComponent("liar")
                try shell("cc \(level) -o \(program.path) \(source.path) -L\(work.path) -lkit -Wl,-rpath,'$ORIGIN' -lpthread")
                XCTAssertEqual(try run(program).stdout, "done\n")
                let log = work.appendingPathComponent("liar.log")
                let recorded = try BinaryRunner.run(["record", "--agent", "--symbol", "image_named", "--no-launch-end", "--output", log.path, "--", program.path])
                XCTAssertEqual(recorded.status, 0, "\(level): \(recorded.stderr)")
                XCTAssertTrue(recorded.stderr.contains("exited with status 0"), "\(level): \(recorded.stderr)")
                let text = try String(contentsOf: log, encoding: .utf8)
                let blocks = Self.hits(text)
                let liarBlock = try XCTUnwrap(blocks.first { $0.first?.contains("from_the_liar") == true }, text)
                XCTAssertTrue(liarBlock.contains { $0.contains("`liar") }, "\(level): the liar's own frame is kept: \(text)")
                XCTAssertTrue(liarBlock.last?.contains("<unreadable: unwind information points off the stack>") == true, "\(level): \(text)")
                let mainBlock = try XCTUnwrap(blocks.first { $0.first?.contains("from_main") == true }, text)
                XCTAssertFalse(mainBlock.contains { $0.contains("<unreadable") }, text)
            }
        }
    }
#endif
