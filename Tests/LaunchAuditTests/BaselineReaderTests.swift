import AuditModel
import AuditPolicy
import AuditRules
import Foundation
import ImgtraceSupport
import LaunchAudit
import UnusedAudit
import XCTest

/// Baselines are read by imgtrace's own small JSON reader (memory about twice the text): it
/// must read what Foundation reads, refuse what is not JSON with the offset, and never recurse
/// without bound.
final class BaselineReaderTests: XCTestCase {
    func testValuesEscapesAndNumbersReadAsFoundationReadsThem() throws {
        let text = #"{"a":[1,-2,3.5e2,true,false,null],"s":"q\"b\\s\/ \b\f\n\r\t é \u00e9 \ud83d\ude00 \ud800x","":{}}"#
        let value = try JSONValue.parse(Array(text.utf8))
        // Foundation refuses the lone surrogate at the end; this reader shows it as U+FFFD.
        let foundation = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(text.replacingOccurrences(of: #" \ud800x"#, with: "").utf8)) as? [String: Any])
        XCTAssertEqual((value["s"]?.string).map { String($0.dropLast(3)) }, foundation["s"] as? String)
        XCTAssertEqual(value["s"]?.string, "q\"b\\s/ \u{8}\u{C}\n\r\t é é 😀 \u{FFFD}x")
        XCTAssertEqual(value["a"]?.array?.compactMap(\.int), [1, -2])
        XCTAssertEqual(value["a"]?.array?.count, 6)
        XCTAssertEqual(value[""], .object([]))
    }

    func testWhatIsNotJSONIsRefusedWithItsOffset() {
        for (text, offset) in [("{\"a\":1,}", 7), ("[1 2]", 3), ("{\"a\" 1}", 5), ("01", 0), ("\"\u{1}\"", 1), ("[1] x", 4), ("\"abc", 4), ("tru", 0)] {
            XCTAssertThrowsError(try JSONValue.parse(Array(text.utf8)), text) { error in
                XCTAssertEqual((error as? FormatError)?.offset, offset, text)
            }
        }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONValue.parse(Array(deep.utf8)), "nesting is bounded, not recursed")
    }

    func testABaselineReadsBackAndAMalformedOneNamesTheFile() throws {
        let text = """
            {
              "schemaVersion": 1,
              "kind": "imgtrace-baseline",
              "device": "iphone-se",
              "launch": {"loads": 3, "names": 2, "images": 2, "decodedBytes": 100, "bytesOnDisk": 10, "missing": 1, "repeated": 1, "unreadable": 0, "largestImageDecodedBytes": 60},
              "findings": [
                {"fingerprint": "0123456789abcdef", "rule": "missing-image", "severity": "error", "message": "`a\\nb` loads nothing"}
              ]
            }
            """
        let baseline = try Baseline.parse(Array(text.utf8), path: "b.json")
        XCTAssertEqual(baseline.device, "iphone-se")
        XCTAssertEqual(baseline.launch.decodedBytes, 100)
        XCTAssertEqual(baseline.findings.map(\.message), ["`a\nb` loads nothing"])
        XCTAssertThrowsError(try Baseline.parse(Array("{\"kind\": ".utf8), path: "b.json")) { error in
            XCTAssertEqual("\(error)", "b.json: offset 9: not an imgtrace baseline: not JSON (a value is missing)")
        }
    }
}
