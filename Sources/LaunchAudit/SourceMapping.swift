import AppBundle
import CodeReferences

extension AuditResult {
    /// The rules whose findings are fixed where the code asks for the name.
    static let fixedInCode: Set<String> = [MissingImageRule.id, RepeatedLoadRule.id, UncachedRepeatRule.id]

    /// Gives every finding the place in the source tree where it is fixed: its first asset the
    /// tree holds (catalog entry or loose file), else an interface document that names one of
    /// its names. Findings with neither keep their bundle or log location. The index's reading
    /// problems become warnings, so a source root that maps nothing does not pass silently.
    public mutating func locateSources(in index: SourceIndex, root: String, inventory: BundleInventory, code: CodeIndex? = nil) {
        sourceRoot = root
        // The code that asks for each name: an image API's argument first, then a generated
        // symbol, then a pattern it fits; a bare literal is too uncertain to point at.
        var asked: [String: SourceLocation] = [:]
        var literals: [String: SourceLocation] = [:]
        var patterns: [CodeReference] = []
        for reference in code?.references ?? [] {
            let place = SourceLocation(path: reference.file, position: TextPosition(line: reference.line, column: reference.column))
            switch reference.kind {
            case .named: if asked[reference.name] == nil { asked[reference.name] = place }
            case .weak: if literals[reference.name] == nil { literals[reference.name] = place }
            case .dynamic:
                var normalised = reference
                normalised.name = UnusedImages.stripped(reference.name)
                if CodeReference.isNamingPattern(normalised.name) { patterns.append(normalised) }
            default: continue
            }
        }
        // The most specific pattern first: `icon-dark-*` says more about `icon-dark-blue` than `icon-*`.
        patterns.sort { a, b in
            let (ka, kb) = (a.name.filter { $0 != "*" }.count, b.name.filter { $0 != "*" }.count)
            return ka != kb ? ka > kb : (a.file, a.line, a.column) < (b.file, b.line, b.column)
        }
        let images = Dictionary(inventory.images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for i in findings.indices {
            let finding = findings[i]
            let fromAssets = finding.assets.lazy.compactMap { images[$0].flatMap(index.location(of:)) }.first
            findings[i].source =
                fromAssets ?? finding.names.lazy.compactMap { index.interfaceLocation(of: $0, compiledIn: inventory.references) }.first
            // Only findings about how a name is asked for are fixed in the code; an image's size or
            // packaging is fixed in the asset.
            guard Self.fixedInCode.contains(finding.rule) else { continue }
            // The line that names it exactly (an image API's argument, then any literal equal to
            // it) outranks a pattern it merely fits.
            findings[i].code =
                finding.names.lazy.compactMap { asked[$0] }.first
                ?? finding.names.lazy.compactMap { literals[$0] }.first
                ?? finding.names.lazy.compactMap { name in
                    patterns.first { UnusedImages.matches($0.name, name) }.map {
                        SourceLocation(path: $0.file, position: TextPosition(line: $0.line, column: $0.column))
                    }
                }.first
        }
        warnings += index.warnings.map { AuditWarning(origin: .sourceRoot(path: root), message: $0) }
        let mappable = findings.filter { !$0.assets.isEmpty || !$0.names.isEmpty }
        if !mappable.isEmpty, !mappable.contains(where: { $0.source != nil || $0.code != nil }) {
            warnings.append(
                AuditWarning(
                    origin: .sourceRoot(path: root),
                    message:
                        "no finding maps to a file in this source root (\(index.catalogSlots.count) catalog slots, \(index.imageFiles.count) image files, \(index.interfaceImages.count) interface images); findings keep their bundle locations"
                ))
        }
    }
}
