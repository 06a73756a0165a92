import XCTest

@testable import LaunchTrace

/// The dialect seam: every console line is owned by the first dialect (of `LineDialects.all`)
/// that recognises it, asked only about the first bytes it declares.
final class LineDialectTests: XCTestCase {
    private func recognise(_ text: String) -> (meaning: String, evidence: DebuggerKind?)? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            let line = ByteLine(base: UnsafePointer(buffer.baseAddress!), count: buffer.count)
            return LineDialects.recognise(line, table: LineDialects.byFirstByte).map { ("\($0.meaning)", $0.evidence) }
        }
    }

    /// A line each dialect owns, and what it must be read as.
    private let owned: [(dialect: any LineDialect.Type, line: String, meaning: String)] = [
        (CaptureDialect.self, #"[main] (code) +[UIImage imageNamed:]: "AppIcon""#, "callback"),
        (CaptureDialect.self, "imgtrace-covered 3", "covered(3)"),
        (CaptureDialect.self, "imgtrace-launch-end", "launchMarker"),
        (ConsoleDialect.self, #""AppIcon""#, "value"),
        (ConsoleDialect.self, "2024-05-01 12:00:06.000006+0200 Samples[1234:56789] hello", "timestamp"),
        (ConsoleDialect.self, #"2026-11-22 20:41:07.123 [main] +[NSImage imageNamed:]: "x""#, "callback"),
        (ConsoleDialect.self, "0x0000000000000000", "number"),
        (LLDBDialect.self, "(lldb)  po $arg3", "echo"),
        (LLDBDialect.self, #"(char *) $1 = 0x0000000100000001 "AppIcon""#, "typedValue"),
        (LLDBDialect.self, "Process 4242 stopped", "process(LaunchTrace.ProcessEvent.stopped)"),
        (LLDBDialect.self, "* thread #1, queue = 'com.apple.main-thread', stop reason = breakpoint 1.1", "threadLine"),
        (LLDBDialect.self, "Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x1", "lldbBreakpoint"),
        (LLDBDialect.self, "1 location added to breakpoint 2", "resolved"),
        (GDBDialect.self, "(gdb) continue", "echo"),
        (GDBDialect.self, "$1 = 0x555555556113 \"AppIcon\"", "gdbValue"),
        (GDBDialect.self, "Breakpoint 1, +[NSImage imageNamed:] (self=0x1) at x.m:3", "gdbStop"),
        (GDBDialect.self, "Breakpoint 7 something else", "ignored"),
        (GDBDialect.self, "#1  0x00007ffff7a05a5c in main ()", "frame"),
        (GDBDialect.self, "12\tint x = 0;", "ignored"),
        (FrameVariableDialect.self, #"(NSString *) name = 0x0000600000c0c120 @"AppIcon""#, "value"),
        (FrameVariableDialect.self, "(const char *) name = 0x0000000100003f7e \"tab_home\"", "value"),
    ]

    func testEachLineIsReadByTheDialectThatOwnsItAndItsFirstByteIsDeclared() throws {
        for (dialect, text, meaning) in owned {
            XCTAssertTrue(dialect.firstBytes.contains(text.utf8.first!), "\(dialect) does not declare the first byte of \(text)")
            let read = try XCTUnwrap(recognise(text), text)
            XCTAssertTrue(read.meaning.hasPrefix(meaning) || read.meaning.contains(meaning), "\(text): \(read.meaning)")
            var bytes = Array(text.utf8)
            let own = bytes.withUnsafeMutableBufferPointer { buffer in
                dialect.recognise(ByteLine(base: UnsafePointer(buffer.baseAddress!), count: buffer.count)).map { "\($0.meaning)" }
            }
            XCTAssertEqual(own, read.meaning, "\(text) is read by another dialect than \(dialect)")
        }
        XCTAssertNil(recognise("UIKitCore`+[UIImage imageNamed:]:"), "bare text")
    }

    /// The static dispatch (`recognise(_:place:)`) asks the dialect at each place of `all`.
    func testThePlacesOfTheStaticDispatchFollowTheList() throws {
        for (place, dialect) in LineDialects.all.enumerated() {
            for (owner, text, _) in owned where owner == dialect {
                var bytes = Array(text.utf8)
                let (byPlace, byType) = bytes.withUnsafeMutableBufferPointer { buffer in
                    let line = ByteLine(base: UnsafePointer(buffer.baseAddress!), count: buffer.count)
                    return (LineDialects.recognise(line, place: place).map { "\($0.meaning)" }, dialect.recognise(line).map { "\($0.meaning)" })
                }
                XCTAssertNotNil(byType, text)
                XCTAssertEqual(byPlace, byType, "place \(place) is not \(dialect)")
            }
        }
    }

    /// Detection is which dialect matched: distinctive lines are evidence of their debugger.
    func testEvidenceComesFromTheDialectThatMatched() {
        XCTAssertEqual(recognise("(lldb)  po $arg3")?.evidence, .lldb)
        XCTAssertEqual(recognise("(gdb) bt")?.evidence, .gdb)
        XCTAssertEqual(recognise("[Switching to Thread 0x7ffff44166c0 (LWP 21504)]")?.evidence, .gdb)
        XCTAssertNil(recognise(#""AppIcon""#)?.evidence, "a quoted value could be any debugger's")
    }

    /// The dialect added with the seam: a `frame variable name` action reads like any other capture.
    func testFrameVariableOutputOfTheNameArgumentIsACapture() throws {
        let log = """
            (lldb) breakpoint set -n "+[UIImage imageNamed:]" -G true -C "frame variable name"
            Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x00000001849a1f34
            (lldb)  frame variable name
            (NSString *) name = 0x0000600000c0c120 @"AppIcon"
            (lldb)  frame variable name
            (NSString *) name = nil
            (lldb)  v name
            (NSString *) name = 0x0000600000c0c2a0 @"tab_home"

            """
        let (events, summary) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.map(\.name), ["AppIcon", nil, "tab_home"])
        XCTAssertEqual(events.map(\.status), [.ok, .nil, .ok])
        XCTAssertEqual(events.map(\.api), Array(repeating: "+[UIImage imageNamed:]", count: 3))
        XCTAssertEqual(summary.debugger, .lldb)
    }

    /// A bare `frame variable` prints `self` and `_cmd` before the name: neither is ever the name,
    /// and a hit whose name lldb could not read stays unreadable, whatever `_cmd` holds.
    func testFrameVariableNeverTakesTheSelectorOrTheClassForTheName() throws {
        let log = #"""
            (lldb) breakpoint set -n "+[UIImage imageNamed:]" -G true -C "frame variable"
            Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x00000001849a1f34
            (lldb)  frame variable
            (Class) self = UIImage
            (SEL) _cmd = "imageNamed:"
            (NSString *) name = 0x0000600000c0c120 @"AppIcon"
            (lldb)  frame variable
            (Class) self = UIImage
            (SEL) _cmd = "\U0000007f"
            (NSString *) name = <variable not available>
            (lldb)  frame variable
            (UIImage *) self = 0x0000600000c0c000
            (SEL) _cmd = "imageNamed:"
            (NSString *) name = 0x0000600000c0c2a0 @"tab_home"

            """#
        let (events, summary) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.map(\.name), ["AppIcon", nil, "tab_home"])
        XCTAssertEqual(events.map(\.status), [.ok, .error, .ok])
        XCTAssertEqual(summary.statusCounts[.ok], 2)
    }

    /// A print command echoed without its prompt is the command, never a name (it was read as a
    /// load of `p (char *)$arg3`); a bare name without `$` still is one.
    func testACommandEchoWithoutAPromptIsNoName() throws {
        let log = #"""
            p (char *)$arg3
            (char *) $0 = 0x0000000100003f20 "AppIcon"
            po $x2
            tab_home
            expr -- (const char *)[(id)$rdx UTF8String]
            (const char *) $1 = 0x0000000100003f40 "hero"
            x/s $rsi
            0x0000000100003f60: "banner"
            print_button

            """#
        let (events, _) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.compactMap(\.name), ["AppIcon", "tab_home", "hero", "banner", "print_button"])
    }

    /// A timed request (`record --agent`) carries its duration after the name; a name that
    /// itself ends like a duration, an untimed line and other captures read as before.
    func testATimedRequestKeepsItsDurationAndOnlyItsOwn() throws {
        let log = #"""
            2026-11-26 10:05:11.184 [prog] (code) +[UIImage imageNamed:]: "hero" 20.257 ms
            2026-11-26 10:05:11.185 [prog] (code) +[UIImage imageNamed:]: "x 1.000 ms"
            2026-11-26 10:05:11.186 [prog 4242] (nib) +[UIImage imageNamed:]: None 0.004 ms
            2026-11-26 10:05:11.187 [prog] (code) +[UIImage imageNamed:]: <unread: no readable string at 0x0000000000000010> 1.500 ms
            2026-11-26 10:05:11.188 [prog] (code) +[UIImage imageNamed:]: "tab" 12 ms
            [prog] (code) +[UIImage imageNamed:]: "star"
            2026-11-26 10:05:11.189 [prog] (code) +[UIImage imageNamed:]: "nest" 5.000 ms, 0.200 ms own
            2026-11-26 10:05:11.190 [prog] (code) +[UIImage imageNamed:]: "odd, 0.200 ms own"

            """#
        let (events, _) = try TraceReader.read(Array(log.utf8))
        // A duration written as a whole number is no duration of ours: that line is no request.
        XCTAssertEqual(events.map { $0.name ?? "-" }, ["hero", "x 1.000 ms", "-", "-", "star", "nest", "odd, 0.200 ms own"])
        XCTAssertEqual(events.map(\.microseconds), [20_257, nil, 4, 1_500, nil, 5_000, nil])
        XCTAssertEqual(events.map(\.ownMicroseconds), [nil, nil, nil, nil, nil, 200, nil])
        XCTAssertEqual(events.map(\.status), [.ok, .ok, .nil, .error, .ok, .ok, .ok])
        XCTAssertEqual(events.map(\.isOnMainThread), [true, true, false, true, true, true, true])
    }

    /// Hex digits eight at a time agree with one at a time on every byte pattern nearby.
    func testHexLiteralsWordAtATime() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let alphabet = Array("0123456789abcdefABCDEFgG:@`/ \"x".utf8)
        for _ in 0..<4000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let length = Int(state >> 58)
            var text: [UInt8] = Array("0x".utf8)
            for k in 0..<length { text.append(alphabet[Int((state >> UInt64(k % 50)) & 31) % alphabet.count]) }
            text.withUnsafeBufferPointer { buffer in
                let line = ByteLine(base: buffer.baseAddress!, count: buffer.count)
                var i = 2
                while i < text.count, isHexDigit(text[i]) { i += 1 }
                XCTAssertEqual(line.hexLiteral(at: 0), i > 2 ? i : 0, String(decoding: text, as: UTF8.self))
            }
        }
    }
}
