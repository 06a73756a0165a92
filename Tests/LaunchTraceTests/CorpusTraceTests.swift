import Foundation
import LaunchTrace
import TestSupport
import XCTest

/// Every real trace in ../shared/corpus/lldb and e2e/gridlock, checked against the traced
/// program's own record of what it loaded (MANIFEST.md there says which variants lose names).
final class CorpusTraceTests: XCTestCase {
    private func corpus(_ relative: String) throws -> URL {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        return root.appendingPathComponent(relative)
    }

    private func read(_ relative: String) throws -> (events: [ImageLoad], summary: TraceSummary, truth: [TruthCall]) {
        let url = try corpus(relative)
        let bytes = try [UInt8](Data(contentsOf: url))
        let (events, summary) = try TraceReader.read(bytes)
        let truthURL = url.deletingPathExtension().appendingPathExtension("truth.tsv")
        let truth = FileManager.default.fileExists(atPath: truthURL.path) ? try TruthFile.load(truthURL) : []
        return (events, summary, truth)
    }

    /// Names (with `""` for empty and `(nil)` for nil) of the hits that yielded a value.
    private func valued(_ events: [ImageLoad], api: String? = nil, matchAll: Bool = false) -> Multiset {
        Multiset(
            events.filter { matchAll || $0.api == api }.compactMap { e -> String? in
                switch e.status {
                case .ok: return e.name
                case .empty: return ""
                case .nil: return "(nil)"
                default: return nil
                }
            })
    }

    private func truthNames(_ truth: [TruthCall], function: String) -> Multiset {
        Multiset(truth.filter { $0.function == function }.map { $0.argument ?? "(nil)" })
    }

    /// Lossless variants: the names equal the truth as a multiset, per API.
    private func assertLossless(
        _ relative: String, functions: [String], apiKnown: Bool = true,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let (events, summary, truth) = try read(relative)
        for function in functions {
            let got = apiKnown ? valued(events, api: function) : valued(events, matchAll: true)
            XCTAssertEqual(got, truthNames(truth, function: function), "\(relative) \(function)", file: file, line: line)
        }
        XCTAssertEqual(summary.hits, events.count, file: file, line: line)
        XCTAssertEqual(summary.statusCounts[.error], 0, file: file, line: line)
        XCTAssertEqual(summary.statusCounts[.skipped], 0, file: file, line: line)
        XCTAssertEqual(summary.statusCounts[.addressOnly], 0, file: file, line: line)
        XCTAssertEqual(events.map(\.seq), Array(1...events.count), file: file, line: line)
    }

    /// Lossy variants: every recovered name is real, and the hit count adds up.
    private func assertNoInventedNames(
        _ events: [ImageLoad], _ truth: [TruthCall], function: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let got = valued(events, api: function)
        let expected = truthNames(truth, function: function)
        XCTAssertTrue(got.isSubset(of: expected), "invented: \(got.subtracting(expected))", file: file, line: line)
    }

    func testLLDB16PrintCharPointerRDX() throws {
        try assertLossless("lldb/lldb-16/a01-lldb-p-rdx.txt", functions: ["image_named"])
        let (events, summary, _) = try read("lldb/lldb-16/a01-lldb-p-rdx.txt")
        XCTAssertEqual(summary.debugger, .lldb)
        XCTAssertEqual(summary.debuggerVersion, "lldb 16 or older")
        XCTAssertTrue(summary.actionsEchoed)
        // The value line, 1-based in the original file.
        XCTAssertEqual(events.first?.line, 11)
        XCTAssertEqual(events.first?.name, "AppIcon")
        XCTAssertEqual(events.first?.breakpoint, "1")
        XCTAssertEqual(events.first?.timestamp, "2026-11-21 19:39:34.426584+0100")
        XCTAssertTrue(events.contains { $0.name == "multi\nline" })
        XCTAssertTrue(events.contains { $0.name == "quote\"name" })
        XCTAssertTrue(events.contains { $0.name == "日本語" })
        XCTAssertEqual(summary.names.first { $0.name == "placeholder" }?.count, 9)
    }

    func testLLDB16PoCharPointer() throws {
        try assertLossless("lldb/lldb-16/a03-lldb-po-char-arg3.txt", functions: ["image_named"])
    }

