import CodeReferences
import Foundation
import XCTest

/// Code references from real syntax: every form the issue names, in one Swift and one
/// Objective-C file written here, and Xcode's name → symbol rule.
final class CodeReferencesTests: XCTestCase {
    private let swift = #"""
        import SwiftUI
        let a = UIImage(named: "tab_home")
        let b = UIImage(named: "hero", in: .main, compatibleWith: nil)
        let c = Image("welcome")
        let d = NSImage(named: "toolbar")
        let e = #imageLiteral(resourceName: "literal")
        let f = UIImage(systemName: "star.fill")
        let g = Image(.tabProfile)
        let h = UIImage(resource: .onboardingStep1)
        let i = R.image.rswiftIcon()
        let j = Asset.casitaDark.image
        let k = UIImage(named: "flag_\(code)")
        let table = ["settings_gear": 1]
        // "commented" is not code
        """#

    func testSwiftReferencesOfEveryKind() {
        let references = SwiftReferences.scan(swift, file: "App/View.swift")
        func find(_ kind: CodeReference.Kind, _ name: String) -> CodeReference? { references.first { $0.kind == kind && $0.name == name } }
        XCTAssertEqual(find(.named, "tab_home")?.api, "UIImage(named:)")
        XCTAssertEqual(find(.named, "tab_home")?.line, 2)
        XCTAssertEqual(find(.named, "tab_home")?.column, 24)
        XCTAssertNotNil(find(.named, "hero"))
        XCTAssertEqual(find(.named, "welcome")?.api, "Image(_:)")
        XCTAssertNotNil(find(.named, "toolbar"))
        XCTAssertEqual(find(.named, "literal")?.api, "#imageLiteral(resourceName:)")
        XCTAssertEqual(find(.system, "star.fill")?.api, "UIImage(systemName:)")
        for symbol in ["tabProfile", "onboardingStep1", "rswiftIcon", "casitaDark"] { XCTAssertNotNil(find(.symbol, symbol), symbol) }
        XCTAssertEqual(find(.dynamic, "flag_*")?.api, "UIImage(named:)")
        XCTAssertNotNil(find(.weak, "settings_gear"), "a literal in a table may still name an image")
        XCTAssertNil(references.first { $0.name == "commented" }, "comments are not code")
        XCTAssertNil(references.first { $0.kind == .weak && $0.name == "tab_home" }, "an API's argument is counted once")
    }

    func testObjectiveCReferences() {
        let source = #"""
            // [UIImage imageNamed:@"commented"]
            UIImage *a = [UIImage imageNamed:@"tab_home"];
            NSImage *b = [NSImage imageNamed: @"tool\"bar"];
            UIImage *c = [UIImage systemImageNamed:@"star"];
            NSString *d = [NSString stringWithFormat:@"flag_%@", code];
            char q = '"'; const char *e = "plain";
            /* @"block" */
            """#
        let references = ObjCReferences.scan(Array(source.utf8), file: "App/View.m")
        XCTAssertEqual(references.map(\.kind), [.named, .named, .system, .dynamic, .weak])
        XCTAssertEqual(references.map(\.name), ["tab_home", "tool\"bar", "star", "flag_*", "plain"])
        XCTAssertEqual(references[0].line, 2)
        XCTAssertEqual(references[0].column, 34)
        XCTAssertEqual(references[0].api, "imageNamed:")
    }

    func testSymbolsCountOnceWithWhatTheyAreMembersOf() {
        let source = #"""
            let a = Image(.Onboarding.world)
            let b = Asset.Onboarding.lock.image
            let c = Image(.logo)
            let d = Image(uiImage: .init(named: "icon-red"))
            """#
        let references = SwiftReferences.scan(source, file: "V.swift")
        let world = references.filter { $0.kind == .symbol && $0.name == "world" }
        XCTAssertEqual(world.count, 1, "the call's argument and the member access are one reference")
        XCTAssertEqual(world.first?.qualifier, "Onboarding")
        XCTAssertEqual(world.first?.api, "Image(_:)")
        XCTAssertEqual(references.first { $0.name == "lock" }?.qualifier, "Asset.Onboarding")
        XCTAssertEqual(references.filter { $0.name == "logo" }.map(\.qualifier), [nil])
        // An implicit member initialiser with `named:` is an image API's argument, not a bare literal.
        XCTAssertEqual(references.filter { $0.name == "icon-red" }.map(\.kind), [.named])
        XCTAssertEqual(references.first { $0.name == "icon-red" }?.api, ".init(named:)")
    }

    func testPrintfPatternsSkipLengthModifiers() {
        let cases: [(String, String)] = [
            ("step%ld@3x.png", "step*@3x.png"), ("step%li", "step*"), ("step%lu", "step*"), ("step%zd", "step*"),
            ("step%lld", "step*"), ("step%02d", "step*"), ("step%hhu-%@", "step*-*"), ("100%%_%d", "100%_*"),
        ]
        for (format, pattern) in cases { XCTAssertEqual(ObjCReferences.pattern(format), pattern, format) }
    }

    func testXcodesNameToSymbolRule() {
        let cases = [
            ("tab-home", "tabHome"), ("Tab Home", "tabHome"), ("casita_dark", "casitaDark"), ("3d-globe", "_3dGlobe"),
            ("POC_pride", "pocPride"), ("Onboarding/World", "world"), ("HTTPServer", "httpServer"), ("logo", "logo"),
        ]
        for (name, symbol) in cases { XCTAssertEqual(AssetSymbol.symbol(for: name), symbol, name) }
        XCTAssertEqual(AssetSymbol.key("casitaDark"), AssetSymbol.key("casita-dark"))
    }

    /// swift-syntax's parser is exponential in nested `[` (fuzzing found it): a file whose parse
    /// would cost more than the budget is read without its tree, its literals weak, and quickly
    /// — however the brackets are hidden from a lexer that knows only one-line strings.
    func testDeeplyNestedBracketsAreReadWithoutTheParser() {
        // 18 levels: over the budget, and a parse of them takes seconds, not hours, if a guard regresses.
        let deep = String(repeating: "[", count: 18)
        let hidden = [
            "plain": "let b = U" + deep,
            "quote in a block comment": "/* \" */ let b = U" + deep,
            "raw string ending in a backslash": ##"let s = #"\"#; let b = U"## + deep,
            "brackets in an interpolation": "let s = \"\\(" + deep + ")\"",
            "quote in a regex literal": "let r = /\"/; let b = U" + deep,
            "tuple types between": "let b = " + String(repeating: "[(A, ", count: 18),
            // Where the parser parts from the lexer in its error recovery (found by fuzzing).
            "a quote after an expression in an interpolation": "let s = \"\\(a \"" + deep + " )\"",
            "a single-quoted string": "let c = '\")\"" + deep + ")'",
            "an interpolation that cannot be an expression": "let s = \"\\(= \"" + deep + ")\"",
            "an unterminated string before it": "let a = \"\nlet s = \"\\(a \"" + deep + " )\"",
        ]
        for (shape, tail) in hidden.sorted(by: { $0.key < $1.key }) {
            let start = Date()
            let read = SwiftReferences.read("let a = UIImage(named: \"tab\")\n" + tail, file: "A.swift")
            XCTAssertLessThan(Date().timeIntervalSince(start), 5, "\(shape): a guard against hanging, not a timing test")
            XCTAssertFalse(read.parsed, shape)
            XCTAssertEqual(read.references.first?.kind, .weak, shape)
            XCTAssertEqual(read.references.first?.name, "tab", shape)
        }
        // Brackets in a comment or a string cost nothing; real nesting is parsed.
        XCTAssertTrue(SwiftReferences.read("let a = [[1], [2]] // " + deep + "\nlet s = \"" + deep + "\"", file: "B.swift").parsed)
        XCTAssertTrue(SwiftReferences.read("let m: [String: [[Int]]] = [\"a\": [[1, 2], [3]]]", file: "C.swift").parsed)
        XCTAssertTrue(SwiftReferences.read("let t = \"\\(d[\"k\"] ?? \"[none]\")\"\nlet u = [[1]]", file: "D.swift").parsed, "a string in an interpolation")
    }

    /// The budget against real code: the Swift files of a real app with the most `[` (the lexer
    /// in a debug build is too slow to read all 1,600 here) cost a small part of it.
    func testRealSwiftCostsFarLessThanTheBudget() throws {
        let root = "../shared/corpus/sources/home-assistant-ios"
        guard FileManager.default.fileExists(atPath: root) else { throw XCTSkip("corpus absent: ../shared/corpus/sources/home-assistant-ios") }
        var sources: [(brackets: Int, path: String, text: String)] = []
        for case let path as String in FileManager.default.enumerator(atPath: root)! where path.hasSuffix(".swift") {
            let text = try String(contentsOfFile: root + "/" + path, encoding: .utf8)
            sources.append((text.utf8.filter { $0 == UInt8(ascii: "[") }.count, path, text))
        }
        XCTAssertGreaterThan(sources.count, 1000)
        var costliest = (cost: 0, file: "")
        for var source in sources.sorted(by: { $0.brackets > $1.brackets }).prefix(40) {
            let cost = source.text.withUTF8 { SwiftParseCost.estimate($0) }
            if cost > costliest.cost { costliest = (cost, source.path) }
        }
        XCTAssertGreaterThan(costliest.cost, 100, "real brackets nest")
        XCTAssertLessThan(costliest.cost, SwiftParseCost.budget / 1000, costliest.file)
    }

    /// A large file is parsed in pieces of whole top-level declarations (memory follows the
    /// piece): the references are those of the whole file, at the same lines and columns.
    func testPiecesFindWhatTheWholeFileHolds() throws {
        let root = "../shared/corpus/sources/home-assistant-ios/Sources/App"
        guard FileManager.default.fileExists(atPath: root) else { throw XCTSkip("corpus absent: ../shared/corpus/sources/home-assistant-ios") }
        var source = ""
        for case let path as String in FileManager.default.enumerator(atPath: root)! where path.hasSuffix(".swift") {
            source += try String(contentsOfFile: root + "/" + path, encoding: .utf8) + "\n"
            if source.utf8.count > 400_000 { break }
        }
        let whole = SwiftReferences.read(source, file: "All.swift", pieceBytes: .max)
        let pieces = SwiftReferences.read(source, file: "All.swift", pieceBytes: 16 << 10)
        XCTAssertTrue(whole.parsed && pieces.parsed)
        var utf8 = source
        let cut = utf8.withUTF8 { SwiftTopLevel.pieces($0, upTo: 16 << 10) }
        XCTAssertGreaterThan(cut.count, 20, "the file is cut")
        XCTAssertEqual(cut.map(\.bytes.count).reduce(0, +), source.utf8.count, "nothing is left out")
        XCTAssertGreaterThan(whole.references.count, 1000)
        XCTAssertEqual(pieces.references, whole.references)
        // A cut never falls inside a declaration: a type's closing brace stays with it.
        let nested = "struct A {\n    let a = UIImage(named: \"one\")\n}\n" + String(repeating: "let x = 1\n", count: 50) + "enum B {\n    case b\n}\n"
        XCTAssertEqual(SwiftReferences.read(nested, file: "N.swift", pieceBytes: 8).references, SwiftReferences.read(nested, file: "N.swift", pieceBytes: .max).references)
    }

    func testPatternsThatNameNothingAreDropped() {
        let references = SwiftReferences.scan(#"let a = "\(x)-\(y)"; let b = "icon-\(name)""#, file: "A.swift")
        XCTAssertEqual(references.filter { $0.kind == .dynamic }.map(\.name), ["icon-*"])
    }

    /// Concatenation builds names as interpolation does: a run of `+` with a literal in it is a
    /// pattern in Swift, and so is `stringByAppendingString:` in Objective-C.
    func testConcatenatedNamesArePatterns() {
        let swift = #"""
            let a = UIImage(named: "flag_" + code)
            let b = prefix + "_dark"
            let c = "icon-\(style)" + "@" + scale + "x"
            let d = x == "a" + y
            let e = a + b
            let f = "onboarding_" + step + "_" + variant
            """#
        let patterns = SwiftReferences.scan(swift, file: "A.swift").filter { $0.kind == .dynamic }
        XCTAssertEqual(patterns.map(\.name), ["flag_*", "*_dark", "icon-*@*x", "onboarding_*_*"])
        XCTAssertEqual(patterns.first.map { [$0.line, $0.column] }, [1, 24])
        let objc = #"""
            UIImage *a = [UIImage imageNamed:[@"flag_" stringByAppendingString:code]];
            NSString *b = [prefix stringByAppendingString:@"_dark"];
            NSString *c = [prefix stringByAppendingString:@"-"];
            """#
        let objcPatterns = ObjCReferences.scan(Array(objc.utf8), file: "A.m").filter { $0.kind == .dynamic }
        XCTAssertEqual(objcPatterns.map(\.name), ["flag_*", "*_dark"])
    }

    /// Names an app reads from its own data files at run time (a theme plist, a JSON menu, a
    /// strings table) are weak references, with the line and column of each value.
    func testDataFilesNameImagesWeakly() {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            	<key>icon</key>
            	<string>theme_dark&amp;light</string>
            	<array><string>badge_gold</string><string>&#x6E;ew</string></array>
            	<string>not &bogus; xml</string>
            </dict>
            </plist>
            """
        let fromPlist = DataReferences.scan(Array(plist.utf8), file: "Themes.plist")
        XCTAssertEqual(fromPlist.map(\.name), ["theme_dark&light", "badge_gold", "new"])
        XCTAssertEqual(fromPlist.map(\.line), [5, 6, 6])
        XCTAssertEqual(fromPlist.first?.column, 2)
        XCTAssertTrue(fromPlist.allSatisfy { $0.kind == .weak })
        let json = #"{"items": [{"title": "Home", "icon": "tab\/home"}, {"icon": "caf\u00e9"}], "unterminated": "x"#
        XCTAssertEqual(DataReferences.scan(Array(json.utf8), file: "menu.json").map(\.name), ["items", "title", "Home", "icon", "tab/home", "icon", "café", "unterminated"])
        let strings = "/* \"commented\" */\n\"promo.image\" = \"promo_banner\";\n"
        let fromStrings = DataReferences.scan(Array(strings.utf8), file: "Promo.strings")
        XCTAssertEqual(fromStrings.map(\.name), ["promo.image", "promo_banner"])
        XCTAssertEqual(fromStrings.map(\.line), [2, 2])
        // Xcode wrote `.strings` in UTF-16 for years: either byte order, with its mark.
        for (mark, littleEndian) in [([0xFF, 0xFE] as [UInt8], true), ([0xFE, 0xFF], false)] {
            let units = Array(strings.utf16).flatMap { unit -> [UInt8] in
                let pair = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
                return littleEndian ? pair : pair.reversed()
            }
            let wide = DataReferences.scan(mark + units, file: "Promo.strings")
            XCTAssertEqual(wide.map(\.name), ["promo.image", "promo_banner"], "little-endian \(littleEndian)")
            XCTAssertEqual(wide.map(\.line), [2, 2])
        }
        // A String Catalog's values in every language and plural variant, and a `.stringsdict`'s.
        let catalog =
            #"{"sourceLanguage": "en", "strings": {"onboarding.icon": {"localizations": {"en": {"stringUnit": {"state": "translated", "value": "onboarding_globe"}}, "de": {"variations": {"plural": {"one": {"stringUnit": {"value": "badge_one"}}, "other": {"stringUnit": {"value": "badge_many"}}}}}}}}}"#
        XCTAssertTrue(DataReferences.reads("Localizable.xcstrings"))
        let fromCatalog = Set(DataReferences.scan(Array(catalog.utf8), file: "Localizable.xcstrings").map(\.name))
        XCTAssertTrue(fromCatalog.isSuperset(of: ["onboarding_globe", "badge_one", "badge_many"]), "\(fromCatalog)")
        let dict = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>stars</key><dict><key>one</key><string>star_single</string></dict></dict></plist>"
        XCTAssertTrue(DataReferences.reads("Localizable.stringsdict"))
        XCTAssertEqual(DataReferences.scan(Array(dict.utf8), file: "Localizable.stringsdict").map(\.name), ["star_single"])
        XCTAssertTrue(DataReferences.reads("Intents.intentdefinition"))
        XCTAssertFalse(DataReferences.reads("notes.txt"))
        XCTAssertTrue(DataReferences.scan(Array("<plist><string>".utf8), file: "cut.plist").isEmpty, "an unclosed value is no name")
    }
}
