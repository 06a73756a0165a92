import Foundation
import TestSupport

/// Full-size inputs of the classes in issue 12 that hurt by size rather than by shape, written
/// to disk for `scripts/bench-hostile.sh`, which times each command on them.
enum Samples {
    static func write(to folder: String) throws {
        let fm = FileManager.default
        func file(_ path: String, _ bytes: [UInt8]) throws {
            let url = URL(fileURLWithPath: folder + "/" + path)
            try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        // 20,000 renditions that share one id.
        let same = (0..<20_000).map { _ in CatalogWriter.Image(facet: "same", name: "same.png") }
        try file("renditions-one-id.app/Assets.car", CatalogWriter.catalog(same))
        try file("renditions-one-id.app/Info.plist", Seeds.infoPlist)
        // 150,000 icon names.
        let icons = (0..<150_000).map { BinaryPlistWriter.Value.string("Icon\($0)") }
        try file("icon-files.app/Info.plist", BinaryPlistWriter.build(.dict([("CFBundleIconFiles", .array(icons))])))
        // 14,000 nested bundles.
        for i in 0..<14_000 { try file("nested.app/PlugIns/P\(i).bundle/Default.png", Seeds.smallPNG) }
        try file("nested.app/Info.plist", Seeds.infoPlist)
        // Thousands of renditions sharing one 64 KiB key block and one value block.
        let many = (0..<20_000).map { CatalogWriter.Image(facet: "f", name: "n\($0).png") }
        try file(
            "shared-blocks.car",
            CatalogWriter.catalog(
                many,
                entries: { bom, entries in
                    let key = bom.add(le16(2) + le16(1) + le16(1) + [UInt8](repeating: 7, count: 65_530))
                    return entries.map { _ in (key: key, value: entries[0].value) }
                }))
        // A log of 200,000 hits mixing every value shape, names interned and rejected.
        var log = ""
        for i in 0..<50_000 {
            log += "(lldb)  po $arg3\nicon_\(i % 977)\n\"rejected_\(i)\"\n(char *) 0x1 \"bare_\(i % 31)\"\n"
        }
        try file("mixed-shapes.log", Array(log.utf8))
    }
}