    func testTwoBreakpointsWithBacktraces() throws {
        try assertLossless("lldb/lldb-16/a06-lldb-two-breakpoints-bt.txt", functions: ["image_named", "image_with_contents_of_file"])
        let (events, _, _) = try read("lldb/lldb-16/a06-lldb-two-breakpoints-bt.txt")
        let first = try XCTUnwrap(events.first)
        XCTAssertEqual(first.breakpoint, "1.1")
        XCTAssertEqual(first.thread, "Samples")
        XCTAssertEqual(first.backtrace.count, 6)
        XCTAssertTrue(first.backtrace[1].contains("Samples`load(name=\"AppIcon\")"))
        XCTAssertEqual(events[1].breakpoint, "2.1")
        XCTAssertEqual(events[1].api, "image_with_contents_of_file")
        XCTAssertEqual(events[1].backtrace.count, 3)
        XCTAssertTrue(events.contains { $0.thread == "thumbnails" && $0.name == "thumb_01.jpg" })
    }

    func testContinueInsideCommandsLosesOnlyOtherThreadsHits() throws {
        let (events, summary, truth) = try read("lldb/lldb-16/a07-lldb-continue-inside-commands.txt")
        assertNoInventedNames(events, truth, function: "image_named")
        XCTAssertEqual(valued(events, api: "image_named").total, 38)
        XCTAssertEqual(summary.hits, 38)
    }

    func testStopReportsCountUnselectedThreadsAsSkipped() throws {
        let (events, summary, truth) = try read("lldb/lldb-16/a08-lldb-stop-reports-manual-continue.txt")
        assertNoInventedNames(events, truth, function: "image_named")
        XCTAssertEqual(valued(events, api: "image_named").total, 37)
        XCTAssertEqual(summary.statusCounts[.skipped], 3)
        XCTAssertEqual(summary.hits, 40, "37 names and 3 hits on the unselected thread")
        // The command typed after the process exited is not a hit.
        XCTAssertEqual(summary.statusCounts[.error], 0)
        XCTAssertTrue(events.filter { $0.status == .skipped }.allSatisfy { $0.thread == "thumbnails" })
    }

    func testWrongRegisterLLDB16() throws {
        try assertAllWrongRegister("lldb/lldb-16/a09-lldb-wrong-register-errors.txt")
    }

    func testWrongRegisterLLDB23() throws {
        try assertAllWrongRegister("lldb/lldb-23/a09-lldb-wrong-register-errors.txt")
    }

    private func assertAllWrongRegister(_ relative: String) throws {
        let (events, summary, truth) = try read(relative)
        XCTAssertEqual(summary.hits, truth.count, "one failed hit per call of both functions")
        XCTAssertEqual(summary.statusCounts[.error], truth.count)
        XCTAssertTrue(events.allSatisfy { $0.name == nil })
        XCTAssertEqual(events.filter { $0.api == "image_named" }.count, truth.filter { $0.function == "image_named" }.count)
        XCTAssertEqual(events.first?.detail, "use of undeclared identifier '$r2'")
        XCTAssertEqual(summary.warnings.first?.message, "every hit failed: `$r2` is not a register on this architecture — use `$arg3`")
    }

    func testTerminalCaptureWithANSIAndCRLF() throws {
        let (events, summary, truth) = try read("lldb/lldb-16/a11-lldb-tty-ansi-color.txt")
        assertNoInventedNames(events, truth, function: "image_named")
        assertNoInventedNames(events, truth, function: "image_with_contents_of_file")
        XCTAssertEqual(valued(events, api: "image_named").total, 36)
        // Two stops of breakpoint 2 (ignore count 3), printed by hand at the stop.
        let manual = events.filter { $0.api == "image_with_contents_of_file" }
        XCTAssertEqual(manual.map(\.breakpoint), ["2.1", "2.1"])
        XCTAssertTrue(manual[1].backtrace.count >= 7)
        XCTAssertFalse(events.contains { ($0.name ?? "").contains("\u{1B}") })
        XCTAssertEqual(summary.hits, 38)
    }

    func testRecursionGuardSkipsAreCounted() throws {
        let (events, summary, truth) = try read("lldb/lldb-16/a20-lldb-objc-symbolic-nsprintfordebugger.txt")
        assertNoInventedNames(events, truth, function: "+[UIImage imageNamed:]")
        XCTAssertEqual(valued(events, api: "+[UIImage imageNamed:]").total, 29)
        XCTAssertEqual(summary.statusCounts[.skipped], 3)
        XCTAssertEqual(summary.hits, 32)
        XCTAssertEqual(summary.breakpoints.first?.symbol, "+[UIImage imageNamed:]")
    }

    func testLLDB23PrintWithoutPersistentResult() throws {
        try assertLossless("lldb/lldb-23/a02-lldb-p-arg3.txt", functions: ["image_named"])
        let (_, summary, _) = try read("lldb/lldb-23/a02-lldb-p-arg3.txt")
        XCTAssertEqual(summary.debuggerVersion, "lldb 17 or newer (Xcode 15+)")
    }

