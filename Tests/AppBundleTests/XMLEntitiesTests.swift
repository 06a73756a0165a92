import AppBundle
import ImgtraceSupport
import XCTest

/// The one decoder of XML character references, used by the interface-file reader (lenient)
/// and the plist reader of `--source-root` (strict).
final class XMLEntitiesTests: XCTestCase {
    func testNamedAndNumericReferencesDecode() {
        XCTAssertEqual(XMLEntities.decoded("tab &amp; bar", strict: true), "tab & bar")
        XCTAssertEqual(XMLEntities.decoded("&lt;&gt;&quot;&apos;", strict: true), "<>\"'")
        XCTAssertEqual(XMLEntities.decoded("&#x6E;ew &#X41; &#233;t&#233;", strict: true), "new A été")
        XCTAssertEqual(XMLEntities.decoded("plain", strict: true), "plain")
    }

    func testAnUnknownOrMalformedReferenceIsNilWhenStrictAndKeptWhenLenient() {
        // Each holds an `&` XML does not accept: an HTML-only name, no `;`, a sign, an empty
        // number, NUL, a scalar beyond Unicode, a surrogate.
        let malformed = ["caf&eacute;", "R&D", "&#+65;", "&#;", "&#0;", "&#x110000;", "&#xD800;", "&#x;"]
        for text in malformed {
            XCTAssertNil(XMLEntities.decoded(text, strict: true), text)
            XCTAssertEqual(XMLEntities.decoded(text, strict: false), text, "lenient keeps it as written")
        }
    }

    func testLenientDecodingGoesOnAfterAStrayAmpersand() {
        // A bare `&` early in a value must not stop the references after it from decoding,
        // even when a `;` far later could be mistaken for its end.
        XCTAssertEqual(XMLEntities.decoded("R&D &amp; QA", strict: false), "R&D & QA")
        XCTAssertEqual(XMLEntities.decoded("a & b; c &lt; d", strict: false), "a & b; c < d")
    }

    func testInterfaceImageAttributesAreDecodedOnce() throws {
        // `&amp;lt;` is the text `&lt;`, not `<`: decoding happens exactly once.
        let xib = #"<imageView image="a&amp;lt;b"/><button><state image="x &amp; y"/></button>"#
        let names = SourceText.imageAttributes(inInterface: Array(xib.utf8)).map(\.name)
        XCTAssertEqual(names, ["a&lt;b", "x & y"])
    }
}
