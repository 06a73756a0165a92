import CodeReferences
import ImgtraceSupport
import SwiftParser
import SwiftSyntax

/// What a `Package.swift` ships, read from its syntax tree (the manifest is Swift: swift-syntax
/// reads it as the compiler would, without running it).
public enum PackageManifest {
    /// The largest manifest read: the largest public ones are tens of KiB.
    public static let maxBytes = 4 << 20
    /// The largest manifest parsed: its syntax tree costs about 50 times the text, and a
    /// manifest is one expression, which cannot be parsed a piece at a time as source files are.
    public static let maxParsedBytes = 256 << 10
    /// The parse budget of a manifest (`SwiftParseCost` units): real ones nest `[` two or three
    /// deep (swift-syntax's, the costliest of 30 measured, is 661 units), a twelfth of this;
    /// fuzzing found ten and thirteen deep in 140 bytes, seconds to parse in a debug build.
    public static let parseBudget = 1 << 13

    /// The resources and target folders of the manifest `source` (its bytes), whose package lives
    /// at the tree path `packageFolder`; nil when the manifest is larger than `maxParsedBytes` or
    /// would cost the parser more than `parseBudget` (deeply nested brackets). Targets
    /// whose folder or resources are not string literals are skipped: a manifest that computes
    /// them cannot be read without running it.
    public static func resources(source: [UInt8], packageFolder: String) -> PackageResources? {
        guard source.count <= maxParsedBytes, source.withUnsafeBufferPointer({ SwiftParseCost.estimate($0, limit: parseBudget) <= parseBudget }) else {
            return nil
        }
        let visitor = TargetVisitor(viewMode: .sourceAccurate)
        visitor.walk(Parser.parse(source: String(decoding: source, as: UTF8.self)))
        var out = PackageResources()
        for target in visitor.targets {
            let folder = XcodeProject.normalized(PathText.join(packageFolder, target.path ?? "Sources/" + target.name))
            out.targetFolders.insert(folder)
            for resource in target.resources { out.resources.insert(XcodeProject.normalized(PathText.join(folder, resource))) }
        }
        return out
    }

    struct DeclaredTarget {
        var name: String
        var path: String?
        var resources: [String]
    }

    private final class TargetVisitor: SyntaxVisitor {
        var targets: [DeclaredTarget] = []

        override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
            guard let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                ["target", "executableTarget", "macro", "plugin"].contains(member.declName.baseName.text)
            else { return .visitChildren }
            var target = DeclaredTarget(name: "", path: nil, resources: [])
            for argument in call.arguments {
                switch argument.label?.text {
                case "name": target.name = literal(argument.expression) ?? ""
                case "path": target.path = literal(argument.expression)
                case "resources":
                    for element in argument.expression.as(ArrayExprSyntax.self)?.elements ?? [] {
                        // `.process("Assets")`, `.copy("Fonts/x.ttf")`, `.embedInCode("x.json")`
                        if let rule = element.expression.as(FunctionCallExprSyntax.self), let first = rule.arguments.first,
                            let path = literal(first.expression)
                        {
                            target.resources.append(path)
                        }
                    }
                default: continue
                }
            }
            if !target.name.isEmpty { targets.append(target) }
            return .skipChildren
        }

        func literal(_ expression: ExprSyntax) -> String? {
            guard let string = expression.as(StringLiteralExprSyntax.self) else { return nil }
            var text = ""
            for segment in string.segments {
                guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
                text += plain.content.text
            }
            return text
        }
    }
}
