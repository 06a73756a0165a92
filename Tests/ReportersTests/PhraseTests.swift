import AuditModel
import ImgtraceSupport
import XCTest

@testable import Reporters

/// A finding's sentences are data: words apart from the names they quote. Text reports write the
/// names between backticks, Markdown as code spans, HTML as `<code>`, each from the parts, so a
/// name is one quoted part whatever it holds.
final class PhraseTests: XCTestCase {
    func testBackticksOfALiteralMarkItsQuotedParts() {
        let phrase: Phrase = "run `imgtrace rules` to list them"
        XCTAssertEqual(phrase.parts, [.words("run "), .code("imgtrace rules"), .words(" to list them")])
        XCTAssertEqual(phrase.text, "run `imgtrace rules` to list them")
    }

    func testAnInterpolatedValueIsDataNeverMarkup() {
        let name = "a`b"
        let quoted: Phrase = "\(code: name) loads nothing"
        XCTAssertEqual(quoted.parts, [.code("a\\u{60}b"), .words(" loads nothing")], "one quoted part, shown with its backtick escaped")
        XCTAssertEqual(quoted.text, "`a\\u{60}b` loads nothing", "its own backtick escaped, so the quotes still pair")
        // Inside a span the literal opened, the value joins the quoted part.
        let call: Phrase = "load it by name (`UIImage(named: \"\(name)\")`)"
        XCTAssertEqual(call.parts, [.words("load it by name ("), .code("UIImage(named: \"a\\u{60}b\")"), .words(")")])
        // Outside one, it is words: a backtick in them quotes nothing.
        let words: Phrase = "printed \(name)"
        XCTAssertEqual(words.parts, [.words("printed a`b")])
    }

    func testWordsStayOneRunSoAWordIsNeverSplit() {
        let scale = 3
        let phrase: Phrase = "only @\(scale)x exists" + " in \(code: "Assets.car")"
        XCTAssertEqual(phrase.parts, [.words("only @3x exists in "), .code("Assets.car")])
        XCTAssertEqual(Phrase.joined(["\(code: "a")", "\(code: "b")"], separator: ", ").parts, [.code("a"), .words(", "), .code("b")])
    }

    func testMarkedTextPairsItsBackticksOrIsWords() {
        XCTAssertEqual(Phrase(marked: "line 3: `tab` is odd").parts, [.words("line 3: "), .code("tab"), .words(" is odd")])
        XCTAssertEqual(Phrase(marked: "a ` lone backtick").parts, [.words("a ` lone backtick")])
        XCTAssertEqual(Phrase(marked: "").parts, [])
    }

    /// The name is a hostile one: a backtick, markup and a control character. Each format shows it
    /// as one quoted part, escaped its own way; before, a backtick in a fix's name paired wrongly.
    func testEachFormatQuotesANameAsOnePart() {
        let fix = FixKind.loadByName(name: "x`<b>\n", deviceScale: 3).phrase
        XCTAssertEqual(fix.text, "Load it by name (`UIImage(named: \"x\\u{60}<b>\\n\")`), so UIKit picks the @3x variant.")
        XCTAssertEqual(
            HTMLReporter.prose(fix),
            "Load it by name (<code>UIImage(named: &quot;x\\u{60}&lt;b&gt;\\n&quot;)</code>), so UIKit picks the @3x variant.")
        // Markdown's words escaped, and a word a renderer would read as a mention put in a span.
        XCTAssertEqual(MarkdownText.sentence(fix), "Load it by name (`UIImage(named: \"x\\u{60}<b>\\n\")`), so UIKit picks the `@3x` variant.")
    }

    func testMarkdownShowsAWarningsLoneBacktickAsAWord() {
        // Before, an unpaired backtick in a warning (text a log printed) made the rest of the line
        // a code span in Markdown, while HTML showed it as words; now both show words.
        XCTAssertEqual(MarkdownText.sentence("a ` lone mark", inTable: false), "a \\` lone mark")
        XCTAssertEqual(HTMLReporter.prose("a ` lone mark"), "a ` lone mark")
    }

    func testAPageKeepsBothEndsOfAnOverlongSentence() {
        let long = String(repeating: "n", count: 10_000)
        let html = HTMLReporter.prose("\(code: long) loads nothing")
        XCTAssertLessThan(html.utf8.count, HTMLReporter.maxShownCharacters + 200)
        XCTAssertTrue(html.hasPrefix("<code>nnn"), html.prefix(40).description)
        XCTAssertTrue(html.hasSuffix("</code> loads nothing"), html.suffix(40).description)
    }
}
