import LaunchTrace
import XCTest

/// Small logs written here for the shapes docs/trace-logs.md describes that the corpus lacks.
final class LogShapeTests: XCTestCase {
    private func read(_ text: String, launchEnd: String? = nil) throws -> (events: [ImageLoad], summary: TraceSummary) {
        try TraceReader.read(Array(text.utf8), options: TraceOptions(launchEnd: try launchEnd.map { try LaunchEndPattern($0) }))
    }

    private func names(_ events: [ImageLoad]) -> [String?] { events.map(\.name) }

    func testXcodeConsoleWithoutEchoes() throws {
        let log = """
            2024-05-01 12:00:00.123456+0200 Samples[1234:56789] application:didFinishLaunchingWithOptions:
            AppIcon
            tab_home
            2024-05-01 12:00:00.223456+0200 Samples[1234:56789] HomeViewController viewDidLoad
            Profile Header
            tab_search@2x
            <nil>
            <object returned empty description>
            [framework] CUICatalog: Invalid asset name supplied: '(null)'
            placeholder
            Message from debugger: Terminated due to signal 9
            """
        let (events, summary) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "tab_home", "Profile Header", "tab_search@2x", nil, nil, "placeholder"])
        XCTAssertEqual(events.map(\.status), [.ok, .ok, .ok, .ok, .nil, .empty, .ok])
        XCTAssertEqual(events.map(\.line), [2, 3, 5, 6, 7, 8, 10])
        XCTAssertEqual(events[2].timestamp, "2024-05-01 12:00:00.223456+0200")
        XCTAssertFalse(summary.actionsEchoed)
        XCTAssertEqual(summary.debugger, .unknown)
    }

    func testArmv7PoR2WithEchoAndOldBlankLine() throws {
        // Xcode 6/7-era lldb printed an empty line after every `po`.
        let log = """
            (lldb) breakpoint set -n "+[UIImage imageNamed:]" -G true -C "po $r2"
            Breakpoint 1: where = UIKit`+[UIImage imageNamed:], address = 0x2c1f3a2e
            (lldb)  po $r2
            AppIcon

            (lldb)  po $r2
            multi
            line

            (lldb)  po $r2
            <nil>

            """
        let (events, summary) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "multi\nline", nil])
        XCTAssertEqual(events.map(\.api), Array(repeating: "+[UIImage imageNamed:]", count: 3))
        XCTAssertEqual(events.map(\.breakpoint), ["1", "1", "1"])
        XCTAssertEqual(summary.breakpoints.first?.actions, ["po $r2"])
    }

    func testNSStringSummaryForms() throws {
        let log = """
            (lldb)  p (NSString *)$arg3
            (__NSCFConstantString *) $1 = 0x0000000100008098 @"AppIcon"
            (lldb)  p (NSString *)$arg3
            (NSTaggedPointerString *) $2 = 0xa6e6f6369707061 @"appicon"
            (lldb)  p (NSString *)$arg3
            (NSPathStore2 *) $3 = 0x0000000282d1c000 @"/var/containers/Bundle/Application/9DB7CE45/Samples.app/foo.png"
            (lldb)  p (NSString *)$arg3
            (NSString *) $4 = nil
            (lldb)  p (NSString *)$arg3
            (__NSCFConstantString *) $5 = 0x0000000100008100 @""
            (lldb)  p (NSString *)$arg3
            (__NSCFString *) 0x0000000282d1c010 @"tab \\"quoted\\""
            """
        let (events, _) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "appicon", "/var/containers/Bundle/Application/9DB7CE45/Samples.app/foo.png", nil, nil, "tab \"quoted\""])
        XCTAssertEqual(events.map(\.status), [.ok, .ok, .ok, .nil, .empty, .ok])
    }

    func testCRLFAndANSIMixed() throws {
        let esc = "\u{1B}"
        let log =
            "(lldb)  p (char *)$arg3\r\n\(esc)[0;36m(char *)\(esc)[0m $0 = \(esc)[33m0x000055555555612b\(esc)[0m \"AppIcon\"\r\n"
            + "2026-11-21 19:38:50.072502+0100 Samples[15875:15875] viewDidLoad\r\r\n"
            + "(lldb)  p (char *)$arg3\n(char *) $1 = 0x0000555555556133 \"LaunchImage\"\r\r\n"
        let (events, summary) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "LaunchImage"])
        XCTAssertEqual(events.map(\.line), [2, 5])
        XCTAssertEqual(summary.lines, 5)
    }

    func testExamineStringAndLLDB16UTF8EscapeBug() throws {
        let log = """
            (lldb)  x/s $rdx
            0x7fffffffe250: "caf\\xffffffc3\\xffffffa9_icon"
            (lldb)  x/s $rdx
            0x7fffffffe260: "caf\\xc3\\xa9_icon"
            (lldb)  x/s $rdx
            0x55555555612b:\t"tab\\ttab"
            """
        let (events, _) = try read(log)
        XCTAssertEqual(names(events), ["café_icon", "café_icon", "tab\ttab"])
    }

    func testGDBValuesAndOctalEscapes() throws {
        let log = """
            Breakpoint 1 at 0x10d0
            $1 = 0x555555556113 "AppIcon"
            $2 = 0x555555556120 "caf\\303\\251"
            $3 = (NSString *) 0x0
            $4 = 0x0
            $5 = 93824992239915
            [Inferior 1 (process 19320) exited normally]
            """
        let (events, summary) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "café", nil, nil, nil])
        XCTAssertEqual(events.map(\.status), [.ok, .ok, .nil, .nil, .addressOnly])
        XCTAssertEqual(summary.debugger, .gdb)
    }

    func testGDBStopLinesGiveAPIAndThread() throws {
        let log = """
            Breakpoint 1 (+[UIImage imageNamed:]) pending.
            Breakpoint 1, +[UIImage imageNamed:] (self=0x7ffff7fbf5a0 <_OBJC_Class_UIImage>, _cmd=0x5555555596a0, name=0x5555555592c0) at /src/UIImage.m:17
            17\t  return [self imageWithContentsOfFile:name];
            AppIcon
            Thread 2 "thumbnails" hit Breakpoint 1, +[UIImage imageNamed:] (self=0x7ffff7fbf5a0, _cmd=0x5555555596a0, name=0x7ffff0000b70) at /src/UIImage.m:17
            17\t  return [self imageWithContentsOfFile:name];
            thumb_01.jpg
            """
        let (events, _) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "thumb_01.jpg"])
        XCTAssertEqual(events.map(\.api), ["+[UIImage imageNamed:]", "+[UIImage imageNamed:]"])
        XCTAssertEqual(events[1].thread, "thumbnails")
        XCTAssertEqual(events[1].breakpoint, "1")
    }

    /// A debugger that crashes mid-launch prints its own report: gdb's backtrace lines, LLVM's
    /// stack dump. None of it is a name; the hits before stay, and the log says the capture
    /// ends there (gdb 13 crashed so on a GNUstep program: its lines had become five "loads").
    func testADebuggerCrashEndsTheCaptureAndItsReportIsNoName() throws {
        let gdb = """
            Breakpoint 1 at 0x24c6: file model.m, line 43.
            Breakpoint 1, +[UIImage imageNamed:] (self=0x5555555c5160, _cmd=0x55555555b040, n=0x55555555a640) at model.m:43
            AppIcon


            Fatal signal: Segmentation fault
            ----- Backtrace -----
            0x5577b1c0340e ???
            0x7f9dd3f65249 __libc_start_call_main
            \t../sysdeps/nptl/libc_start_call_main.h:58
            ---------------------
            A fatal error internal to GDB has been detected, further
            debugging is not possible.  GDB will now terminate.

            This is a bug, please report it.  For instructions, see:
            <https://www.gnu.org/software/gdb/bugs/>.
            """
        let (events, summary) = try read(gdb)
        XCTAssertEqual(names(events), ["AppIcon"])
        XCTAssertEqual(summary.warnings.first { $0.message.contains("debugger crashed") }?.line, 6, "\(summary.warnings)")
        let lldb = """
            (lldb) breakpoint set -n "+[UIImage imageNamed:]" -G true -C "po $arg3"
            Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x0000000180a4c2f0
            (lldb)  po $arg3
            AppIcon
            PLEASE submit a bug report to https://github.com/llvm/llvm-project/issues/ and include the crash backtrace.
            Stack dump:
            0.\tProgram arguments: lldb-16 -b -s imgtrace.lldb
             #0 0x00007f2a1c3e5a8f llvm::sys::PrintStackTrace(llvm::raw_ostream&, int)
            Segmentation fault
            """
        let (lldbEvents, lldbSummary) = try read(lldb)
        XCTAssertEqual(names(lldbEvents), ["AppIcon"])
        XCTAssertTrue(lldbSummary.warnings.contains { $0.line == 5 && $0.message.contains("nothing after this line was captured") }, "\(lldbSummary.warnings)")
    }

    func testWrongRegisterInXcodeConsole() throws {
        let log = """
            error: use of undeclared identifier '$r2'
            error: use of undeclared identifier '$r2'
            2024-05-01 12:00:00.123456+0200 Samples[1234:56789] launched
            error: <user expression 2>:1:1: use of undeclared identifier '$r2'
            $r2
            ^
            """
        let (events, summary) = try read(log)
        XCTAssertEqual(events.count, 3)
        XCTAssertTrue(events.allSatisfy { $0.status == .error })
        XCTAssertEqual(summary.warnings.first?.message, "every hit failed: `$r2` is not a register on this architecture — use `$arg3`")
    }

    func testTimestampedCallbackLines() throws {
        let log = """
            2026-11-21 19:39:43.244053 [Samples] +[UIImage imageNamed:]: 'AppIcon'
            2026-11-21 19:39:43.250000 [thumbnails] +[UIImage imageNamed:]: "it's"
            2026-11-21 19:39:43.260000 [Samples] +[UIImage imageNamed:]: None
            2026-11-21 19:39:43.270000 [Samples] +[UIImage imageNamed:]: 'multi\\nline'
            """
        let (events, _) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "it's", nil, "multi\nline"])
        XCTAssertEqual(events.map(\.thread), ["Samples", "thumbnails", "Samples", "Samples"])
        XCTAssertEqual(events[0].timestamp, "2026-11-21 19:39:43.244053")
        XCTAssertEqual(events[0].api, "+[UIImage imageNamed:]")
    }

    /// gdb runs the callback without echoing it: the program's own output between request lines
    /// (after gdb's thread switches) is output, never a name.
    func testProgramOutputBetweenCallbackLinesIsNoName() throws {
        let log = """
            [New Thread 0x7ffff44906c0 (LWP 24677)]
            [Switching to Thread 0x7ffff44906c0 (LWP 24677)]
            [worker] (code) +[UIImage imageNamed:inBundle:withConfiguration:]: "worker_0"
            loading the library
            [Switching to Thread 0x7ffff7e96a00 (LWP 24662)]
            [main] (nib) -[UIImageNibPlaceholder initWithCoder:]: "Placeholder"
            model done
            [Inferior 1 (process 24662) exited normally]
            """
        let (events, _) = try read(log)
        XCTAssertEqual(names(events), ["worker_0", "Placeholder"])
        XCTAssertEqual(events.map(\.kind), [.code, .nib])
    }

    /// imgtrace's script continues at every breakpoint: a capture by it that ends on a stop report
    /// (lldb-16's `trace` stop with two threads at breakpoints, a crash, an interrupt) ended with the
    /// program stopped, and says so. A stop the program went on from, or a log of another
    /// capture style that ends on a stop, says nothing of it.
    func testACallbackCaptureEndingWithTheProgramStoppedSaysSo() throws {
        let requests = """
            [model] (code) +[UIImage imageNamed:inBundle:withConfiguration:]: "main_0"
            [model] (code) +[UIImage imageNamed:inBundle:withConfiguration:]: "main_1"
            Process 28547 stopped
            * thread #1, name = 'model', stop reason = trace
                frame #0: 0x0000555555556acb model`_c_UIImage__imageNamed_inBundle_withConfiguration_ at model.m:61:1
              thread #2, name = 'model', stop reason = breakpoint 4.1
            """
        let (events, summary) = try read(requests)
        // The second thread stopped at a breakpoint whose callback never ran: a hit lost, counted.
        XCTAssertEqual(names(events), ["main_0", "main_1", nil])
        XCTAssertEqual(events.last?.status, .skipped)
        XCTAssertEqual(summary.stoppedAtEndLine, 3)
        let warning = try XCTUnwrap(summary.warnings.first { $0.line == 3 })
        XCTAssertTrue(warning.message.hasPrefix("the program stopped here (stop reason = `trace`)"), warning.message)

        let resumed = try read(requests + "\nProcess 28547 resuming\n[model] (code) +[UIImage imageNamed:inBundle:withConfiguration:]: \"main_2\"")
        XCTAssertNil(resumed.summary.stoppedAtEndLine)
        XCTAssertEqual(names(resumed.events), ["main_0", "main_1", nil, "main_2"])
        let continued = try read(requests + "\n[model] (code) +[UIImage imageNamed:inBundle:withConfiguration:]: \"main_2\"")
        XCTAssertNil(continued.summary.stoppedAtEndLine, "a request printed after the stop: the program went on")
        let printStyle = try read("(lldb)  po $arg3\nAppIcon\nProcess 1 stopped\n* thread #1, stop reason = signal SIGSTOP\n")
        XCTAssertNil(printStyle.summary.stoppedAtEndLine, "a by-hand capture may end where its user stopped")
    }

    func testLaunchEndPatternAndMarker() throws {
        let log = """
            (lldb)  po $arg3
            AppIcon
            2024-05-01 12:00:01.000000+0200 Samples[1:2] -[HomeViewController viewDidAppear:]
            (lldb)  po $arg3
            later
            imgtrace-launch-end
            (lldb)  po $arg3
            latest
            """
        let byPattern = try read(log, launchEnd: "viewDidAppear")
        XCTAssertEqual(byPattern.events.map(\.phase), [.launch, .afterLaunch, .afterLaunch])
        XCTAssertEqual(byPattern.summary.launchEnd, LaunchEnd(line: 3, source: .pattern))
        XCTAssertEqual(byPattern.summary.names.first { $0.name == "later" }?.launchCount, 0)
        let byMarker = try read(log)
        XCTAssertEqual(byMarker.events.map(\.phase), [.launch, .launch, .afterLaunch])
        XCTAssertEqual(byMarker.summary.launchEnd?.source, .marker)
        let never = try read("(lldb)  po $arg3\nAppIcon\n", launchEnd: "nothing like this")
        XCTAssertTrue(never.summary.warnings.contains { $0.message.contains("never matched") })
    }

    func testInvalidUTF8IsKeptAndWarned() throws {
        var bytes = Array("(lldb)  p (char *)$arg3\n(char *) $0 = 0x1 \"bad".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("name\"\n".utf8)
        let (events, summary) = try TraceReader.read(bytes)
        XCTAssertEqual(events.first?.name, "bad\u{FFFD}\u{FFFD}name")
        XCTAssertTrue(summary.warnings.contains { $0.message.contains("invalid UTF-8") && $0.line == 2 })
    }

    func testTruncatedLogEndsInsideAHit() throws {
        let log = "(lldb)  p (char *)$arg3\n(char *) $0 = 0x1 \"AppIcon\"\n(lldb)  p (char *)$arg3\n"
        let (events, summary) = try read(log)
        XCTAssertEqual(events.map(\.status), [.ok, .skipped])
        XCTAssertTrue(summary.warnings.contains { $0.message.contains("truncated") && $0.line == 3 })
    }

    func testEmptyLogWarnsWhatWasExpected() throws {
        let (events, summary) = try read("")
        XCTAssertTrue(events.isEmpty)
        XCTAssertEqual(summary.lines, 0)
        XCTAssertTrue(summary.warnings.first?.message.hasPrefix("no image loads found") == true)
    }

    func testTypedCommandsOutsideAStopAreNotLoads() throws {
        let log = """
            (lldb) breakpoint set -n main -o true
            Breakpoint 1: where = App`main, address = 0x1000
            (lldb) run
            Process 1 stopped
            * thread #1, name = 'App', stop reason = one-shot breakpoint 1
            (lldb) p (char *)"not a load"
            (char *) $0 = 0x1 "not a load"
            (lldb) breakpoint set -n "+[UIImage imageNamed:]" -G true -C "p (char *)$arg3"
            Breakpoint 2: where = UIKitCore`+[UIImage imageNamed:], address = 0x2000
            (lldb) continue
            Process 1 resuming
            (lldb)  p (char *)$arg3
            (char *) $1 = 0x2 "AppIcon"
            """
        let (events, _) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon"])
        XCTAssertEqual(events.first?.breakpoint, "2")
        XCTAssertEqual(events.first?.api, "+[UIImage imageNamed:]")
    }

    func testOldLLDBThreadLineAndSecondActionUpgrade() throws {
        // `po` gives only an address, the second action prints the string: the hit keeps the name.
        let log = """
            (lldb) breakpoint set -n "+[UIImage imageNamed:]" -C "po $arg3" -C "p (char *)[$arg3 UTF8String]" -G true
            Breakpoint 1: where = UIKit`+[UIImage imageNamed:], address = 0x1
            (lldb)  po $arg3
            4295000000
            (lldb)  p (char *)[$arg3 UTF8String]
            (char *) $1 = 0x1 "AppIcon"
            (lldb)  po $arg3
            4295000010
            (lldb)  p (char *)[$arg3 UTF8String]
            (char *) $2 = 0x1 "Logo"
            """
        let (events, _) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "Logo"])
        XCTAssertEqual(events.map(\.line), [6, 10])
    }

    func testBacktraceWithoutEchoAttachesToItsHit() throws {
        let log = """
            AppIcon
            * thread #1, queue = 'com.apple.main-thread', stop reason = breakpoint 1.1
              * frame #0: 0x00000001849a1f34 UIKitCore`+[UIImage imageNamed:]
                frame #1: 0x0000000102f3a1c4 Samples`-[HomeViewController viewDidLoad](self=0x000000010b80c600, _cmd="viewDidLoad") at HomeViewController.m:42:5
            Logo
            * thread #1, queue = 'com.apple.main-thread', stop reason = breakpoint 1.1
              * frame #0: 0x00000001849a1f34 UIKitCore`+[UIImage imageNamed:]
            """
        let (events, _) = try read(log)
        XCTAssertEqual(names(events), ["AppIcon", "Logo"])
        XCTAssertEqual(events[0].backtrace.count, 2)
        XCTAssertEqual(events[0].thread, "com.apple.main-thread")
        XCTAssertEqual(events[0].breakpoint, "1.1")
        XCTAssertEqual(events[1].backtrace.count, 1)
    }

    func testSameBytesSameEvents() throws {
        let log = "(lldb)  po $arg3\nAppIcon\n(lldb)  po $arg3\nLogo\n"
        let a = try read(log)
        let b = try read(log)
        XCTAssertEqual(a.events, b.events)
        XCTAssertEqual(a.summary, b.summary)
    }
}
