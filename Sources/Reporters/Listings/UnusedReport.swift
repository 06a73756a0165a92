import CodeReferences
import ImgtraceSupport
import LaunchAudit

/// The `unused` listing: verdicts by bytes, what kept each image, and the totals to save.
public enum UnusedReport {
    private static func order(_ assets: [UnusedImages.Asset]) -> [UnusedImages.Asset] {
        assets.sorted { a, b in
            let ra = UnusedImages.Verdict.allCases.firstIndex(of: a.verdict)!, rb = UnusedImages.Verdict.allCases.firstIndex(of: b.verdict)!
            if ra != rb { return ra < rb }
            if a.bytesOnDisk != b.bytesOnDisk { return a.bytesOnDisk > b.bytesOnDisk }
            return (a.bundle, a.name) < (b.bundle, b.name)
        }
    }

    public static func text(_ assets: [UnusedImages.Asset], code: CodeIndex?, logs: Int, all: Bool) -> String {
        let unused = assets.filter { $0.verdict == .unused }
        let saved = unused.reduce(0) { $0.addingSaturating($1.bytesOnDisk) }
        var out = "imgtrace unused images\n"
        out += "images   \(assets.count) shipped (image sets and loose images)\n"
        if let code {
            out += "code     \(code.swiftFiles) Swift and \(code.objcFiles) Objective-C files, \(code.references.count) references\n"
        } else {
            out += "code     none searched (--source-root): only nibs, plists and launches keep images\n"
        }
        out += "launches \(logs)\n\n"
        out += "UNUSED: \(unused.count) images, \(kibibytes(saved)) on disk to save\n"
        for asset in order(assets) where asset.verdict != .used || all {
            out += "  \(asset.verdict.rawValue): \(SafeText.quoted(asset.name)) (\(kibibytes(asset.bytesOnDisk)), \(asset.paths.count) file\(asset.paths.count == 1 ? "" : "s"))\n"
            out += "      \(SafeText.visible(asset.paths[0]))\n"
            for evidence in asset.keptBy.prefix(3) { out += "      kept by: \(SafeText.visible(evidence.text))\n" }
        }
        return out
    }

    public static func json(_ assets: [UnusedImages.Asset], code: CodeIndex?, logs: Int) -> [UInt8] {
        var w = JSONText()
        w.beginObject()
        w.field("schemaVersion", 1)
        w.field("sourceFiles", code.map { $0.swiftFiles + $0.objcFiles })
        w.field("references", code?.references.count)
        w.field("launches", logs)
        w.field("bytesToSave", assets.filter { $0.verdict == .unused }.reduce(0) { $0.addingSaturating($1.bytesOnDisk) })
        w.key("images")
        w.beginArray()
        for asset in order(assets) {
            w.beginObject()
            w.field("name", asset.name)
            w.field("bundle", asset.bundle)
            w.field("verdict", asset.verdict.rawValue)
            w.field("bytesOnDisk", asset.bytesOnDisk)
            w.field("paths", strings: asset.paths)
            w.field("keptBy", strings: asset.keptBy.map(\.text))
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes + [0x0A]
    }
}
