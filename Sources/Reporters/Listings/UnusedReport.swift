import AuditPolicy
import ImgtraceSupport
import LaunchAudit
import UnusedAudit

/// What the reports of `imgtrace unused` show beside the findings: what was searched, the bytes
/// to save, and every shipped image with its verdict and what kept it. Each format's reporter
/// lays these out in its own way (`UnusedResult.summary`).
enum UnusedReport {
    /// Images in report order: by verdict (unused first), then by bytes in the app, then by name.
    static func ordered(_ assets: [UnusedImages.Asset]) -> [UnusedImages.Asset] {
        let rank = Dictionary(uniqueKeysWithValues: UnusedImages.Verdict.allCases.enumerated().map { ($1, $0) })
        return assets.sorted { a, b in
            if a.verdict != b.verdict { return rank[a.verdict]! < rank[b.verdict]! }
            if a.bytesOnDisk != b.bytesOnDisk { return a.bytesOnDisk > b.bytesOnDisk }
            return (a.bundle, a.name) < (b.bundle, b.name)
        }
    }

    /// The images a report lists: every one with `all`, else those not plainly used.
    static func listed(_ unused: UnusedSummary, all: Bool) -> [UnusedImages.Asset] {
        ordered(unused.assets.filter { all || $0.verdict != .used })
    }

    /// The headline figures as (value, label), in the order every format shows them.
    static func figures(_ unused: UnusedSummary, device: DeviceProfile) -> [(value: String, label: String)] {
        func count(_ verdict: UnusedImages.Verdict, _ noun: String, _ rest: String = "") -> (value: String, label: String) {
            let n = unused.assets.filter { $0.verdict == verdict }.count
            return ("\(n)", ImgtraceSupport.noun(for: n, noun) + rest)
        }
        let downloaded = unused.assets.filter { $0.verdict == .unused }.map(\.deviceBytes).saturatingSum()
        return [
            count(.unused, "unused image"), (kibibytes(unused.bytesToSave), "in the app to save"),
            (kibibytes(downloaded), "fewer downloaded by \(device.id)"), count(.dynamicOnly, "image", " loaded only at run time"),
            count(.neverLoaded, "image", " never loaded"), (String(unused.assets.count), ImgtraceSupport.noun(for: unused.assets.count, "image shipped", "images shipped")),
        ]
    }

    /// Under a passing verdict of `unused`, what the run found that does not fail it and the
    /// option that would (`2 unused images, 333.8 KiB — not gating: add --fail-on warning to fail`).
    static func notGatingLine(_ result: UnusedResult, passes: Bool) -> String? {
        guard passes else { return nil }
        let unused = result.summary
        let found = result.findings.filter { $0.rule == UnusedImages.Verdict.unused.rawValue }
        guard let gravest = found.map(\.severity).min() else { return nil }
        return "\(counted(found.count, "unused image")), \(kibibytes(unused.bytesToSave)) — not gating: add `--fail-on \(gravest.rawValue)` to fail"
    }

    /// What was searched, in one sentence.
    static func searched(_ unused: UnusedSummary, launches: Int) -> String {
        var text: String
        if let swift = unused.swiftFiles, let objc = unused.objcFiles {
            text =
                "code: \(counted(unused.references ?? 0, "reference")) to shipped images in \(counted(swift, "Swift file")),"
                + " \(counted(objc, "Objective-C file")) and \(counted(unused.dataFiles ?? 0, "data file"))"
        } else {
            text =
                "code: none searched (--source-root): nibs, plists, catalogs, the strings of the app's executables and launches keep images,"
                + " and what nothing keeps is a candidate (a note)"
        }
        text += "; \(counted(launches, "launch"))" + (launches == 0 ? " (none given: nothing is judged never loaded or dynamic-only)" : "")
        if unused.ignored > 0 { text += "; \(counted(unused.ignored, "image")) ignored by the config, in no figure" }
        return text
    }

    /// Which projects said what ships, and how many of the tree's images none of their targets
    /// copies (apart from every figure); nil when the bundle was not a source tree with a project.
    static func shipping(_ unused: UnusedSummary) -> String? {
        guard let notShipped = unused.notShipped else { return nil }
        let bytes = notShipped.map(\.bytesOnDisk).saturatingSum()
        let files = notShipped.map(\.paths.count).reduce(0, +)
        return "shipping: what the targets of \(unused.projects.joined(separator: ", ")) copy into their products;"
            + " \(counted(notShipped.count, "image")) of the tree (\(counted(files, "file")), \(kibibytes(bytes))) ship in no target and are in no figure"
            + (notShipped.isEmpty ? "" : " (--all lists the files)")
    }

    /// The tree's images no target ships, by path.
    static func notShippedPaths(_ unused: UnusedSummary) -> [String] {
        (unused.notShipped ?? []).flatMap(\.paths).sorted()
    }

    /// The header of the image table and one image's cells: the name first, so a long one goes
    /// on its own line and the rest of the table stays in columns.
    static let columns = ["NAME", "VERDICT", "FILES", "IN APP", "DOWNLOADED", "KEPT BY"]
    /// What keeps an image is prose: it wraps within this many columns.
    static let keptByWidth = 48

    static func cells(_ asset: UnusedImages.Asset) -> [String] {
        [
            asset.name, asset.verdict.rawValue, "\(asset.paths.count)", kibibytes(asset.bytesOnDisk),
            asset.inCatalog ? kibibytes(asset.deviceBytes) : "all", asset.keptBy.first?.text ?? "—",
        ]
    }

    /// The `images` array of the JSON report: every shipped image, listed or not.
    static func writeImages(_ unused: UnusedSummary, _ w: inout JSONText) {
        w.objects("images", ordered(unused.assets)) { w, asset in
            w.field("name", asset.name)
            w.field("bundle", asset.bundle)
            w.field("verdict", asset.verdict.rawValue)
            w.field("bytesOnDisk", asset.bytesOnDisk)
            w.field("deviceBytes", asset.deviceBytes)
            w.field("inCatalog", asset.inCatalog)
            w.field("paths", strings: asset.paths)
            w.field("keptBy", strings: asset.keptBy.map(\.text))
            if !asset.targets.isEmpty { w.field("targets", strings: asset.targets) }
        }
        if let notShipped = unused.notShipped {
            w.field("projects", strings: unused.projects)
            w.field("notShipped", strings: notShippedPaths(unused))
            w.field("notShippedBytes", notShipped.map(\.bytesOnDisk).saturatingSum())
        }
    }
}
