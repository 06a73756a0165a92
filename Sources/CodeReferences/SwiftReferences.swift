import SwiftParser
@_spi(RawSyntax) import SwiftSyntax

/// Image references in Swift source, from swift-syntax's tree: calls of the image initialisers
/// with a string literal, `#imageLiteral`, SF Symbols, generated asset symbols (any member
/// access `.name` or `X.name`: Xcode's, R.swift's and SwiftGen's identifiers are matched to asset
/// names later), interpolated names as patterns, and every other string literal as a weak reference.
public enum SwiftReferences {
    /// The references in `source`; `file` names it in them. Never fails: swift-syntax recovers
    /// from errors, and a file it cannot make sense of yields what it could read.
    public static func scan(_ source: String, file: String) -> [CodeReference] {
        read(source, file: file).references
    }

    /// The references in `source`, and whether its syntax tree was read: a file whose parse would
    /// cost more than `SwiftParseCost.budget` (deeply nested `[`, found by fuzzing) is read as a
    /// plain lexer reads it, every string literal a weak reference, in time linear in the file.
    ///
    /// With a `filter`, only references that may name its images are sought: a piece whose bytes
    /// cannot name one is not parsed (`ImageNameFilter`), and what else it holds is not returned.
    public static func read(_ source: String, file: String, only filter: ImageNameFilter? = nil) -> (references: [CodeReference], parsed: Bool) {
        read(source, file: file, pieceBytes: parsedPieceBytes, only: filter)
    }

    /// `read`, parsing pieces of at most `pieceBytes` (the tests compare pieces with the whole).
    package static func read(_ source: String, file: String, pieceBytes: Int, only filter: ImageNameFilter? = nil) -> (references: [CodeReference], parsed: Bool) {
        var text = source
        let affordable = text.withUTF8 { SwiftParseCost.isCheapByBrackets($0) || SwiftParseCost.estimate($0) <= SwiftParseCost.budget }
        guard affordable else { return (weakReferences(Array(source.utf8), file: file), false) }
        // A large file is parsed a piece at a time, each piece whole declarations: a syntax tree
        // costs about 50 times its text, so memory follows the piece, not the file.
        let (pieces, deepest) = text.withUTF8 { SwiftTopLevel.cut($0, upTo: pieceBytes) }
        // A syntax tree's cost grows with its depth (a file of calls left open, each line one
        // level deeper, cost 200 times its text): a file too large for one piece that nests
        // deeper than code does is not given to the parser either.
        if deepest > maxParsedDepth, pieces.contains(where: { $0.bytes.count > pieceBytes }) {
            return (weakReferences(Array(source.utf8), file: file), false)
        }
        var references: [CodeReference] = []
        for piece in pieces {
            guard let filter else {
                let part = pieces.count == 1 ? source : text.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[piece.bytes]), as: UTF8.self) }
                references += parse(part, file: file, lineOffset: piece.firstLine - 1) ?? []
                continue
            }
            text.withUTF8 { bytes in
                references += parseMembers(UnsafeBufferPointer(rebasing: bytes[piece.bytes]), firstLine: piece.firstLine, file: file, only: filter)
            }
        }
        return (references, true)
    }

    /// The references of one piece parsed alone, `lineOffset` lines into the file; nil when
    /// `clean` asks for a tree without errors and the parser had to recover.
    private static func parse(_ part: String, file: String, lineOffset: Int, clean: Bool = false) -> [CodeReference]? {
        let tree = Parser.parse(source: part)
        if clean, tree.hasError { return nil }
        var pieceText = part
        let lines = pieceText.withUTF8 { LineStarts($0) }
        let visitor = ReferenceVisitor(file: file, lines: lines, lineOffset: lineOffset)
        visitor.walk(tree)
        return visitor.references
    }

    /// The references of a piece, parsing only the parts between its members' cuts
    /// (`SwiftMembers`) that `filter` lets through (every part without one), neighbours together;
    /// a piece the filter turns away as a whole is not cut either.
    /// A part that starts inside a type's body is parsed inside an `enum` of its own, one that
    /// ends inside one has the body closed after it: the same members, parsed as in the piece.
    /// Where the parser recovers from an error, what it makes of a part may differ from what it
    /// makes of the piece: a part with an error has the whole piece parsed instead.
    package static func parseMembers(_ piece: UnsafeBufferPointer<UInt8>, firstLine: Int, file: String, only filter: ImageNameFilter?, cutting: Bool = true) -> [CodeReference] {
        guard filter?.mayName(piece) ?? true else { return [] }
        let cuts = cutting ? SwiftMembers.cuts(piece) : []
        let bounds = [0] + cuts + [piece.count]
        var references: [CodeReference] = []
        var line = firstLine
        var counted = 0
        let parts = bounds.count - 1
        // One part is the piece, already let through.
        let wanted = parts == 1 ? [true] : (0..<parts).map { part in filter?.mayName(UnsafeBufferPointer(rebasing: piece[bounds[part]..<bounds[part + 1]])) ?? true }
        var first = 0
        while first < parts {
            guard wanted[first] else {
                first += 1
                continue
            }
            // Neighbours the filter lets through are parsed at once, up to a piece's size.
            var last = first + 1
            while last < parts, wanted[last], bounds[last + 1] - bounds[first] <= parsedPieceBytes { last += 1 }
            line += LineStarts.count(in: UnsafeBufferPointer(rebasing: piece[counted..<bounds[first]]))
            counted = bounds[first]
            let opensInBody = first > 0
            var part = opensInBody ? "enum ImgtraceMembers {\n" : ""
            part += String(decoding: UnsafeBufferPointer(rebasing: piece[bounds[first]..<bounds[last]]), as: UTF8.self)
            if last < parts { part += "\n}" }
            guard let found = parse(part, file: file, lineOffset: line - (opensInBody ? 2 : 1), clean: !cuts.isEmpty) else {
                return parse(String(decoding: piece, as: UTF8.self), file: file, lineOffset: firstLine - 1) ?? []
            }
            references += found
            first = last
        }
        return references
    }

    /// The largest piece of a file parsed at once (a piece holds whole top-level declarations,
    /// so one larger declaration is a larger piece).
    static let parsedPieceBytes = 64 << 10

    /// The deepest nesting parsed in a piece larger than `parsedPieceBytes`: SwiftUI bodies and
    /// closures in closures reach about 30.
    static let maxParsedDepth = 48

    /// A Swift file read by lexers, in time linear in the file, for files the parser is not given:
    /// each string literal a weak reference (a pattern when it has holes), each member name an
    /// asset symbol.
    public static func weakReferences(_ bytes: [UInt8], file: String) -> [CodeReference] {
        let literals = ObjCReferences.scan(bytes, file: file).map { reference in
            var weak = reference
            weak.kind = reference.kind == .dynamic ? .dynamic : .weak
            weak.api = nil
            return weak
        }
        let symbols = bytes.withUnsafeBufferPointer { SwiftMemberNames.references($0, file: file) }
        return (literals + symbols).sorted { ($0.line, $0.column) < ($1.line, $1.column) }
    }
}

