@testable import LaunchTrace
import XCTest

/// Logs that once trapped the reader, and a property test over random interleavings of every
/// line shape of docs/trace-logs.md.
final class HostileTraceTests: XCTestCase {
    private func read(_ text: String) throws -> (events: [ImageLoad], summary: TraceSummary) {
        try TraceReader.read(Array(text.utf8))
    }

    /// The per-name tallies agree with the events: nothing counted twice, nothing lost.
    private func assertTalliesMatch(_ events: [ImageLoad], _ summary: TraceSummary, file: StaticString = #filePath, line: UInt = #line) {
        var expected: [String: Int] = [:]
        for event in events where event.status == .ok { expected[event.name!, default: 0] += 1 }
        let tallied = Dictionary(uniqueKeysWithValues: summary.names.map { ($0.name, $0.count) })
        XCTAssertEqual(tallied, expected, file: file, line: line)
        XCTAssertEqual(summary.statusCounts[.ok] ?? 0, expected.values.reduce(0, +), file: file, line: line)
        XCTAssertEqual(summary.hits, events.count, file: file, line: line)
    }

    func testAValueInternedThenRejectedDoesNotShiftTheTallies() throws {
        // `AppIcon` is the hit's name; the quoted value after it is interned, then refused as a
        // second value of the same hit. The next new name used to index past the tallies.
        let (events, summary) = try read("(lldb)  po $arg3\nAppIcon\n\"tab_home\"\n(lldb)  po $arg3\nsettings\n")
        XCTAssertEqual(events.map(\.name), ["AppIcon", "settings"])
        assertTalliesMatch(events, summary)
    }

    func testEchoedAndBareValueShapesMixedInOneCapture() throws {
        var text = ""
        for i in 0..<6 {
            text += "(lldb)  po $arg3\nicon_\(i)\n"
            text += "(char *) 0x000060000123 \"bare_\(i)\"\n"
            text += "(lldb)  p (char *)[(id)$arg3 UTF8String]\n(char *) $\(i) = 0x1 \"quoted_\(i)\"\n"
        }
        let (events, summary) = try read(text)
        XCTAssertFalse(events.isEmpty)
        assertTalliesMatch(events, summary)
        for event in events where event.status == .ok {
            XCTAssertTrue(text.contains(event.name!), "\(event.name!) was never printed")
        }
    }

    /// Random logs from every line shape with known names and app noise. Invariants: the reader
    /// never traps, every name it recovers was printed, nothing is counted twice, and a log of
    /// only lossless (quoted) shapes gives back exactly the names in order.
    func testRandomInterleavingsOfEveryShape() throws {
        var generator = SplitMix(seed: 0x16_7ACE)
        let names = [
            "AppIcon", "tab home", "quote\"d", "new\nline", "emoji 😀", "back\\slash", "café", "a",
            "very/long/path/to/image@2x.png", "tab\ttab",
        ]
        for round in 0..<400 {
            var lines: [String] = []
            var printed = Set<String>()
            var lossless: [String] = []
            let onlyLossless = round % 4 == 0
            for _ in 0..<Int.random(in: 1...40, using: &generator) {
                let name = names.randomElement(using: &generator)!
                let shape = onlyLossless ? Int.random(in: 0...3, using: &generator) : Int.random(in: 0...17, using: &generator)
                switch shape {
                case 0: lines += ["(lldb)  p (char *)[(id)$arg3 UTF8String]", "(char *) $1 = 0x00006000 \(quoted(name))"]
                case 1: lines += ["(lldb)  p (const char *)[(id)$arg3 UTF8String]", "(const char *) 0x00006000 \(quoted(name))"]
                case 2: lines += ["2024-05-01 12:00:00.001 [main] +[UIImage imageNamed:]: \(quoted(name))"]
                case 3: lines += ["(lldb)  p (char *)$x2", "(char *) $7 = 0x00006000 \(quoted(name))"]
                case 4: lines += ["(lldb)  po $arg3"] + name.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                case 5: lines += [name.replacingOccurrences(of: "\n", with: " ")]
                case 6: lines += ["$3 = 0x555555556113 \(quoted(name))"]
                case 7: lines += ["0x7fffffffe000:\t\(quoted(name))"]
                case 8: lines += ["(lldb)  po $arg3", "<nil>"]
                case 9: lines += ["(lldb)  po $r2", "error: <user expression 0>:1:1: use of undeclared identifier '$r2'", "$r2", "^~~"]
                case 10: lines += ["warning: hit breakpoint while running function, skipping commands and conditions to prevent recursion"]
                case 11: lines += ["2024-05-01 10:00:00.123 App[123:456] loaded \(name.prefix(3))"]
                case 12:
                    lines += [
                        "* thread #1, queue = 'com.apple.main-thread', stop reason = breakpoint 1.1",
                        "    frame #0: 0x0000000100001000 UIKitCore`+[UIImage imageNamed:]",
                    ]
                case 13: lines += ["Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x1"]
                case 14: lines += ["\u{1B}[31m(lldb)  po $arg3\u{1B}[0m\r", "\(name.replacingOccurrences(of: "\n", with: " "))\r"]
                case 15: lines += ["imgtrace-launch-end"]
                case 16: lines += ["(lldb)  po $arg3", "<object returned empty description>"]
                default: lines += ["\"\(name.prefix(2))"]
                }
                if shape <= 3 { lossless.append(name) }
                for part in name.split(separator: "\n", omittingEmptySubsequences: false) { printed.insert(String(part)) }
                printed.insert(name)
                printed.insert(name.replacingOccurrences(of: "\n", with: " "))
            }
            let text = lines.joined(separator: "\n") + "\n"
            let (events, summary) = try read(text)
            assertTalliesMatch(events, summary)
            // Bare `po` text has no delimiter, so adjacent bare lines may join into one name: each
            // of its lines must have been printed, whole.
            let logLines = Set(lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 })
            for event in events where event.status == .ok {
                let name = event.name!
                let parts = name.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                XCTAssertTrue(
                    printed.contains(name) || parts.allSatisfy { logLines.contains($0) || printed.contains($0) },
                    "round \(round): `\(name)` was never printed")
            }
            if onlyLossless {
                XCTAssertEqual(events.compactMap(\.name), lossless, "round \(round): lossless shapes must recover exactly")
            }
        }
    }

    private func quoted(_ name: String) -> String {
        var out = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// A small seeded generator, so a failing round can be replayed.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
