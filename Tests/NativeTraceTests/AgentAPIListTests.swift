import NativeTrace
import XCTest

/// The agent's API list is written and read by one type on imgtrace's side, from the words the
/// agent's C reads (the layout header): what `record --agent` and `agent-path` write is what
/// `agent-log` reads back from a file, target for target.
final class AgentAPIListTests: XCTestCase {
    func testEveryKindOfTargetReadsBackAsWritten() {
        let list = AgentAPIList([
            .method("+[UIImage imageNamed:]"), .symbol("image_named", argument: 3), .context("-[UINibDecoder decodeObjectForKey:]"),
            .decode("-[NSImage _loadFromFile:]"), .launchEnd("-[NSApplication finishLaunching]"),
        ])
        XCTAssertEqual(
            list.text(),
            "objc +[UIImage imageNamed:]\nsymbol image_named 3\ncontext -[UINibDecoder decodeObjectForKey:]\ndecode -[NSImage _loadFromFile:]\nend -[NSApplication finishLaunching]"
        )
        XCTAssertEqual(AgentAPIList.parse(list.text()[...]), list)
        // An Xcode scheme's variable is one line: `;` separates the targets there.
        XCTAssertEqual(AgentAPIList.parse(list.text(separator: ";")[...]), list)
        XCTAssertEqual(
            list.entries.map(\.apiName),
            ["+[UIImage imageNamed:]", "image_named", "-[UINibDecoder decodeObjectForKey:]", "-[NSImage _loadFromFile:]", "-[NSApplication finishLaunching]"])
    }

    func testLinesTheAgentWouldSkipAreSkipped() {
        let parsed = AgentAPIList.parse("objc\nfoo -[A b:]\n\nobjc -[A b:];symbol f\nsymbol g 7\nobjc A b\nend -[]\nsymbol h 2\n"[...])
        XCTAssertEqual(parsed.entries, [.method("-[A b:]"), .symbol("h", argument: 2)])
        XCTAssertEqual(AgentAPIList.limit, 32)
    }
}
