import AppBundle
import CodeReferences
import Foundation
import TestSupport
import UnusedAudit
import XCTest

/// `unused` parses only the Swift that may name a shipped image (`ImageNameFilter`): its
/// verdicts and evidence must be those of reading every file whole.
final class UnusedCodeFilterTests: XCTestCase {
    private let root = "../shared/corpus/sources/home-assistant-ios"

    /// The promise itself, on a real app's tree: the same verdicts, the same evidence quoted,
    /// the same count of references that name an image, with a third of its Swift parsed.
    func testFilteredCodeJudgesAsTheWholeCode() throws {
        guard FileManager.default.fileExists(atPath: root) else { throw XCTSkip("corpus absent: \(root)") }
        let inventory = try BundleReader.inventory(of: root, readingCodeStrings: true)
        let sources = root + "/Sources/App"
        let whole = UnusedImages.judgement(inventory: inventory, code: CodeIndex.scan(root: sources), loaded: nil)
        let filteredCode = CodeIndex.scan(root: sources, only: UnusedImages.codeFilter(for: inventory))
        let filtered = UnusedImages.judgement(inventory: inventory, code: filteredCode, loaded: nil)
        XCTAssertEqual(filtered.namingReferences, whole.namingReferences)
        XCTAssertGreaterThan(whole.namingReferences, 50)
        XCTAssertEqual(filtered.assets.map(\.name), whole.assets.map(\.name))
        XCTAssertEqual(filtered.assets.map(\.verdict), whole.assets.map(\.verdict))
        XCTAssertEqual(filtered.assets.map { $0.keptBy.map(\.text) }, whole.assets.map { $0.keptBy.map(\.text) })
        XCTAssertEqual(Set(whole.assets.map(\.verdict)).count, 2, "some images used, some not")
        // What was not parsed is what names nothing: far fewer references are kept.
        XCTAssertLessThan(filteredCode.references.count * 2, CodeIndex.scan(root: sources).references.count)
    }

    /// Each reference a file's syntax tree gives, as the only image's name (a pattern's holes
    /// filled): the filtered read of that file still gives it.
    func testEveryReferenceIsFoundByTheFilterOfItsOwnName() throws {
        guard FileManager.default.fileExists(atPath: root) else { throw XCTSkip("corpus absent: \(root)") }
        let paths = FileManager.default.enumerator(atPath: root + "/Sources")!.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
        var checked = 0
        var kinds = Set<CodeReference.Kind>()
        // Every twelfth file, five names each: the debug build parses each file once a name.
        for path in paths.enumerated().filter({ $0.offset % 12 == 0 }).map(\.element) {
            let source = try String(contentsOfFile: root + "/Sources/" + path, encoding: .utf8)
            guard source.utf8.count <= 64 << 10 else { continue }
            let all = SwiftReferences.read(source, file: path).references
            func imageName(_ reference: CodeReference) -> String? {
                switch reference.kind {
                case .named, .weak, .symbol: return reference.name
                case .dynamic: return UnusedImages.namePattern(reference).map { $0.name.replacingOccurrences(of: "*", with: "x") }
                case .system: return nil
                }
            }
            // A kind of each first, then the rest.
            let byKind = Dictionary(grouping: all, by: \.kind).values.compactMap(\.first)
            let chosen = (byKind + all).compactMap(imageName).reduce(into: [String]()) { names, name in
                if !names.contains(name), names.count < 5 { names.append(name) }
            }
            for name in chosen {
                let found = Set(SwiftReferences.read(source, file: path, only: UnusedImages.codeFilter(names: [name])).references)
                for reference in all where imageName(reference) == name {
                    XCTAssertTrue(found.contains(reference), "\(path): \(reference)")
                    kinds.insert(reference.kind)
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 300)
        XCTAssertEqual(kinds, [.named, .weak, .symbol, .dynamic])
    }

    /// A tree whose Swift names its images every way the code search knows, with and without the
    /// filter: the same verdicts.
    func testEveryWayOfNamingAnImageSurvivesTheFilter() throws {
        let tree = try TreeWriter()
        defer { tree.remove() }
        for name in ["tab", "flag_fr", "moon_dark", "step2", "tab-home", "orphan", "icon_big"] {
            try tree.imageSet("App/Assets.xcassets", name)
        }
        try tree.write("App/A.swift", "let a = UIImage(named: \"tab\")\n")
        try tree.write("App/B.swift", "struct B {\n    func f(c: String) -> UIImage? { UIImage(named: \"flag_\\(c)\") }\n}\n")
        try tree.write("App/C.swift", "let c = x + \"_dark\"\n")
        try tree.write("App/D.swift", "let d = String(format: \"step%d\", 2)\n")
        try tree.write("App/E.swift", "extension V {\n    var e: Image { Image(.tabHome) }\n    var w: Image { Image(.world) }\n}\n")
        try tree.write("App/F.swift", "let f = \"nothing here\"\nlet g = Color.red\n")
        let inventory = try BundleReader.inventory(of: tree.root.path)
        let code = CodeIndex.scan(root: tree.root.path)
        let filter = UnusedImages.codeFilter(for: inventory)
        let filtered = CodeIndex.scan(root: tree.root.path, only: filter)
        let whole = UnusedImages.judge(inventory: inventory, code: code, loaded: nil)
        let judged = UnusedImages.judge(inventory: inventory, code: filtered, loaded: nil)
        XCTAssertEqual(judged.map(\.verdict), whole.map(\.verdict))
        XCTAssertEqual(judged.map { $0.keptBy.map(\.text) }, whole.map { $0.keptBy.map(\.text) })
        XCTAssertEqual(judged.filter { $0.verdict == .unused }.map(\.name).sorted(), ["icon_big", "orphan"])
        XCTAssertLessThan(filtered.references.count, code.references.count, "F.swift names nothing shipped")
        // A name that is not ASCII cannot be looked for in bytes: every piece is parsed.
        let source = "let f = \"nothing here\"\nlet g = Color.red\n"
        XCTAssertEqual(SwiftReferences.read(source, file: "F.swift", only: UnusedImages.codeFilter(names: ["café"])).references.count, 2)
        XCTAssertEqual(SwiftReferences.read(source, file: "F.swift", only: UnusedImages.codeFilter(names: ["cafe"])).references.count, 0)
    }
}
