import Foundation
import ImgtraceSupport
import XCTest

/// The JSON writer keeps its bytes in a buffer of its own: numbers written digit by digit, keys
/// of fixed layouts as given, and a copy of a writer that keeps its own bytes.
final class JSONTextTests: XCTestCase {
    func testIntegersAtTheirLimitsAreTheirDecimalText() throws {
        let values = [0, 7, 9, 10, -1, -10, 1_234_567_890, Int.max, Int.min, Int.min + 1]
        var w = JSONText()
        w.beginArray()
        for value in values { w.int(value) }
        w.int(nil)
        w.endArray()
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), "[" + values.map(String.init).joined(separator: ",") + ",null]")
    }

    func testRawFieldsAreTheSameDocumentAsKeyedFields() throws {
        var keyed = JSONText()
        keyed.beginObject()
        keyed.field("seq", 3)
        keyed.field("name", "a\"b\\c\n\u{1}é")
        keyed.field("detail", nil as String?)
        keyed.field("frames", strings: ["x", "y"])
        keyed.endObject()
        var raw = JSONText()
        raw.beginObject()
        raw.rawKey("\"seq\":")
        raw.rawInt(3)
        raw.rawKey("\"name\":")
        raw.rawString("a\"b\\c\n\u{1}é")
        raw.rawKey("\"detail\":")
        raw.rawString(nil)
        raw.rawKey("\"frames\":")
        raw.rawStrings(["x", "y"])
        raw.endObject()
        XCTAssertEqual(raw.bytes, keyed.bytes)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(raw.bytes)) as? [String: Any])
        XCTAssertEqual(object["name"] as? String, "a\"b\\c\n\u{1}é")
    }

    func testACopyKeepsItsOwnBytes() {
        var first = JSONText()
        first.beginArray()
        first.string("shared")
        var second = first
        second.string("only in the copy")
        first.int(1)
        first.endArray()
        second.endArray()
        XCTAssertEqual(String(decoding: first.bytes, as: UTF8.self), #"["shared",1]"#)
        XCTAssertEqual(String(decoding: second.bytes, as: UTF8.self), #"["shared","only in the copy"]"#)
    }

    func testLongDocumentsGrowAndTakeBytesEmptiesTheBuffer() {
        var w = JSONText()
        w.beginArray()
        let name = String(repeating: "n", count: 1000)
        for _ in 0..<300 { w.string(name) }
        XCTAssertEqual(w.byteCount, 1 + 300 * 1002 + 299)
        let taken = w.takeBytes()
        XCTAssertEqual(taken.count, 1 + 300 * 1002 + 299)
        XCTAssertEqual(w.byteCount, 0)
        w.string("after")
        w.endArray()
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), #","after"]"#)
    }
}
