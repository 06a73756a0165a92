@testable import CodeReferences
import Foundation
import SwiftParser
import SwiftSyntax
import XCTest

/// What the Swift reader does without swift-syntax's help must agree with swift-syntax: line
/// and column from its own table, and the files it parses without lexing them first.
final class ParseShortcutsTests: XCTestCase {
    /// Every token's line and column, from the table built over the bytes and from
    /// `SourceLocationConverter`, on every line ending Swift has and on text that is not ASCII.
    private func assertLinesAgree(_ source: String, _ name: String, file: StaticString = #filePath, line: UInt = #line) {
        let tree = Parser.parse(source: source)
        let converter = SourceLocationConverter(fileName: name, tree: tree)
        var text = source
        let lines = text.withUTF8 { LineStarts($0) }
        var tokens = 0
        for token in tree.tokens(viewMode: .sourceAccurate) {
            let position = token.positionAfterSkippingLeadingTrivia
            let expected = converter.location(for: position)
            let found = lines.location(of: position)
            XCTAssertEqual(found.line, expected.line, "\(name): \(token.text)", file: file, line: line)
            XCTAssertEqual(found.column, expected.column, "\(name): \(token.text)", file: file, line: line)
            tokens += 1
        }
        XCTAssertGreaterThan(tokens, 0, name, file: file, line: line)
    }

    func testLineAndColumnAgreeWithSwiftSyntax() {
        assertLinesAgree("let a = UIImage(named: \"tab\")\nlet b = 1", "newlines")
        assertLinesAgree("let a = 1\r\nlet b = \"é\"\r\n\r\nlet c = .logo", "CRLF")
        assertLinesAgree("let a = 1\rlet b = 2\r\rlet c = Image(\"x\")", "CR")
        assertLinesAgree("let s = \"\"\"\n  naïve \\(x)\r\n  line\n  \"\"\"\nlet 名前 = \"🎉\"; let t = .tab", "multi-line string, non-ASCII")
        assertLinesAgree("\n\n// comment\n/* block\n comment */ let a = [1,\n 2]\n", "comments and trivia")
    }

    func testLineAndColumnAgreeOnRealSwift() throws {
        let root = "../shared/corpus/sources/home-assistant-ios/Sources/App"
        guard FileManager.default.fileExists(atPath: root) else { throw XCTSkip("corpus absent: ../shared/corpus/sources/home-assistant-ios") }
        var read = 0
        for case let path as String in FileManager.default.enumerator(atPath: root)! where path.hasSuffix(".swift") && read < 25 {
            assertLinesAgree(try String(contentsOfFile: root + "/" + path, encoding: .utf8), path)
            read += 1
        }
        XCTAssertEqual(read, 25)
    }

    /// The bound is the budget's: as many `[` as fit in it nested one in another are under it,
    /// one more is over, by the estimate itself.
    func testFilesWithFewBracketsCannotReachTheBudget() {
        let most = SwiftParseCost.unlexedBrackets
        XCTAssertEqual(most, 15)
        for (count, cheap) in [(most, true), (most + 1, false)] {
            var source = "let b = U" + String(repeating: "[", count: count)
            XCTAssertEqual(source.withUTF8 { SwiftParseCost.estimate($0) <= SwiftParseCost.budget }, cheap, "\(count) nested")
            XCTAssertEqual(source.withUTF8 { SwiftParseCost.isCheapByBrackets($0) }, cheap, "\(count) nested")
        }
        // Every `[` byte counts, in strings and comments too: the parser's recovery may read them as code.
        var hidden = "let s = \"" + String(repeating: "[", count: most) + "\" // ["
        XCTAssertFalse(hidden.withUTF8 { SwiftParseCost.isCheapByBrackets($0) })
    }

    /// Swift that is not valid but has few `[` is parsed (swift-syntax recovers); with many, it
    /// is read by the lexers alone, as before.
    func testInvalidSwiftWithFewBracketsIsParsed() {
        let source = "let c = '\")\" [[ )'\nlet a = UIImage(named: \"tab\")"
        let start = Date()
        let read = SwiftReferences.read(source, file: "A.swift")
        XCTAssertLessThan(Date().timeIntervalSince(start), 5, "a guard against hanging, not a timing test")
        XCTAssertTrue(read.parsed)
        XCTAssertEqual(read.references.first { $0.name == "tab" }?.kind, .named)
        let deep = "let c = '\")\"" + String(repeating: "[", count: 18) + ")'\nlet a = UIImage(named: \"tab\")"
        XCTAssertFalse(SwiftReferences.read(deep, file: "B.swift").parsed)
    }
}
