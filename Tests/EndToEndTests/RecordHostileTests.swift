#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// `imgtrace record` against programs whose Objective-C metadata and memory are hostile: a
    /// method list at the top of the address space, an object whose class pointer is 0xFFFF…F8,
    /// a thread whose name holds CR LF. The recorder must neither trap nor harm the program: an
    /// attached program that loads a hostile library mid-way runs on to its own end.
    final class RecordHostileTests: XCTestCase {
        private var work: URL!

        override func setUpWithError() throws {
            work = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-record-hostile-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        }

        override func tearDownWithError() throws {
            if let work { try? FileManager.default.removeItem(at: work) }
        }

        /// GCC-runtime class metadata written by hand: a metaclass `NSImage` whose list holds
        /// `imageNamed:` (implemented by `fake_image_named`), and a second `NSImage` metaclass whose
        /// method list pointer is 0xFFFF…F9. Like every object GCC compiles with Objective-C
        /// metadata, the program imports `__objc_exec_class` (weakly: there is no runtime here).
        static let metadata = #"""
            extern void __objc_exec_class(void *) __attribute__((weak));
            void *objc_runtime_entry(void) { return (void *)__objc_exec_class; }
            struct method { const char *name; const char *types; void *imp; };
            struct method_list { void *next; int count; int pad; struct method methods[1]; };
            struct objc_class { void *isa; void *super; const char *name; long version; unsigned long info; long size; void *ivars; void *methods; };
            __attribute__((noinline)) void *fake_image_named(void *cls, void *sel, void *name) { __asm__ volatile(""); return name; }
            struct method_list image_methods = { 0, 1, 0, { { "imageNamed:", "@24@0:8@16", (void *)fake_image_named } } };
            struct objc_class image_meta = { 0, 0, "NSImage", 0, 2, 0, 0, &image_methods };
            struct objc_class hostile_meta = { 0, 0, "NSImage", 0, 2, 0, 0, (void *)0xFFFFFFFFFFFFFFF9ull };
            """#

        private func compile(_ source: String, to name: String, flags: [String]) throws -> URL {
            do { return try CCompiler.compile(source, to: name, in: work, flags: flags) } catch let error as CCompiler.Unavailable { throw XCTSkip(error.description) }
        }

        func testHostileMetadataAndObjectsNeitherTrapNorLoseTheRealHits() throws {
            let program = try compile(
                Self.metadata + "\n" + #"""
                    #include <pthread.h>
                    #include <stdio.h>
                    #include <sys/prctl.h>
                    struct string_class { void *isa; void *super; const char *name; };
                    struct string_class constant_string = { 0, 0, "NSConstantString" };
                    struct fake_string { void *isa; const char *chars; unsigned int length; };
                    struct fake_string hero = { &constant_string, "hero", 4 };
                    unsigned long wild[4] = { 0xFFFFFFFFFFFFFFF8ull, 0, 0, 0 };
                    static void *named_thread(void *x) {
                        prctl(PR_SET_NAME, "a\r\n2026-01-01 ");
                        fake_image_named(&image_meta, 0, &hero);
                        return 0;
                    }
                    int main(void) {
                        fake_image_named(&image_meta, 0, &hero);
                        fake_image_named(&image_meta, 0, wild);
                        pthread_t t;
                        pthread_create(&t, 0, named_thread, 0);
                        pthread_join(t, 0);
                        fake_image_named(&image_meta, 0, &hero);
                        puts("done");
                        return 0;
                    }
                    """#, to: "hostile", flags: ["-O1", "-pthread", "-fPIE", "-pie"])
            let log = work.appendingPathComponent("hostile.log")
            let run = try BinaryRunner.run(["record", "--objc", "+[NSImage imageNamed:]", "--no-launch-end", "--backtrace", "0", "--output", log.path, "--", program.path])
            if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
            XCTAssertEqual(run.status, 0, run.stderr)
            XCTAssertEqual(run.stdoutText, "done\n")
            let text = try String(contentsOf: log, encoding: .utf8)
            let lines = text.split(separator: "\n")
            XCTAssertEqual(lines.count, 5, "one line per hit, none forged by the thread name, and the end line: \(text)")
            XCTAssertEqual(lines.last, "imgtrace-recording-end hits=4 launch-end=not-watched program=exit:0")
            XCTAssertEqual(lines.filter { $0.hasSuffix("+[NSImage imageNamed:]: \"hero\"") }.count, 3, text)
            XCTAssertEqual(
                lines.filter { $0.contains("+[NSImage imageNamed:]: <unread: no readable string at 0x") }.count, 1,
                "the wild object is a hit whose name could not be read, with its address: \(text)")
            XCTAssertTrue(text.contains("[a\\u{D}\\u{A}2026-01-01 "), text)
            XCTAssertEqual(ConsumerModels.rawControls(text), [])
            // The reader agrees: four hits, three names.
            let trace = try BinaryRunner.run(["trace", log.path, "--format", "json"])
            let summary = try XCTUnwrap((try JSONSerialization.jsonObject(with: trace.stdout) as? [String: Any])?["summary"] as? [String: Any])
            XCTAssertEqual(summary["hits"] as? Int, 4, trace.stdoutText)
        }

        /// Attached to a running program that loads a hostile library mid-way: the recorder reads
        /// it without trapping, keeps recording, and detaches; the program runs to its own end.
        func testAnAttachedProgramSurvivesAHostileLibraryLoadedMidway() throws {
            let library = try compile(Self.metadata, to: "libhostile.so", flags: ["-O1", "-shared", "-fPIC"])
            let binary = try compile(
                #"""
                #include <dlfcn.h>
                #include <stdio.h>
                #include <unistd.h>
                __attribute__((noinline)) const char *image_named(void *a, void *b, const char *name) { __asm__ volatile(""); return name; }
                int main(int argc, char **argv) {
                    for (int i = 0; i < 60; i++) { image_named(0, 0, "before"); usleep(10000); }
                    void *hostile = dlopen(argv[1], RTLD_NOW);
                    if (!hostile) { puts("dlopen failed"); return 1; }
                    for (int i = 0; i < 60; i++) { image_named(0, 0, "after"); usleep(10000); }
                    puts("finished");
                    return 3;
                }
                """#, to: "host", flags: ["-O1", "-ldl"])
            let program = Process(), output = Pipe()
            program.executableURL = binary
            program.arguments = [library.path]
            program.standardOutput = output
            try program.run()
            usleep(200_000)
            let log = work.appendingPathComponent("attach.log")
            let run = try BinaryRunner.run([
                "record", "--pid", "\(program.processIdentifier)", "--symbol", "image_named", "--objc", "+[NSImage imageNamed:]", "--no-launch-end",
                "--duration", "4", "--output", log.path,
            ])
            if run.stderr.contains("ptrace refused") {
                program.terminate()
                throw XCTSkip("ptrace attach is not allowed here: \(run.stderr)")
            }
            program.waitUntilExit()
            XCTAssertEqual(program.terminationReason, .exit, "the program died (a breakpoint byte left behind?): \(run.stderr)")
            XCTAssertEqual(program.terminationStatus, 3)
            XCTAssertEqual(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self), "finished\n")
            XCTAssertEqual(run.status, 0, run.stderr)
            let text = try String(contentsOf: log, encoding: .utf8)
            XCTAssertGreaterThan(text.components(separatedBy: "\"after\"").count - 1, 30, "recording went on after the hostile library: \(text)")
        }
    }
#endif