/// Where each line of a piece starts, by UTF-8 offset, as swift-syntax counts lines (`\n`, `\r`
/// and `\r\n` end one; a column is the bytes from the line's start, from 1). Built from the
/// text in one pass: swift-syntax's `SourceLocationConverter` walks the whole tree and copies its
/// text to build the same table.
struct LineStarts {
    private var starts: [Int] = [0]

    init(_ text: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\n"):
                starts.append(index + 1)
            case UInt8(ascii: "\r"):
                if index + 1 < text.count, text[index + 1] == UInt8(ascii: "\n") { index += 1 }
                starts.append(index + 1)
            default:
                break
            }
            index += 1
        }
    }

    /// The lines `text` ends, as swift-syntax counts them (`\r\n` once).
    static func count(in text: UnsafeBufferPointer<UInt8>) -> Int {
        var lines = 0
        var index = 0
        while index < text.count {
            if text[index] == UInt8(ascii: "\n") {
                lines += 1
            } else if text[index] == UInt8(ascii: "\r") {
                lines += 1
                if index + 1 < text.count, text[index + 1] == UInt8(ascii: "\n") { index += 1 }
            }
            index += 1
        }
        return lines
    }

    /// The line and column (both from 1) of `position`.
    func location(of position: AbsolutePosition) -> (line: Int, column: Int) {
        let offset = position.utf8Offset
        // The last line that starts at or before the offset.
        var low = 0, high = starts.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= offset { low = middle } else { high = middle }
        }
        return (low + 1, offset - starts[low] + 1)
    }
}

/// The initialisers that take an image's name, by type and the first argument's label.
private let namedInitialisers: Set<String> = ["UIImage", "NSImage", "Image", "SwiftUI.Image", "UIKit.UIImage", "AppKit.NSImage", "WKImage"]

