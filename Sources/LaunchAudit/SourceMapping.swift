import AppBundle

extension AuditResult {
    /// Gives every finding the place in the source tree where it is fixed: its first asset the
    /// tree holds (catalog entry or loose file), else an interface document that names one of
    /// its names. Findings with neither keep their bundle or log location. The index's reading
    /// problems become warnings, so a source root that maps nothing does not pass silently.
    public mutating func locateSources(in index: SourceIndex, root: String, inventory: BundleInventory) {
        sourceRoot = root
        let images = Dictionary(inventory.images.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for i in findings.indices {
            let finding = findings[i]
            let fromAssets = finding.assets.lazy.compactMap { images[$0].flatMap(index.location(of:)) }.first
            findings[i].source =
                fromAssets ?? finding.names.lazy.compactMap { index.interfaceLocation(of: $0, compiledIn: inventory.references) }.first
        }
        warnings += index.warnings.map { AuditWarning(origin: .sourceRoot(path: root), message: $0) }
        let mappable = findings.filter { !$0.assets.isEmpty || !$0.names.isEmpty }
        if !mappable.isEmpty, !mappable.contains(where: { $0.source != nil }) {
            warnings.append(
                AuditWarning(
                    origin: .sourceRoot(path: root),
                    message:
                        "no finding maps to a file in this source root (\(index.catalogSlots.count) catalog slots, \(index.imageFiles.count) image files, \(index.interfaceImages.count) interface images); findings keep their bundle locations"
                ))
        }
    }
}
