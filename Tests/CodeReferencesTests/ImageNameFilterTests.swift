@testable import CodeReferences
import Foundation
import XCTest

/// The filter `unused` reads Swift through: a piece it turns away holds no reference to the
/// images it was given, and the parts between members parse to what the whole piece gives.
final class ImageNameFilterTests: XCTestCase {
    /// A filter for names given as the judgement spells them: lower-cased, with and without an
    /// image suffix; symbol keys as `AssetSymbol` makes them; a pattern fits a spelling by `fnmatch`.
    private func filter(_ names: [String]) -> ImageNameFilter {
        var spellings = Set<String>()
        for name in names {
            let lowered = name.lowercased()
            spellings.insert(lowered)
            if let dot = lowered.lastIndex(of: ".") { spellings.insert(String(lowered[..<dot])) }
        }
        let keys = names.map { AssetSymbol.key(AssetSymbol.symbol(for: $0)) }
        let spelled = spellings
        return ImageNameFilter(spellings: spellings, symbolKeys: keys) { pattern in
            spelled.contains { fnmatch(pattern.lowercased(), $0, 0) == 0 }
        }
    }

    private func mayName(_ source: String, _ names: [String], file: StaticString = #filePath, line: UInt = #line) -> Bool {
        var text = source
        return text.withUTF8 { filter(names).mayName($0) }
    }

