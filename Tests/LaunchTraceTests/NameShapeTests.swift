import LaunchTrace
import XCTest

/// What apps print beside a `po $arg3` breakpoint's names, by shape: typical output of `print()`,
/// `dump()`, `debugPrint`, Objective-C descriptions and loggers without timestamps, and the
/// names real apps use (asset names, file names, paths, names with blanks or odd case).
final class NameShapeTests: XCTestCase {
    static let names = [
        "AppIcon", "tab_home", "Tab_Profile", "hero_banner.jpg", "logo@2x", "icon-settings", "onboarding_step1@3x.png",
        "Profile Header", "Tab Bar Home", "tab_bar Home", "Images/star", "/private/var/containers/Bundle/Application/X/App.app/a b.png",
        "ic_arrow_back_24dp", "photo_of_the_day", "NSApplicationIcon", "GSArrowCursor", "common_3DArrowRight", "loading", "star",
    ]

    static let appOutput = [
        // Values: numbers, booleans, optionals, collections, tuples, dictionaries, strings.
        "42", "-1", "3.14", "1,024", "true", "false", "YES", "NO", "Optional(\"user_42\")", "Optional(42)", "some(3)", "Optional<String>.none",
        "[\"a\", \"b\"]", "[1, 2, 3]", "[]", "{\"id\": 7}", "(0.0, 0.0)", "(x: 1, y: 2)", "\"quoted\"",
        // Object descriptions and key = value lines.
        "<UIView: 0x7f8b1c40a2b0; frame = (0 0; 390 844); layer = <CALayer: 0x600000>>", "<NSObject: 0x600000c0c000>",
        "count = 3", "state: ready", "error:",
        // dump() markers, URLs, addresses, ellipses.
        "▿ User", "▹ items", "- name: \"Ada\"", "* item", "https://api.example.com/feed", "file:///tmp/a.png", "www.example.com",
        "0x600000c0c000", "Loading...", "Loading feed…",
        // Words with a number among them.
        "fetched 20 items", "page 3 of 10", "retry 1",
        // `print(#function)`, initializers, and loggers without timestamps (level tags, emoji
        // levels, file and line, as CocoaLumberjack, SwiftyBeaver and XCGLogger write them).
        "viewDidLoad()", "tableView(_:cellForRowAt:)", "CGSize(width: 1.0, height: 2.0)", "[DEBUG] started", "[Info] ready",
        "💚 INFO ViewController.viewDidLoad():12 - loaded", "[Debug] [ViewController.swift:23] viewDidLoad() > ready", "DEBUG: tap", "I/flutter: hello",
        "<Warning>: low memory",
    ]

    static let undecided = ["viewDidLoad called", "hero image", "user logged in", "done"]

    func testNamesKeepTheirShape() {
        for name in Self.names { XCTAssertEqual(NameShape.of(name), .name, name) }
    }

    func testTheAppsOutputIsNoName() {
        for line in Self.appOutput { XCTAssertEqual(NameShape.of(line), .output, line) }
    }

    /// Lowercase words are a sentence or a name: not judged. One lowercase word is a name (`done`,
    /// `logo` and `star` ship in apps).
    func testLowercaseWordsAreUndecided() {
        for line in Self.undecided.dropLast() { XCTAssertEqual(NameShape.of(line), .unsure, line) }
        XCTAssertEqual(NameShape.of("done"), .name)
    }

    /// The reader sets sentences and small numbers aside in a console without echoes, counts
    /// them with the first one's line, and marks the names it reads from bare lines;
    /// `namesOnly` takes them all.
    func testTheReaderSetsSentencesAsideAndSaysWhere() throws {
        let log = "AppIcon\nLoading feed...\nHello, world!\n42\nfetched: 20 items\ntab_home\nviewDidLoad called\n"
        let (events, summary) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.map(\.name), ["AppIcon", "tab_home", "viewDidLoad called"])
        XCTAssertTrue(events.allSatisfy(\.fromBareLine))
        XCTAssertEqual(summary.proseLines, 4)
        XCTAssertEqual(summary.firstProseLine, 2)
        let (all, allSummary) = try TraceReader.read(Array(log.utf8), options: TraceOptions(namesOnly: true))
        XCTAssertEqual(all.count, 7)
        XCTAssertEqual(allSummary.proseLines, 0)
        // A quoted value is a printed string, not a bare line of the console.
        let quoted = try TraceReader.read(Array("\"AppIcon\"\n".utf8)).events
        XCTAssertEqual(quoted.map(\.name), ["AppIcon"])
        XCTAssertEqual(quoted.map(\.fromBareLine), [false])
    }
}
