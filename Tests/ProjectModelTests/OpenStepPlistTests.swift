import ImgtraceSupport
import ProjectModel
import XCTest

/// The OpenStep text reader: every construct Xcode writes, and an offset for each way text breaks.
final class OpenStepPlistTests: XCTestCase {
    func testValuesCommentsAndEscapes() throws {
        let text = """
            // !$*UTF8*$!
            {
            \tkey = value; /* a comment */ quoted = "a \\"b\\" \\n \\U00e9 \\101";
            \tlist = (one, "two words", );
            \tempty = {};
            \tdata = <0aFF 10>;
            \tpath = /Localized/x.strings;
            }
            """
        let value = try OpenStepPlist.parse(Array(text.utf8))
        XCTAssertEqual(
            value,
            .dictionary([
                "key": .string("value"), "quoted": .string("a \"b\" \n é A"), "list": .array([.string("one"), .string("two words")]),
                "empty": .dictionary([:]), "data": .data([0x0A, 0xFF, 0x10]), "path": .string("/Localized/x.strings"),
            ]))
    }

    func testBrokenTextNamesTheOffset() {
        let cases: [(String, Int, String)] = [
            ("{ a = b }", 8, "expected `;` after a dictionary entry, found `}`"),
            ("{ a b; }", 4, "expected `=` after a key, found `b`"),
            ("( a b )", 4, "expected `,` or `)` in an array, found `b`"),
            ("\"open", 0, "string quote never closed"),
            ("/* open", 0, "comment `/*` never closed"),
            ("<0g>", 2, "data holds `g`, not a hex digit"),
            ("<0>", 2, "data has an odd number of hex digits"),
            ("{ (a) = b; }", 2, "a dictionary key must be a string"),
            ("a b", 2, "text after the property list's end"),
            ("", 0, "expected a value, found the end"),
            (String(repeating: "(", count: 200), 128, "nested deeper than 128 levels"),
        ]
        for (text, offset, reason) in cases {
            XCTAssertThrowsError(try OpenStepPlist.parse(Array(text.utf8)), text) { error in
                XCTAssertEqual(error as? FormatError, FormatError(offset: offset, reason: reason), text)
            }
        }
    }
}