    func testLiteralsAreFoundBetweenTheirQuotesOnly() {
        XCTAssertTrue(mayName(#"let a = UIImage(named: "tab")"#, ["tab"]))
        XCTAssertTrue(mayName(#"let a = "TAB@2x.png""#, ["tab"]), "scale and extension stripped, any case")
        XCTAssertTrue(mayName(#"let a = "icons/tab~ipad""#, ["tab"]), "a path's last part")
        XCTAssertTrue(mayName(##"let a = #"tab"#"##, ["tab"]), "a raw string")
        XCTAssertTrue(mayName(#"let a = "tab_bar""#, ["tab_bar"]))
        XCTAssertFalse(mayName(#"let a = "stable"; let b = "tabs""#, ["tab"]), "inside a longer word")
        XCTAssertFalse(mayName("// the tabbed view\nlet a = \"stab\"", ["tab"]))
        // A whole word anywhere may be an identifier: a comment's too (bytes do not tell).
        XCTAssertTrue(mayName("// the tab image\nlet a = 1", ["tab"]))
    }

    func testSymbolsAreFoundAsWholeIdentifiers() {
        XCTAssertTrue(mayName("let a = Image(.tabHome)", ["tab-home"]))
        XCTAssertTrue(mayName("let a = Asset.tab_home.image", ["tab home"]), "`_` is dropped from an identifier's key")
        XCTAssertTrue(mayName("let a = R.image.`tabHome`", ["tab-home"]), "backticks")
        XCTAssertTrue(mayName("let a = .`tab home`", ["tab-home"]), "a raw identifier holds spaces")
        XCTAssertTrue(mayName("let a = x.tab\u{00AD}home", ["tab-home"]), "a character the key drops, inside an identifier")
        XCTAssertTrue(mayName("let a = tab×home", ["tab-home"]), "or an operator between two: both are tried")
        XCTAssertTrue(mayName("let a = x×home", ["home"]))
        XCTAssertFalse(mayName("let a = tabHomeScreen; let b = myTabHome", ["tab-home"]))
    }

    func testNamesBuiltAtRunTimeAreTriedAsPatterns() {
        XCTAssertTrue(mayName(#"let a = UIImage(named: "flag_\(code)")"#, ["flag_fr"]))
        XCTAssertFalse(mayName(#"let a = "error: \(code)""#, ["flag_fr"]), "a pattern that fits no name")
        XCTAssertTrue(mayName(#"let a = "flag_" + code"#, ["flag_fr"]))
        XCTAssertTrue(mayName(#"let a = code + "_dark""#, ["moon_dark"]))
        XCTAssertTrue(mayName(##"let a = code + #"_dark"#"##, ["moon_dark"]), "a raw string after `+`")
        XCTAssertTrue(mayName(#"let a = "moon_da" + "rk@2x.png""#, ["moon_dark"]), "two literals joined, the suffix across them")
        XCTAssertTrue(mayName(#"let a = "ic" + "on.png""#, ["icon"]))
        XCTAssertFalse(mayName(#"let a = "Error: " + message"#, ["flag_fr"]))
        XCTAssertTrue(mayName(#"let a = String(format: "step%d", n)"#, ["step2"]))
        XCTAssertTrue(mayName(#"let a = "\(a ? "on" : "off")_flag_\(b)""#, ["off_flag_x"]), "literals inside an interpolation")
    }

    func testWhatBytesCannotTellIsParsed() {
        XCTAssertTrue(mayName("let a = \"\"\"\n  tab\n  \"\"\"", ["tab"]))
        XCTAssertTrue(mayName("let a = \"\"\"\n  x\n  \"\"\"", ["tab"]), "a multi-line string")
        XCTAssertTrue(mayName("let a = \"\u{212A}ey\"", ["tab"]), "the Kelvin sign lower-cases to `k`")
        XCTAssertTrue(mayName("let a = 'tab'", ["tab"]), "a string Swift does not have, which the parser recovers")
        XCTAssertTrue(mayName("let a = \"tab\nlet b = 1", ["tab"]), "a string left open")
        XCTAssertTrue(mayName("let a = 'x' + b", ["tab"]), "the lexer's error")
        // `@` where an expression starts: the parser reads the identifiers after it as a string.
        XCTAssertTrue(mayName("let a = -@ tab\u{0}bar, 1", ["tabbar"]))
        XCTAssertTrue(mayName("f(@ icon)", ["icon"]))
        XCTAssertFalse(mayName("@MainActor final class A {}", ["icon"]))
        XCTAssertTrue(mayName("let a = 1", ["日本"]), "a name that is not ASCII turns the filter off")
        XCTAssertFalse(mayName("let a = 1", ["tab"]))
    }

    /// The parts between members give what the whole piece gives, line and column included.
    func testMembersParseAsInTheWholePiece() {
        let source = """
            import UIKit

            @MainActor
            final class Tabs: NSObject {
                @IBOutlet weak var icon: UIImageView!
                static let home = UIImage(named: "tab_home")
                static let flags = ["fr", "de"].map { UIImage(named: "flag_\\($0)") }
                var style: Style = .dark

                @available(iOS 13,
                           *)
                func load() {
                    icon.image = UIImage(named: "a" + suffix)
                }
                case one, two
            #if os(iOS)
                let pad = Image(.padIcon)
            #endif
                private var x = y
                    .z
            }

            enum Assets { case logo; static let name = "logo" }
            struct Empty {}
            """
        var text = source
        let (cuts, whole, members) = text.withUTF8 { bytes in
            (
                SwiftMembers.cuts(bytes), SwiftReferences.parseMembers(bytes, firstLine: 1, file: "T.swift", only: nil, cutting: false),
                SwiftReferences.parseMembers(bytes, firstLine: 1, file: "T.swift", only: nil)
            )
        }
        XCTAssertGreaterThanOrEqual(cuts.count, 5)
        XCTAssertEqual(members, whole)
        XCTAssertTrue(whole.contains { $0.name == "tab_home" && $0.line == 6 && $0.kind == .named })
        // `.z` continues the line before it: no cut before it, so it keeps its qualifier.
        XCTAssertTrue(whole.contains { $0.name == "z" && $0.qualifier == "y" })
    }

    func testMembersParseAsInTheWholePieceOnRealSwift() throws {
        let root = "../shared/corpus/sources/home-assistant-ios/Sources"
        guard FileManager.default.fileExists(atPath: root) else { throw XCTSkip("corpus absent: ../shared/corpus/sources/home-assistant-ios") }
        var cuts = 0
        var files = 0
        let paths = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        // Every eighth file, about 200: the debug build parses each twice.
        for path in paths.enumerated().filter({ $0.offset % 8 == 0 }).map(\.element) {
            var text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            guard text.utf8.count <= 64 << 10 else { continue }
            let (found, whole, members) = text.withUTF8 { bytes in
                (
                    SwiftMembers.cuts(bytes).count, SwiftReferences.parseMembers(bytes, firstLine: 1, file: path, only: nil, cutting: false),
                    SwiftReferences.parseMembers(bytes, firstLine: 1, file: path, only: nil)
                )
            }
            XCTAssertEqual(members, whole, path)
            cuts += found
            files += 1
        }
        XCTAssertGreaterThan(files, 150)
        XCTAssertGreaterThan(cuts, files * 3, "real types are cut between their members")
    }
}
