import Foundation
import SwiftParser
import SwiftSyntax
import TestSupport
import XCTest

/// The engine's public API is what an embedder needs (run an audit, read its result, render it):
/// at most 250 declarations across the five targets the `LaunchAudit` product ships, each listed
/// in docs/architecture.md. A declaration made public, or one dropped, fails here until the list
/// says so; the rest is `package`, for this package's own targets.
final class EngineSurfaceTests: XCTestCase {
    static let limit = 250
    static let targets = ["AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit", "LaunchAudit"]

    func testTheEnginesPublicDeclarationsAreTheListedOnes() throws {
        var found: [String] = []
        for target in Self.targets {
            let folder = Corpus.packageRoot.appendingPathComponent("Sources/" + target)
            let files = try XCTUnwrap(FileManager.default.subpathsOfDirectory(atPath: folder.path)).filter { $0.hasSuffix(".swift") }
            XCTAssertFalse(files.isEmpty, target)
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let finder = PublicDeclarationFinder(viewMode: .sourceAccurate)
                finder.walk(Parser.parse(source: text))
                found += finder.found
            }
        }
        found.sort()
        XCTAssertEqual(Set(found).count, found.count, "a declaration is listed twice: \(found)")
        XCTAssertLessThanOrEqual(found.count, Self.limit, "the engine's public API grew past \(Self.limit)")
        let listed = try documentedSurface()
        let missing = found.filter { !listed.contains($0) }, stale = listed.filter { !found.contains($0) }
        XCTAssertEqual(missing, [], "public in the audit targets but not in docs/architecture.md's list")
        XCTAssertEqual(stale, [], "listed in docs/architecture.md but not public in the audit targets")
    }

    /// The fenced block after the heading "The engine's public API" in docs/architecture.md.
    private func documentedSurface() throws -> [String] {
        let doc = try String(contentsOf: Corpus.packageRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let heading = doc.range(of: "## The engine's public API") else {
            XCTFail("docs/architecture.md has no section \"The engine's public API\"")
            return []
        }
        let rest = doc[heading.upperBound...]
        guard let open = rest.range(of: "```\n"), let close = rest[open.upperBound...].range(of: "```") else { return [] }
        return rest[open.upperBound..<close.lowerBound].split(separator: "\n").map { String($0) }.filter { !$0.isEmpty }
    }
}

/// Every `public` or `open` declaration of a file, as `Type.member(labels:)` (an extension's
/// members under the type it extends).
private final class PublicDeclarationFinder: SyntaxVisitor {
    var found: [String] = []
    private var scope: [String] = []

    private func isPublic(_ modifiers: DeclModifierListSyntax) -> Bool {
        modifiers.contains { ["public", "open"].contains($0.name.text) }
    }

    private func record(_ name: String, _ modifiers: DeclModifierListSyntax) {
        if isPublic(modifiers) { found.append((scope + [name]).joined(separator: ".")) }
    }

    private func signature(_ name: String, _ parameters: FunctionParameterListSyntax) -> String {
        name + "(" + parameters.map { ($0.firstName.text) + ":" }.joined() + ")"
    }

    private func enter(_ name: String, _ modifiers: DeclModifierListSyntax) -> SyntaxVisitorContinueKind {
        record(name, modifiers)
        scope.append(name)
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.modifiers) }
    override func visitPost(_ node: StructDeclSyntax) { scope.removeLast() }
    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.modifiers) }
    override func visitPost(_ node: ClassDeclSyntax) { scope.removeLast() }
    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.modifiers) }
    override func visitPost(_ node: EnumDeclSyntax) { scope.removeLast() }
    override func visit(_ node: ProtocolDeclSyntax) -> SyntaxVisitorContinueKind { enter(node.name.text, node.modifiers) }
    override func visitPost(_ node: ProtocolDeclSyntax) { scope.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        scope.append(node.extendedType.trimmedDescription)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { scope.removeLast() }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        record(signature(node.name.text, node.signature.parameterClause.parameters), node.modifiers)
        return .skipChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        record(signature("init", node.signature.parameterClause.parameters), node.modifiers)
        return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        for binding in node.bindings { record(binding.pattern.trimmedDescription, node.modifiers) }
        return .skipChildren
    }

    override func visit(_ node: TypeAliasDeclSyntax) -> SyntaxVisitorContinueKind {
        record(node.name.text, node.modifiers)
        return .skipChildren
    }

    override func visit(_ node: SubscriptDeclSyntax) -> SyntaxVisitorContinueKind {
        record(signature("subscript", node.parameterClause.parameters), node.modifiers)
        return .skipChildren
    }
}
