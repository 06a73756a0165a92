#if os(Linux)
    import Foundation
    @testable import NativeTrace
    import TestSupport
    import XCTest

    /// `record --backtrace` walks each hit's stack from CFI steps it caches per program counter;
    /// libdw's own walk of the same stop is the reference. The program reaches its image API through
    /// the shapes a walk meets: recursion deeper than the frames asked, a libc callback (`qsort`), a
    /// frame whose CFA is `rbp` (`alloca`), frames without a frame pointer, a thread's outermost
    /// frame, at -O0 and -O2, the API in a library and in the program.
    final class UnwinderTests: XCTestCase {
        private static let library = """
            __attribute__((noipa)) const char *image_named(void *cls, void *sel, const char *name) {
                __asm__ volatile("" ::: "memory");
                return name;
            }
            """

        private static let program = """
            #include <alloca.h>
            #include <pthread.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            const char *image_named(void *cls, void *sel, const char *name);
            static volatile int sink;
            static int calls;  /* the program's own record: how many requests it made */
            __attribute__((noinline)) static void nested(int depth, const char *name) {
                if (depth == 0) { __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED); image_named(0, 0, name); return; }
                nested(depth - 1, name);
                sink++;
            }
            __attribute__((noinline)) static void sized(int bytes, const char *name) {
                char *buffer = alloca(bytes);
                memset(buffer, 1, bytes);
                sink += buffer[bytes - 1];
                calls++;
                image_named(0, 0, name);
            }
            static int compare(const void *a, const void *b) {
                calls++;
                image_named(0, 0, "from_qsort");
                return *(const int *)a - *(const int *)b;
            }
            static void *worker(void *unused) {
                for (int i = 0; i < 5; i++) nested(i, "on_thread");
                return unused;
            }
            int main(int argc, char **argv) {
                for (int i = 0; i < 12; i++) nested(i, "nested");
                for (int i = 1; i < 6; i++) sized(i * 100, "sized");
                int values[] = {5, 3, 9, 1};
                qsort(values, 4, sizeof values[0], compare);
                pthread_t thread;
                pthread_create(&thread, 0, worker, 0);
                pthread_join(thread, 0);
                FILE *record = fopen(argv[1], "w");
                fprintf(record, "%d\\n", calls);
                fclose(record);
                return 0;
            }
            """

        func testCachedWalksAreLibdwWalksAtEveryOptimisationLevel() throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("unwinder-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            for level in ["-O0", "-O2"] {
                for framePointer in ["-fno-omit-frame-pointer", "-fomit-frame-pointer"] {
                    let tag = "\(level)\(framePointer)"
                    let library = try CCompiler.compile(
                        Self.library, to: "libimagekit\(tag).so", in: folder, flags: [level, framePointer, "-shared", "-fPIC"])
                    let shared = try CCompiler.compile(
                        Self.program, to: "shared\(tag)", in: folder,
                        flags: [level, framePointer, "-pthread", "-Wl,--no-as-needed", library.path, "-Wl,-rpath,\(folder.path)"])
                    let whole = try CCompiler.compile(
                        Self.program + "\n" + Self.library, to: "whole\(tag)", in: folder, flags: [level, framePointer, "-pthread"])
                    for binary in [shared, whole] {
                        for frames in [8, 64] {
                            try check(binary, frames: frames, label: "\(binary.lastPathComponent), \(frames) frames")
                        }
                    }
                }
            }
        }

        private func check(_ binary: URL, frames: Int, label: String) throws {
            let record = binary.deletingLastPathComponent().appendingPathComponent("calls")
            var request = RecordRequest(program: [binary.path, record.path], objcMethods: [], symbols: [("image_named", 3)])
            request.backtrace = frames
            request.checkUnwinding = true
            var lines: [String] = []
            let recorder = Recorder(request) { lines.append($0) }
            let end = try recorder.run()
            // One line per request the program made (12 nested, 5 sized, qsort's comparisons, 5 on
            // the thread): a wrapper that tail-calls the API once and calls it deeper the next time
            // is two requests.
            let calls = try String(contentsOf: record, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(end.hits, Int(calls), label)
            XCTAssertGreaterThanOrEqual(end.hits, 25, label)
            let (cachedWalks, differences) = recorder.unwinding
            XCTAssertEqual(differences, [], label)
            // The cache must be what walked, not a fallback to libdw at every stop.
            XCTAssertEqual(cachedWalks, end.hits, label)
            let text = lines.joined(separator: "\n")
            XCTAssertTrue(text.contains("compare") || text.contains("qsort"), label)
            XCTAssertTrue(text.contains("worker"), label)
        }
    }
#endif
