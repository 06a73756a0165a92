import Foundation
import TestSupport
import XCTest

/// `imgtrace lldb-script` run under a real lldb: the generated capture must give `imgtrace trace`
/// exactly what the traced program recorded it loaded.
final class LldbScriptTests: XCTestCase {
    /// A C program whose loaders take `(receiver, selector, name)` like an Objective-C message and log each call.
    static let program = #"""
        #include <stdio.h>
        static FILE *record;
        __attribute__((noinline)) void *image_named(void *receiver, const char *selector, const char *name) {
            fprintf(record, "image_named\t%s\n", name ? name : "(nil)"); fflush(record); return (void *)name;
        }
        __attribute__((noinline)) void *image_with_contents_of_file(void *receiver, const char *selector, const char *path) {
            fprintf(record, "image_with_contents_of_file\t%s\n", path ? path : "(nil)"); fflush(record); return (void *)path;
        }
        __attribute__((noinline)) void view_did_appear(void *receiver, const char *selector, int animated) {
            fprintf(record, "launch-end\t-\n"); fflush(record);
        }
        int main(int argc, char **argv) {
            record = fopen(argv[1], "w");
            const char *names[] = {"AppIcon", "tab_home", "hero image", "tab_home", "quote'name", "back\\slash", "", 0, "h\xc3\xa9llo"};
            for (int i = 0; i < 9; i++) image_named(0, "imageNamed:", names[i]);
            image_with_contents_of_file(0, "imageWithContentsOfFile:", "/var/app/Big.jpg");
            view_did_appear(0, "viewDidAppear:", 1);
            image_named(0, "imageNamed:", "after_launch");
            image_with_contents_of_file(0, "imageWithContentsOfFile:", "/var/app/Big.jpg");
            fclose(record);
            return 0;
        }
        """#

    /// lldb-16 (what CI installs) or another lldb that runs.
    private static let lldb: String? = {
        for candidate in ["/usr/bin/lldb-16", "/usr/bin/lldb-17", "/usr/bin/lldb-15", "/usr/bin/lldb"] {
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: candidate)
            process.arguments = ["--version"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            if (try? process.run()) != nil {
                process.waitUntilExit()
                if process.terminationStatus == 0 { return candidate }
            }
        }
        return nil
    }()

    private var work: URL!
    private var binary: URL!

    override func setUpWithError() throws {
        guard Self.lldb != nil else { throw XCTSkip("no lldb installed (CI installs Debian's lldb-16): the real-debugger capture test is skipped") }
        work = try BinaryRunner.temporaryDirectory()
        let source = work.appendingPathComponent("loader.c")
        try Self.program.write(to: source, atomically: true, encoding: .utf8)
        binary = work.appendingPathComponent("loader")
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-g", "-O0", "-o", binary.path, source.path]
        try cc.run()
        cc.waitUntilExit()
        XCTAssertEqual(cc.terminationStatus, 0, "the test program compiles")
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    /// Runs the loader under lldb with the script made from `options`; returns the trace JSON and the program's record.
    private func capture(_ options: [String]) throws -> (events: [[String: Any]], summary: [String: Any], record: [(api: String, name: String)]) {
        let script = try BinaryRunner.run(
            [
                "lldb-script", "--symbol", "image_named", "--symbol", "image_with_contents_of_file",
                "--launch-end", "view_did_appear",
            ] + options)
        XCTAssertEqual(script.status, 0, script.stderr)
        let scriptFile = work.appendingPathComponent("capture.lldb")
        try script.stdout.write(to: scriptFile)
        let recordFile = work.appendingPathComponent("record.tsv")
        let log = work.appendingPathComponent("console.txt")
        let lldb = Process()
        lldb.executableURL = URL(fileURLWithPath: Self.lldb!)
        lldb.arguments = ["-b", "-s", scriptFile.path, "-o", "run", "--", binary.path, recordFile.path]
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        lldb.standardOutput = handle
        lldb.standardError = handle
        try lldb.run()
        lldb.waitUntilExit()
        try handle.close()
        let trace = try BinaryRunner.run(["trace", log.path, "--format", "json"])
        XCTAssertEqual(trace.status, 0, trace.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: trace.stdout) as? [String: Any])
        let record = try String(contentsOf: recordFile, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.isEmpty }.map { line -> (String, String) in
                let parts = line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
        return (json["events"] as! [[String: Any]], json["summary"] as! [String: Any], record)
    }

    /// Each event equals the record's line: name (nil and empty included), API and launch phase.
    /// `backtrace`: the frames each hit carries; by default the Python callback writes up to
    /// eight (the test program's stack is shallower), `--style print` none.
    private func checkMatchesRecord(_ options: [String], backtrace: ClosedRange<Int> = 1...8, timestamps: Bool = false) throws {
        let (events, summary, record) = try capture(options)
        let loads = record.filter { $0.api != "launch-end" }
        let launchEndIndex = try XCTUnwrap(record.firstIndex { $0.api == "launch-end" })
        XCTAssertEqual(events.count, loads.count, "\(options): one event per recorded call")
        for (i, (event, expected)) in zip(events, loads).enumerated() {
            switch expected.name {
            case "(nil)": XCTAssertEqual(event["status"] as? String, "nil", "\(options) #\(i)")
            case "": XCTAssertEqual(event["status"] as? String, "empty", "\(options) #\(i)")
            default:
                XCTAssertEqual(event["status"] as? String, "ok", "\(options) #\(i)")
                XCTAssertEqual(event["name"] as? String, expected.name, "\(options) #\(i)")
            }
            XCTAssertEqual(event["api"] as? String, expected.api, "\(options) #\(i)")
            let recordIndex = i < launchEndIndex ? i : i + 1
            XCTAssertEqual(event["phase"] as? String, recordIndex < launchEndIndex ? "launch" : "afterLaunch", "\(options) #\(i)")
            XCTAssertTrue(backtrace.contains((event["backtrace"] as? [String])?.count ?? 0), "\(options) #\(i): \(event["backtrace"] ?? "none")")
            if timestamps { XCTAssertNotNil(event["timestamp"] as? String, "\(options) #\(i)") }
        }
        let launchEnd = try XCTUnwrap(summary["launchEnd"] as? [String: Any], "the marker is recognised without --launch-end")
        XCTAssertEqual(launchEnd["source"] as? String, "marker")
        XCTAssertTrue((summary["warnings"] as? [Any] ?? []).isEmpty, "\(options): \(summary["warnings"] ?? "")")
    }

    func testPortableArgument() throws { try checkMatchesRecord([]) }

    func testX86Register() throws {
        #if arch(x86_64)
            try checkMatchesRecord(["--arch", "x86_64"])
        #else
            throw XCTSkip("$rdx holds the third argument only on x86_64")
        #endif
    }

    func testWithBacktraces() throws { try checkMatchesRecord(["--backtrace", "3"], backtrace: 3...3) }

    func testWithTimestamps() throws { try checkMatchesRecord(["--timestamps"], timestamps: true) }

    func testWithTimestampsAndBacktraces() throws { try checkMatchesRecord(["--timestamps", "--backtrace", "2"], backtrace: 2...2, timestamps: true) }

    /// The `p` action of the `print` style, one line per hit, for an lldb without Python.
    func testPrintStyle() throws { try checkMatchesRecord(["--style", "print"], backtrace: 0...0) }

    func testPrintStyleWithBacktraces() throws { try checkMatchesRecord(["--style", "print", "--backtrace", "3"], backtrace: 3...3) }
}

/// Command-line checks that need no debugger.
final class LldbScriptUsageTests: XCTestCase {
    func testUsageErrorsExit64() throws {
        let gdb = try BinaryRunner.run(["lldb-script", "--format", "gdb"])
        XCTAssertEqual(gdb.status, 64)
        XCTAssertTrue(gdb.stderr.contains("gdb has no $arg3"), gdb.stderr)
        XCTAssertEqual(try BinaryRunner.run(["lldb-script", "--arch", "mips"]).status, 64)
        XCTAssertEqual(try BinaryRunner.run(["lldb-script", "--timestamps", "--style", "print"]).status, 64)
    }

    /// A symbol is one word (an Objective-C method: class and selector): words after a gdb
    /// location are options and a condition that runs code when the script is sourced.
    func testASymbolWithBlanksOrALeadingDashIsRefusedInEveryFormat() throws {
        for format in ["lldb", "xcode", "gdb"] {
            for symbol in ["image_named -force-condition if ((int)_exit(42))", "-force-condition", "image named", "+[A b] c"] {
                let result = try BinaryRunner.run(["lldb-script", "--format", format, "--arch", "x86_64", "--symbol", symbol])
                XCTAssertEqual(result.status, 64, "\(format) \(symbol): \(result.stdoutText)")
                XCTAssertTrue(result.stdoutText.isEmpty, "\(format) \(symbol)")
            }
            let method = try BinaryRunner.run(["lldb-script", "--format", format, "--arch", "x86_64", "--symbol", "+[ImageKit loadNamed:]"])
            XCTAssertEqual(method.status, 0, "\(format): \(method.stderr)")
        }
        let record = try BinaryRunner.run(["record", "--symbol", "image_named -force-condition", "--output", "/dev/null", "--", "/bin/true"])
        XCTAssertEqual(record.status, 64, record.stderr)
    }

    func testSymbolsAloneReplaceTheDefaultAPIs() throws {
        let result = try BinaryRunner.run(["lldb-script", "--symbol", "load_image", "--no-launch-end", "--style", "print"])
        XCTAssertEqual(result.status, 0)
        let commands = result.stdoutText.split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertEqual(commands, [#"breakpoint set --name "load_image" --skip-prologue false -G true -C "p (const char *)$arg3 /* load_image */""#])
        let callback = try BinaryRunner.run(["lldb-script", "--symbol", "load_image", "--no-launch-end"])
        let breakpoints = callback.stdoutText.split(separator: "\n").filter { $0.hasPrefix("breakpoint") }
        XCTAssertEqual(breakpoints, [#"breakpoint set --name "load_image" --skip-prologue false -G true"#, "breakpoint command add -F imgtrace_request"])
    }
}
