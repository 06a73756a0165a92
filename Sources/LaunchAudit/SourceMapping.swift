import AppBundle
import AuditModel
import AuditRules
import CodeReferences
import UnusedAudit

/// What mapping findings back to the source tree needs of every result alike.
enum SourceMapping {
    /// `path:line` of a place in the code.
    static func label(_ place: SourceLocation) -> String {
        place.path + (place.position.map { ":\($0.line)" } ?? "")
    }

    /// The rules whose findings are fixed where the code asks for the name (each rule says;
    /// `unused`'s verdicts are about assets, never fixed in code).
    static let fixedInCode = Set(Rules.all.filter { $0.isFixedInCode }.map { $0.id })

    /// Where the code names images: an image API's argument (`asked`), a bare literal, and the
    /// patterns built at run time, the most specific first.
    static func codePlaces(
        _ code: CodeIndex?
    ) -> (asked: [String: [SourceLocation]], literals: [String: [SourceLocation]], globs: [(reference: CodeReference, glob: UnusedImages.Glob)]) {
        // The code that asks for each name: an image API's argument first, then a generated
        // symbol, then a pattern it fits; a bare literal is too uncertain to point at.
        var asked: [String: [SourceLocation]] = [:]
        var literals: [String: [SourceLocation]] = [:]
        var patterns: [CodeReference] = []
        for reference in code?.references ?? [] {
            let place = SourceLocation(path: reference.file, position: TextPosition(line: reference.line, column: reference.column))
            switch reference.kind {
            case .named: asked[reference.name, default: []].append(place)
            case .weak: literals[reference.name, default: []].append(place)
            case .dynamic: if let pattern = UnusedImages.namePattern(reference) { patterns.append(pattern) }
            default: continue
            }
        }
        // The most specific pattern first: `icon-dark-*` says more about `icon-dark-blue` than `icon-*`.
        let ranked = patterns.map { (reference: $0, literal: $0.name.utf8.count - $0.name.utf8.filter { $0 == UInt8(ascii: "*") }.count) }
            .sorted { a, b in
                a.literal != b.literal ? a.literal > b.literal : (a.reference.file, a.reference.line, a.reference.column) < (b.reference.file, b.reference.line, b.reference.column)
            }
        let globs = ranked.map { (reference: $0.reference, glob: UnusedImages.Glob($0.reference.name)) }
        return (asked, literals, globs)
    }
}

extension CommandResult {
    /// Gives every finding the place in the source tree where it is fixed: its first asset the
    /// tree holds (catalog entry or loose file), else an interface document that names one of
    /// its names. Findings with neither keep their bundle or log location. The index's reading
    /// problems become warnings, so a source root that maps nothing does not pass silently.
    package mutating func locateSources(in index: SourceIndex, root: String, inventory: BundleInventory, code: CodeIndex? = nil) {
        sourceRoot = root
        let (asked, literals, globs) = SourceMapping.codePlaces(code)
        let images = Dictionary(inventory.images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for i in findings.indices {
            let finding = findings[i]
            let fromAssets = finding.assets.lazy.compactMap { images[$0].flatMap(index.location(of:)) }.first
            let source = fromAssets ?? finding.names.lazy.compactMap { index.interfaceLocation(of: $0, compiledIn: inventory.references) }.first
            // Only findings about how a name is asked for are fixed in the code; an image's size or
            // packaging is fixed in the asset.
            guard SourceMapping.fixedInCode.contains(finding.rule) else {
                findings.locate(at: i, source: source, code: nil, alsoNamedAt: nil)
                continue
            }
            // The line that names it exactly (an image API's argument, then any literal equal to
            // it) outranks a pattern it merely fits; the others are further evidence.
            var places = finding.names.flatMap { asked[$0] ?? [] } + finding.names.flatMap { literals[$0] ?? [] }
            for name in finding.names {
                for pattern in globs where pattern.glob.matches(name) {
                    places.append(SourceLocation(path: pattern.reference.file, position: TextPosition(line: pattern.reference.line, column: pattern.reference.column)))
                }
            }
            var seen = Set<String>()
            places = places.filter { seen.insert(SourceMapping.label($0)).inserted }
            var alsoNamedAt: String?
            if places.count > 1 {
                let others = places.dropFirst()
                alsoNamedAt = others.prefix(3).map(SourceMapping.label).joined(separator: ", ") + (others.count > 3 ? " and \(others.count - 3) more" : "")
            }
            findings.locate(at: i, source: source, code: places.first, alsoNamedAt: alsoNamedAt)
        }
        // A tree given as both --bundle and --source-root is read twice: its problems are told once.
        let told = Set(warnings.map(\.message))
        warnings += index.warnings.filter { !told.contains($0) }.map { AuditWarning(origin: .sourceRoot(path: root), message: $0) }
        let mappable = findings.filter { !$0.assets.isEmpty || !$0.names.isEmpty }
        if !mappable.isEmpty, !mappable.contains(where: { $0.source != nil || $0.code != nil }) {
            warnings.append(
                AuditWarning(
                    origin: .sourceRoot(path: root),
                    message:
                        "no finding maps to a file in this source root (\(index.catalogSlots.count) catalog slots, \(index.imageFiles.count) image files, "
                        + "\(index.interfaceImages.count) interface images); findings keep their bundle locations"
                ))
        }
    }
}