    func testPoWithoutObjectRuntimeGivesAddressesOnly() throws {
        let (events, summary, truth) = try read("lldb/lldb-23/a04-lldb-po-arg3-no-objc-runtime.txt")
        let calls = truth.filter { $0.function == "image_named" }
        XCTAssertEqual(summary.hits, calls.count, "two printing actions per hit, counted once")
        XCTAssertEqual(summary.statusCounts[.ok], 0)
        XCTAssertEqual(summary.statusCounts[.nil], calls.filter { $0.argument == nil }.count)
        XCTAssertEqual(summary.statusCounts[.addressOnly], calls.count - calls.filter { $0.argument == nil }.count)
        XCTAssertTrue(summary.warnings.contains { $0.message.hasPrefix("every hit printed an address") })
        XCTAssertTrue(events.allSatisfy { $0.name == nil })
    }

    func testGDBSilentPrint() throws {
        // `break image_named` is not echoed by gdb: the API is unknown, the names are complete.
        try assertLossless("lldb/gdb-13/a12-gdb-silent-p-rdx.txt", functions: ["image_named"], apiKnown: false)
        let (events, summary, _) = try read("lldb/gdb-13/a12-gdb-silent-p-rdx.txt")
        XCTAssertEqual(summary.debugger, .gdb)
        XCTAssertTrue(events.contains { $0.name == "thumb_01.jpg" && $0.thread == "LWP 20947" })
    }

    func testGDBBarePoIsXcodeLike() throws {
        let (events, summary, truth) = try read("lldb/gdb-13/a23-gdb-objc-po.txt")
        // Bare `po` text cannot tell a name with a newline from two hits (docs/trace-logs.md §3.5):
        // `multi\nline` is recovered as its two lines. Everything else is real.
        let expected = Multiset(
            truth.filter { $0.function == "+[UIImage imageNamed:]" }.flatMap { call -> [String] in
                guard let arg = call.argument else { return ["(nil)"] }
                return arg.contains("\n") ? arg.components(separatedBy: "\n") : [arg]
            })
        let got = valued(events, api: "+[UIImage imageNamed:]").counts.filter { $0.key != "(nil)" }
        XCTAssertTrue(Multiset(got.flatMap { Array(repeating: $0.key, count: $0.value) }).isSubset(of: expected))
        // gdb's `po` of nil aborts the command list: the last hit is the nil one, then nothing.
        XCTAssertEqual(events.last?.status, .nil)
        XCTAssertEqual(summary.statusCounts[.empty], 1)
        XCTAssertFalse(events.contains { ($0.name ?? "").contains("Error in sourced command file") })
    }

    func testGridlockTracesAgree() throws {
        let (gdbEvents, gdbSummary, _) = try read("e2e/gridlock/b-gridlock-gdb-po-silent.txt")
        let (lldbEvents, lldbSummary, _) = try read("e2e/gridlock/b-gridlock-lldb-nsprint.txt")
        XCTAssertEqual(gdbSummary.hits, 192)
        XCTAssertEqual(lldbSummary.hits, 192)
        // The lldb transcript quotes every name, so it is the reference for the bare gdb one.
        XCTAssertEqual(gdbEvents.map(\.name), lldbEvents.map(\.name))
        XCTAssertTrue(gdbEvents.allSatisfy { $0.status == .ok })
        XCTAssertEqual(lldbSummary.names.first { $0.name == "NSMenuArrow" }.map(\.count), gdbSummary.names.first { $0.name == "NSMenuArrow" }.map(\.count))
        XCTAssertGreaterThan(gdbSummary.names.first { $0.name == "NSMenuArrow" }?.count ?? 0, 20)
        // Nothing gdb or the app printed around the hits is a name.
        for noise in ["No symbol matches $imp.", "Program received signal SIGTERM, Terminated.", "on display: :99"] {
            XCTAssertFalse(gdbEvents.contains { $0.name == noise }, noise)
        }
        // The one-shot breakpoint on main is set-up, not a load.
        XCTAssertEqual(lldbEvents.first?.name, "GSArrowCursor")
        XCTAssertEqual(lldbEvents.first?.breakpoint, "2")
    }

    func testEveryCorpusTraceReadsWithoutInventingNames() throws {
        let root = try corpus("lldb")
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".txt") && !$0.hasSuffix("VERSIONS.txt") }
        XCTAssertEqual(files.count, 13)
        for file in files.sorted() {
            let (events, summary, truth) = try read("lldb/" + file)
            let real = Set(truth.compactMap(\.argument).flatMap { [$0] + $0.components(separatedBy: "\n") })
            for event in events where event.status == .ok {
                XCTAssertTrue(real.contains(event.name!), "\(file):\(event.line) invented \(event.name!.debugDescription)")
            }
            XCTAssertEqual(summary.hits, events.count)
        }
    }
}