private final class ReferenceVisitor: SyntaxVisitor {
    let file: String
    let lines: LineStarts
    /// Lines of the file before the piece parsed.
    let lineOffset: Int
    var references: [CodeReference] = []
    /// String literals already counted as an API's argument.
    private var consumed = Set<SyntaxIdentifier>()

    init(file: String, lines: LineStarts, lineOffset: Int = 0) {
        self.file = file
        self.lines = lines
        self.lineOffset = lineOffset
        super.init(viewMode: .sourceAccurate)
    }

    private func add(_ node: some SyntaxProtocol, _ kind: CodeReference.Kind, _ name: String, api: String? = nil) {
        let location = lines.location(of: node.positionAfterSkippingLeadingTrivia)
        references.append(CodeReference(file: file, line: location.line + lineOffset, column: location.column, kind: kind, name: name, api: api))
    }

    /// Symbols added as an API's argument, by their name token: `Image(.logo)` is seen as the
    /// call's argument and again, later (the call is its ancestor), as a member access, and counts
    /// once. Only these are kept: every other member access is visited once.
    private var symbolsWithAPI = Set<SyntaxIdentifier>()

    /// A member access as an asset symbol, with what it is a member of.
    private func addSymbol(_ member: MemberAccessExprSyntax, api: String? = nil) {
        if api != nil {
            guard symbolsWithAPI.insert(member.declName.id).inserted else { return }
        } else if !symbolsWithAPI.isEmpty, symbolsWithAPI.contains(member.declName.id) {
            return
        }
        let location = lines.location(of: member.declName.positionAfterSkippingLeadingTrivia)
        references.append(
            CodeReference(
                file: file, line: location.line + lineOffset, column: location.column, kind: .symbol, name: member.declName.baseName.text, api: api,
                qualifier: qualifier(member.base)))
    }

    /// The names of a member chain (`Asset.Onboarding` for `Asset.Onboarding.world`'s base), read
    /// from its tokens: printing a subtree for every member access made a large file quadratic.
    /// Nil when the base is not a plain chain (a call's result, a subscript) or is empty.
    private func qualifier(_ base: ExprSyntax?) -> String? {
        // The names' raw text, joined once: a `String` per name was most of the cost.
        var names: [SyntaxText] = []
        var next = base
        while let expression = next, names.count < 8 {
            if let member = expression.as(MemberAccessExprSyntax.self) {
                names.append(member.declName.baseName.rawText)
                next = member.base
            } else if let reference = expression.as(DeclReferenceExprSyntax.self) {
                names.append(reference.baseName.rawText)
                next = nil
            } else {
                return nil
            }
        }
        guard !names.isEmpty else { return nil }
        var joined: [UInt8] = []
        for (index, name) in names.reversed().enumerated() {
            if index > 0 { joined.append(UInt8(ascii: ".")) }
            joined.append(contentsOf: name)
        }
        return String(decoding: joined, as: UTF8.self)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        // The callee's name from its tokens: printing the called expression copied a whole
        // chain of calls at each call in it (a third of `unused`'s time on a real app).
        let callee: String
        if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base == nil {
            callee = "." + member.declName.baseName.text
        } else {
            callee = qualifier(node.calledExpression) ?? ""
        }
        let type = callee.hasSuffix(".init") ? String(callee.dropLast(5)) : callee
        if formatReference(node, type: type) { return .visitChildren }
        // `Image(uiImage: .init(named: "x"))`: an implicit member initialiser with a `named:` label
        // is the image API of the type the context expects.
        let implicit = callee == ".init" && node.arguments.first?.label?.text == "named"
        guard namedInitialisers.contains(type) || implicit, let first = node.arguments.first else { return .visitChildren }
        let label = first.label?.text
        let api = implicit ? ".init(named:)" : "\(type)(\(label.map { $0 + ":" } ?? "_:"))"
        switch label {
        case nil, "named":
            if let literal = first.expression.as(StringLiteralExprSyntax.self) {
                literalReference(literal, kind: .named, api: api)
            } else if let member = first.expression.as(MemberAccessExprSyntax.self) {
                // `Image(.tabHome)`: an asset symbol, with the API that takes it.
                addSymbol(member, api: api)
            }
        case "systemName":
            if let literal = first.expression.as(StringLiteralExprSyntax.self) { literalReference(literal, kind: .system, api: api) }
        case "resource":
            if let member = first.expression.as(MemberAccessExprSyntax.self) { addSymbol(member, api: api) }
        default:
            break
        }
        return .visitChildren
    }

    /// The types whose `format:` initialiser builds a string as `stringWithFormat:` does.
    private static let formatting: Set<String> = ["String", "NSString", "Swift.String", "Foundation.NSString"]

