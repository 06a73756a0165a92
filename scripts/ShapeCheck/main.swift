// Holds the code's shape (issue 44): no function, initializer, accessor or closure-free body in
// `Sources` longer than 60 lines, except those listed with their reason in
// scripts/shape-exceptions.txt; and no line longer than .swift-format's `lineLength` unless the
// overflow is inside a string literal (a sentence swift-format cannot break either). Functions
// and literals are found by swift-syntax, not by counting braces or quotes. Issue 62 added: no
// Swift file of the package over 400 lines, no C function body over 60, and, given
// `swift package dump-package`'s output, Package.swift exact (PackageImports.swift), and one
// directory walker (Walkers.swift).
//
//   swift run -q ShapeCheck Sources scripts/shape-exceptions.txt [--package DUMP.json]   check (CI)
//   swift run -q ShapeCheck Sources scripts/shape-exceptions.txt --list     every long body, as the list wants it
import Foundation
import SwiftParser
import SwiftSyntax

/// The most lines a body may have (a Swift or a C function's).
let longestBody = 60
/// The most lines a Swift file may have.
let longestFile = 400
/// The package's folders whose Swift files are held to `longestFile`, beside the sources.
let foldersWithSwift = ["Tests", "Fuzz", "Benchmarks", "scripts"]

/// A declaration with a body: its file, name and body's line count.
struct LongBody: Hashable {
    var file: String
    var name: String
    var lines: Int
    var key: String { "\(file) \(name)" }
}

final class BodyFinder: SyntaxVisitor {
    let file: String
    let converter: SourceLocationConverter
    var found: [LongBody] = []
    private var scope: [String] = []

    init(file: String, tree: SourceFileSyntax) {
        self.file = file
        converter = SourceLocationConverter(fileName: file, tree: tree)
        super.init(viewMode: .sourceAccurate)
    }

    private func measure(_ name: String, _ body: some SyntaxProtocol) {
        let start = converter.location(for: body.positionAfterSkippingLeadingTrivia).line
        let end = converter.location(for: body.endPositionBeforeTrailingTrivia).line
        let lines = end - start + 1
        if lines > longestBody { found.append(LongBody(file: file, name: (scope + [name]).joined(separator: "."), lines: lines)) }
    }

    private func enter(_ name: String) -> SyntaxVisitorContinueKind {
        scope.append(name)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
    override func visitPost(_ node: ClassDeclSyntax) { scope.removeLast() }
    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
    override func visitPost(_ node: StructDeclSyntax) { scope.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text) }
    override func visitPost(_ node: EnumDeclSyntax) { scope.removeLast() }
    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.extendedType.trimmedDescription) }
    override func visitPost(_ node: ExtensionDeclSyntax) { scope.removeLast() }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body { measure(node.name.text, body) }
        return .visitChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body { measure("init", body) }
        return .visitChildren
    }

    override func visit(_ node: AccessorDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body { measure(node.accessorSpecifier.text, body) }
        return .visitChildren
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        // A computed property's getter without `get { }`.
        if case .getter(let body)? = node.accessorBlock?.accessors { measure(node.pattern.trimmedDescription, body) }
        return .visitChildren
    }
}

/// Lines longer than `limit` whose overflow is code, not the inside of a string literal.
func overlongLines(_ file: String, _ text: String, _ tree: SourceFileSyntax, limit: Int) -> [String] {
    let converter = SourceLocationConverter(fileName: file, tree: tree)
    // Per line, the columns string literal text covers.
    var literalSpans: [Int: [ClosedRange<Int>]] = [:]
    for token in tree.tokens(viewMode: .sourceAccurate) where token.tokenKind.isStringText {
        let start = converter.location(for: token.positionAfterSkippingLeadingTrivia)
        let end = converter.location(for: token.endPositionBeforeTrailingTrivia)
        guard start.line == end.line, end.column > start.column else { continue }
        literalSpans[start.line, default: []].append(start.column...(end.column - 1))
    }
    var found: [String] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.count > limit {
        // The column where the line first passes the limit must be a literal's.
        let inLiteral = literalSpans[index + 1, default: []].contains { $0.contains(limit + 1) || $0.lowerBound <= limit && $0.upperBound > limit }
        if !inLiteral { found.append("\(file):\(index + 1): \(line.count) columns (at most \(limit)): break the line") }
    }
    return found
}

