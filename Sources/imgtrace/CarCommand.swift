import ArgumentParser
import AssetCatalog
import Foundation
import ImgtraceSupport
import Reporters

/// `imgtrace car FILE.car`: every rendition of a compiled catalog, as assetutil lists them.
struct CarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "car",
        abstract: "List the renditions of a compiled asset catalog (Assets.car), as `assetutil --info` does.",
        discussion: CommandHelp.discussion(
            "Reads the catalog on any OS without decompressing anything. The JSON has assetutil's key names, so scripts can swap one for the other; --format text is a table sorted by name. For an .app or .ipa, `imgtrace catalog` lists every image and the catalogs inside.",
            examples: [
                "imgtrace car App.app/Assets.car",
                "imgtrace car Assets.car --format text",
            ])
    )

    @Argument(help: "The compiled catalog.", completion: .file(extensions: ["car"]))
    var file: String

    @Option(help: "Output format; json is assetutil's.")
    var format: ListingFormat = .json

    @OptionGroup var width: ListingWidth

    func run() throws {
        if let hint = Self.bundleHint(for: file) { throw InputError(path: file, reason: hint) }
        let catalog = try CarCatalog.read(contentsOf: file)
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .json: sink.write(CarJSONReport.render(catalog))
        case .text: sink.write(CarTextReport.render(catalog, file: file, width: width.columns))
        }
        try ReportFile.finishStandardOutput(sink)
    }

    /// What to run instead when `path` is an app, a folder or a zip archive (an `.ipa`) rather
    /// than a compiled catalog: `catalog` reads those, and the catalogs inside are named.
    static func bundleHint(for path: String) -> String? {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            let walk = try? DirectoryWalk(root: path, links: .listed, maxEntries: 100_000)
            let cars = (walk?.entries ?? []).filter { $0.kind == .file && $0.path.hasSuffix(".car") }.prefix(3).map(\.path)
            let inside = cars.isEmpty ? "" : "; the compiled catalogs inside: " + cars.map { "`\($0)`" }.joined(separator: ", ")
            return "a folder (an app or bundle?), not a compiled catalog: `imgtrace catalog \(path)` lists its images\(inside)"
        }
        // Only a regular file is opened here: a named pipe would block; MappedFile refuses it.
        guard (try? fm.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular,
            let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        guard magic == Data([0x50, 0x4B, 0x03, 0x04]) else { return nil }
        return "a zip archive (an .ipa?), not a compiled catalog: `imgtrace catalog \(path)` lists its images and reads the catalogs inside it"
    }
}