    /// `String(format: "onboarding_step%d", n)`, `NSString(format:)` and
    /// `String.localizedStringWithFormat("…")`: the format with a hole for each conversion
    /// (`onboarding_step*`), as Objective-C's `stringWithFormat:` is read. Whether it was one.
    private func formatReference(_ node: FunctionCallExprSyntax, type: String) -> Bool {
        guard let first = node.arguments.first, let literal = first.expression.as(StringLiteralExprSyntax.self) else { return false }
        let isFormat =
            (Self.formatting.contains(type) && first.label?.text == "format")
            || (type.hasSuffix("localizedStringWithFormat") && first.label == nil)
        guard isFormat, literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) else { return false }
        let format = literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
        let pattern = ObjCReferences.pattern(format)
        guard pattern != format, CodeReference.isNamingPattern(pattern) else { return false }
        consumed.insert(literal.id)
        add(literal, .dynamic, pattern)
        return true
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "imageLiteral", let first = node.arguments.first, let literal = first.expression.as(StringLiteralExprSyntax.self) {
            literalReference(literal, kind: .named, api: "#imageLiteral(resourceName:)")
        }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        // Every `.name` and `X.name`: a generated asset symbol when an asset's name maps to it.
        let name = node.declName.baseName.text
        if startsLikeAName(name) { addSymbol(node) }
        return .visitChildren
    }

    /// Whether `name` starts with a letter or `_` (not a tuple index `.0`): an ASCII first byte
    /// answers without `Character`'s Unicode properties, asked of every member access.
    private func startsLikeAName(_ name: String) -> Bool {
        guard let first = name.utf8.first else { return false }
        if first < 0x80 { return first == UInt8(ascii: "_") || (first | 0x20) >= UInt8(ascii: "a") && (first | 0x20) <= UInt8(ascii: "z") }
        return name.first?.isLetter == true
    }

    /// `"flag_" + code` and `prefix + "_dark"`: a run of `+` with a string literal in it is a
    /// pattern, `*` for each operand that is not a literal (`flag_*`, `*_dark`). Its plain
    /// literals stay weak references of their own; an interpolated one is part of the run's
    /// pattern only, as its own would be wider (`icon-*` for `"icon-\(style)" + "@2x"`).
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        var run: [ExprSyntax] = []
        func finish() {
            defer { run.removeAll() }
            guard run.count > 1, run.contains(where: { $0.is(StringLiteralExprSyntax.self) }) else { return }
            var pattern = ""
            for operand in run {
                let piece = operand.as(StringLiteralExprSyntax.self).map(Self.pattern) ?? "*"
                for character in piece where !(character == "*" && pattern.hasSuffix("*")) { pattern.append(character) }
            }
            guard CodeReference.isNamingPattern(pattern) else { return }
            add(run[0], .dynamic, pattern)
            for literal in run.compactMap({ $0.as(StringLiteralExprSyntax.self) })
            where literal.segments.contains(where: { !$0.is(StringSegmentSyntax.self) }) {
                consumed.insert(literal.id)
            }
        }
        var expectingOperand = true
        for element in node.elements {
            if expectingOperand {
                run.append(element)
            } else if element.as(BinaryOperatorExprSyntax.self)?.operator.text != "+" {
                finish()
            }
            expectingOperand.toggle()
        }
        finish()
        return .visitChildren
    }

    /// A literal's text with `*` for each interpolation.
    private static func pattern(_ literal: StringLiteralExprSyntax) -> String {
        literal.segments.map { $0.as(StringSegmentSyntax.self)?.content.text ?? "*" }.joined()
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        if !consumed.contains(node.id) { literalReference(node, kind: .weak, api: nil) }
        return .skipChildren
    }

    /// A literal's text, or its pattern (`*` for each interpolation) when it has holes.
    private func literalReference(_ literal: StringLiteralExprSyntax, kind: CodeReference.Kind, api: String?) {
        consumed.insert(literal.id)
        var text = ""
        var dynamic = false
        for segment in literal.segments {
            if let plain = segment.as(StringSegmentSyntax.self) {
                text += plain.content.text
            } else {
                text += "*"
                dynamic = true
            }
        }
        if dynamic {
            // Holes with fewer than two letters or digits around them (`"\(a)-\(b)"`) match
            // nearly any name: such a pattern names nothing.
            guard CodeReference.isNamingPattern(text) else { return }
            add(literal, .dynamic, text, api: api)
        } else if !text.isEmpty {
            add(literal, kind, text, api: api)
        }
    }
}