extension TokenKind {
    var isStringText: Bool {
        if case .stringSegment = self { return true }
        return false
    }
}

/// `lineLength` from the .swift-format beside the sources' folder.
func configuredLineLength(besides root: String) -> Int {
    let path = URL(fileURLWithPath: root).deletingLastPathComponent().appendingPathComponent(".swift-format").path
    guard let data = FileManager.default.contents(atPath: path),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let length = object["lineLength"] as? Int
    else { return 100 }
    return length
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ShapeCheck SOURCES EXCEPTIONS [--list]\n".utf8))
    exit(64)
}
let root = arguments[arguments.startIndex], exceptionsPath = arguments[arguments.startIndex + 1]
let listing = arguments.contains("--list")
let packageDump = arguments.firstIndex(of: "--package").flatMap { arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil }
/// The package's folder, as the sources' folder was given (relative paths print relative).
let packageRoot = root.contains("/") ? String(root[..<root.lastIndex(of: "/")!]) : "."

var files: [String] = []
if let walker = FileManager.default.enumerator(atPath: root) {
    for case let path as String in walker where path.hasSuffix(".swift") { files.append(root + "/" + path) }
}
var long: [LongBody] = []
var overlong: [String] = []
var listings: [String] = []
let lineLength = configuredLineLength(besides: root)
for file in files.sorted() {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
    let tree = Parser.parse(source: text)
    let finder = BodyFinder(file: file, tree: tree)
    finder.walk(tree)
    long += finder.found
    overlong += overlongLines(file, text, tree, limit: lineLength)
    listings += folderListings(file, tree)
}
if listing {
    for body in long { print("\(body.key) — (\(body.lines) lines) reason") }
    exit(0)
}
// `FILE NAME — reason`: the reason is for the reader; the file and name are what is checked.
let listed = Set(
    ((try? String(contentsOfFile: exceptionsPath, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { line -> String? in
        guard !line.hasPrefix("#"), let dash = line.range(of: " — ") else { return nil }
        return String(line[..<dash.lowerBound])
    })
let unlisted = long.filter { !listed.contains($0.key) }
let stale = listed.subtracting(long.map(\.key))
for body in unlisted { print("\(body.file): \(body.name) has a body of \(body.lines) lines (at most \(longestBody)): split it, or list it with a reason in \(exceptionsPath)") }
for key in stale.sorted() { print("\(exceptionsPath): \(key) is no longer over \(longestBody) lines: take it off the list") }
for line in overlong { print(line) }

var longFiles: [String] = []
for file in files + foldersWithSwift.flatMap({ swiftFiles(under: packageRoot + "/" + $0) }) {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count - (text.hasSuffix("\n") ? 1 : 0)
    if lines > longestFile { longFiles.append("\(file): \(lines) lines (at most \(longestFile)): split it by concern") }
}
var longC: [String] = []
if let walker = FileManager.default.enumerator(atPath: root) {
    for case let path as String in walker where path.hasSuffix(".c") {
        guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else { continue }
        longC += longCFunctions(root + "/" + path, text, limit: longestBody)
    }
}
var packageProblems: [String] = []
if let packageDump {
    do {
        let targets = try declaredTargets(json: try Data(contentsOf: URL(fileURLWithPath: packageDump)))
        packageProblems = packageImportProblems(targets: targets, packageRoot: packageRoot)
    } catch {
        packageProblems = ["\(packageDump): not swift package dump-package's JSON (\(error))"]
    }
}
for line in longFiles.sorted() + longC.sorted() + packageProblems + listings { print(line) }
print(
    "shape-check: \(long.count) bodies over \(longestBody) lines, \(long.count - unlisted.count) of them listed; \(overlong.count) lines over \(lineLength) columns outside a string literal; \(longFiles.count) Swift files over \(longestFile) lines; \(longC.count) C functions over \(longestBody) lines; \(listings.count) folder listings outside the walker"
        + (packageDump == nil ? "" : "; \(packageProblems.count) Package.swift mismatches")
)
exit(unlisted.isEmpty && stale.isEmpty && overlong.isEmpty && longFiles.isEmpty && longC.isEmpty && packageProblems.isEmpty && listings.isEmpty ? 0 : 1)
