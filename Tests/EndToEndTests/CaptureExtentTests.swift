import Foundation
import TestSupport
import XCTest

/// A request is its dynamic extent, in every capture: from the first image-API entry on a thread
/// until that call returns. A C loader whose wrapper tail-calls its worker at -O2, called from a
/// loop (the same call site three times: three requests), left by `longjmp` from inside (the
/// return never comes: the next call is still a request of its own), then called again. The
/// program writes its own record; `record`, the lldb callback and the gdb callback each give it,
/// unoptimized and optimized.
final class CaptureExtentTests: XCTestCase {
    private var work: URL!

    override func setUpWithError() throws {
        work = try BinaryRunner.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    static let loader = """
        #include <setjmp.h>
        #include <stdio.h>
        static jmp_buf env;
        static FILE *truth;
        __attribute__((noinline)) const char *load_inner(void *a, void *b, const char *name) {
            __asm__ volatile("" ::"r"(name) : "memory");
            if (name[0] == '!') longjmp(env, 1);
            return name;
        }
        /* A thin wrapper: a tail call at -O2. */
        __attribute__((noinline)) const char *load_image(void *a, void *b, const char *name) { return load_inner(a, b, name); }
        static void request(const char *name) {
            fprintf(truth, "%s\\n", name);
            fflush(truth);
            load_image(0, 0, name);
        }
        int main(int argc, char **argv) {
            truth = fopen(argv[1], "w");
            for (int i = 0; i < 3; i++) request("loop");
            if (!setjmp(env)) request("!jump");
            request("after");
            fclose(truth);
            return 0;
        }
        """

    private func loadsPerName(_ log: URL) throws -> [String: Int] {
        let result = try BinaryRunner.run(["trace", log.path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        var names: [String: Int] = [:]
        for event in document["events"] as? [[String: Any]] ?? [] where event["status"] as? String == "ok" {
            names[event["name"] as? String ?? "?", default: 0] += 1
        }
        return names
    }

    private func truth(_ file: URL) throws -> [String: Int] {
        var names: [String: Int] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") { names[String(line), default: 0] += 1 }
        return names
    }

    func testEveryCaptureCountsTailCallsLoopsAndLongjmpByExtent() throws {
        let symbols = ["--symbol", "load_image", "--symbol", "load_inner"]
        let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let gdb = FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") ? "/usr/bin/gdb" : nil
        guard lldb != nil, gdb != nil else { throw XCTSkip("lldb and gdb are needed (scripts/setup.sh test installs them)") }
        var checked = 0
        for level in ["-O0", "-O2"] {
            let program: URL
            do {
                program = try CCompiler.compile(Self.loader, to: "loader\(level)", in: work, flags: [level])
            } catch let error as CCompiler.Unavailable {
                throw XCTSkip(error.description)
            }
            let truthFile = work.appendingPathComponent("truth.tsv")
            // record (ptrace)
            let recorded = work.appendingPathComponent("record.log")
            let run = try BinaryRunner.run(["record"] + symbols + ["--no-launch-end", "--output", recorded.path, "--", program.path, truthFile.path])
            if run.stderr.contains("ptrace refused") { throw XCTSkip("ptrace is not allowed here") }
            XCTAssertEqual(run.status, 0, run.stderr)
            let expected = try truth(truthFile)
            XCTAssertEqual(expected, ["loop": 3, "!jump": 1, "after": 1])
            XCTAssertEqual(try loadsPerName(recorded), expected, "record \(level)")
            // lldb, the Python callback
            let lldbScript = work.appendingPathComponent("capture.lldb"), lldbLog = work.appendingPathComponent("lldb.log")
            try BinaryRunner.run(["lldb-script", "--backtrace", "0"] + symbols).stdout.write(to: lldbScript)
            try DebuggerSession.run(lldb!, ["-b", "-s", lldbScript.path, "-o", "run", "--", program.path, truthFile.path], console: lldbLog)
            let lldbConsole = (try? String(contentsOf: lldbLog, encoding: .utf8)) ?? ""
            XCTAssertEqual(try loadsPerName(lldbLog), expected, "lldb \(level): \(lldbConsole.suffix(2000))")
            // gdb, the same callback in gdb's Python
            let gdbScript = work.appendingPathComponent("capture.gdb"), gdbLog = work.appendingPathComponent("gdb.log")
            try BinaryRunner.run(["lldb-script", "--format", "gdb", "--arch", "x86_64", "--backtrace", "0"] + symbols).stdout.write(to: gdbScript)
            try DebuggerSession.run(gdb!, ["-batch", "-nx", "-x", gdbScript.path, "-ex", "run", "--args", program.path, truthFile.path], console: gdbLog)
            let gdbConsole = (try? String(contentsOf: gdbLog, encoding: .utf8)) ?? ""
            XCTAssertEqual(try loadsPerName(gdbLog), expected, "gdb \(level): \(gdbConsole.suffix(2000))")
            checked += 1
        }
        XCTAssertEqual(checked, 2)
    }
}
