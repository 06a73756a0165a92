import AuditModel
import AuditPolicy
import AuditRules
import CodeReferences
import Foundation
import LaunchAudit
import TestSupport
import UnusedAudit
import XCTest

/// A source file `unused` cannot read whole is never silent: too costly to parse, too large to
/// parse, too large to read, or named in bytes that are not UTF-8 (issue 40).
final class UnusedPartlyReadTests: XCTestCase {
    /// The tree under test: `App/`, its catalog `App/Assets.xcassets`.
    private var tree: TreeWriter!
    private var app: URL { tree.root.appendingPathComponent("App") }

    override func setUp() async throws { tree = try TreeWriter() }
    override func tearDown() async throws { tree.remove() }

    private func imageSet(_ name: String) throws { try tree.imageSet("App/Assets.xcassets", name) }

    /// `unused` on the tree, and its warnings about the sources (the tree has no project, which
    /// another warning says).
    private func unused() throws -> (result: UnusedResult, warnings: [String]) {
        var request = AuditRequest(logs: [], bundles: [app.path])
        request.sourceRoot = app.path
        let result = try AuditSession.unused(request).result
        return (result, result.warnings.filter { $0.origin != .bundle }.map(\.message))
    }

    func testAFileTooCostlyToParseIsReadByTheLexerWithAWarning() throws {
        try imageSet("tab_home")
        try imageSet("hero")
        try imageSet("orphan")
        // 40 nested `[` behind a quote in a block comment: the old guard's one-line strings hid
        // them, and the parser would take hours. Its literal and its asset symbol still count.
        let hostile = "/* \" */\nlet a = Image(.tabHome)\nlet b = \"hero\"\nlet c = U" + String(repeating: "[", count: 40) + "\n"
        try tree.write("App/Deep.swift", Array(hostile.utf8))
        let (result, warnings) = try unused()
        XCTAssertEqual(result.findings.map(\.subject), ["orphan"])
        XCTAssertEqual(warnings, ["`Deep.swift`: too large or too deeply nested to parse: read by a lexer, its string literals and member names count"])
    }

    func testAFileThatIsNotReadLeavesWhatItMightNameNotJudged() throws {
        try imageSet("orphan")
        try tree.write("App/Tabs.swift", Array("let tab = 1\n".utf8))
        // Larger than any source file read: a sparse file costs no disk.
        let big = app.appendingPathComponent("Generated.swift")
        XCTAssertTrue(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(CodeIndex.maxFileBytes + 1))
        try handle.close()
        let (result, warnings) = try unused()
        XCTAssertEqual(warnings.count, 1)
        XCTAssertEqual(warnings.first?.hasPrefix("`Generated.swift`: not read (is 67108865 bytes"), true, "\(warnings)")
        let finding = try XCTUnwrap(result.findings.first)
        XCTAssertEqual(finding.severity, .note, "not judged is not a verdict to fail on")
        XCTAssertTrue(finding.message.text.contains("1 source file could not be read (`Generated.swift`): not judged"), finding.message.text)
    }

    func testANameThatIsNotUTF8IsReadByItsBytes() throws {
        try imageSet("hero")
        try imageSet("orphan")
        let folder = app.path
        // `Caf\xE9.swift`: Latin-1, as an old archive or a Windows share leaves it.
        let name = Array(folder.utf8) + Array("/Caf".utf8) + [0xE9] + Array(".swift".utf8) + [0]
        let source = Array("let hero = UIImage(named: \"hero\")\n".utf8)
        let fd = name.withUnsafeBytes { open($0.baseAddress!.assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT, 0o644) }
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(source.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }, source.count)
        close(fd)
        let index = CodeIndex.scan(root: folder)
        XCTAssertEqual(index.swiftFiles, 1)
        XCTAssertEqual(index.references.first?.file, "Caf\u{FFFD}.swift")
        XCTAssertEqual(try unused().result.findings.map(\.subject), ["orphan"])
    }

    func testAFileTooLargeToParseKeepsItsSymbolsAndLiterals() throws {
        var source = "let a = Image(.tabHome)\nlet b = \"hero\"\n"
        let filler = "let x = 1 // padding a generated file\n"
        source += String(repeating: filler, count: CodeIndex.maxParsedBytes / filler.utf8.count + 1)
        try tree.write("App/R.generated.swift", Array(source.utf8))
        let index = CodeIndex.scan(root: app.path)
        XCTAssertEqual(index.partlyRead.map(\.file), ["R.generated.swift"])
        XCTAssertEqual(index.partlyRead.map(\.reason), [.readWithoutSyntaxTree])
        XCTAssertEqual(index.references.map(\.name), ["tabHome", "hero"])
        XCTAssertEqual(index.references.map(\.kind), [.symbol, .weak])
        XCTAssertEqual(index.references.map(\.line), [1, 2])
    }
}
