import ImgtraceSupport
import AppBundle

/// `imgtrace catalog --format json`: `{"schemaVersion":1,"bundles":[…],"images":[…],"references":[…],"junk":[…],"warnings":[…],"aliases":[…]}`.
public enum CatalogJSONReport {
    public static func render(_ inventory: BundleInventory) -> [UInt8] {
        var bytes: [UInt8] = []
        emit(inventory) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Writes the document to `sink` as it is made, a run of images at a time (20,000 images
    /// were a 12 MB buffer, copied three times on its way out).
    package static func write(_ inventory: BundleInventory, to sink: ByteSink) {
        emit(inventory) { sink.write($0) }
    }

    private static func emit(_ inventory: BundleInventory, _ out: (UnsafeBufferPointer<UInt8>) -> Void) {
        var w = JSONText()
        w.beginObject()
        w.field("schemaVersion", 1)
        w.key("bundles")
        w.beginArray()
        for bundle in inventory.bundles { writeBundle(bundle, &w) }
        w.endArray()
        w.key("images")
        w.beginArray()
        for part in imageRuns(inventory.images) {
            w.raw(part)
            w.drain(out)
        }
        w.endArray()
        w.objects("references", inventory.references) { w, reference in
            w.field("bundle", reference.bundle)
            w.field("file", reference.file)
            w.field("kind", reference.kind.rawValue)
            w.field("name", reference.name)
        }
        w.field("junk", strings: inventory.junk)
        w.field("warnings", strings: inventory.warnings)
        w.objects("aliases", inventory.aliases) { w, alias in
            w.field("bundle", alias.bundle)
            w.field("name", alias.name)
            w.field("target", alias.target)
            w.field("via", alias.via)
            w.field("file", alias.file)
        }
        w.endObject()
        w.drain(out)
        [UInt8(0x0A)].withUnsafeBufferPointer(out)
    }

    /// The images in runs of about 500, each run's objects comma-separated by its own writer.
    /// Thousands are written on every core, the runs kept in order: the same bytes as one writer's.
    static func imageRuns(_ images: [BundleImage]) -> [JSONText] {
        let runs = min(max(images.count / 512, images.isEmpty ? 0 : 1), 64)
        let write = { (run: Int) -> JSONText in
            let range = (images.count * run / runs)..<(images.count * (run + 1) / runs)
            var part = JSONText(capacity: 640 * range.count)
            for index in range { writeImage(images[index], &part) }
            return part
        }
        return images.count >= 4096 ? parallelMap(Array(0..<runs), write) : (0..<runs).map(write)
    }

    static func writeBundle(_ bundle: BundleInfo, _ w: inout JSONText) {
        w.beginObject()
        w.field("id", bundle.id)
        w.field("kind", bundle.kind.rawValue)
        w.field("name", bundle.name)
        w.field("resourceRoot", bundle.resourceRoot)
        w.field("infoPlist", bundle.infoPlistPath)
        w.field("localizations", strings: bundle.localizations)
        if let info = bundle.info {
            w.field("bundleIdentifier", info.bundleIdentifier)
            w.field("platform", info.platform)
            w.key("deviceFamily")
            w.beginArray()
            for family in info.deviceFamily { w.int(family) }
            w.endArray()
            w.field("iconFiles", strings: info.iconFiles)
            w.field("iconNames", strings: info.iconNames)
            w.field("launchImages", strings: info.launchImages)
            w.field("launchStoryboard", info.launchStoryboard)
            w.field("launchScreen", info.hasLaunchScreen)
            w.field("launchScreenImage", info.launchScreenImage)
            w.field("mainInterface", info.mainInterface)
        }
        w.endObject()
    }

    /// One image with the contract's fields; shared by `analyze` for resolved assets.
    package static func writeImage(_ image: BundleImage, _ w: inout JSONText) {
        // Fixed keys as their JSON text: 20,000 images would check every key for escapes.
        w.beginObject()
        w.rawField(#""id":"#, image.id)
        w.rawField(#""bundle":"#, image.bundle)
        w.rawField(#""path":"#, image.path)
        w.rawField(#""source":"#, image.source.rawValue)
        w.rawField(#""name":"#, image.name)
        w.rawField(#""format":"#, image.format)
        w.rawField(#""cgbi":"#, image.cgbi)
        w.rawField(#""pixelWidth":"#, image.pixelWidth)
        w.rawField(#""pixelHeight":"#, image.pixelHeight)
        if image.isVector {
            w.field("pointWidth", number: image.pointWidth)
            w.field("pointHeight", number: image.pointHeight)
        }
        w.rawField(#""scale":"#, image.scale)
        w.rawField(#""idiom":"#, image.idiom.name)
        w.rawField(#""appearance":"#, image.appearance)
        if let localization = image.localization { w.rawField(#""localization":"#, localization) }
        w.rawField(#""vector":"#, image.isVector)
        w.rawField(#""bytesOnDisk":"#, image.bytesOnDisk)
        w.rawField(#""decodedBytes":"#, image.decodedBytes)
        w.rawField(#""digest":"#, image.digest)
        if !image.details.isEmpty {
            w.key("details")
            w.beginObject()
            for (key, value) in image.details.sorted(by: { $0.key < $1.key }) { w.field(key, value) }
            w.endObject()
        }
        w.endObject()
    }
}

/// `imgtrace catalog --format text`: per bundle, a summary and its images sorted by decoded size.
public enum CatalogTextReport {
    public static func render(_ inventory: BundleInventory, input: String, width: Int = 120) -> String {
        var out = ""
        // Grouped once: filtering every image per bundle is quadratic with thousands of bundles.
        let imagesByBundle = Dictionary(grouping: inventory.images, by: \.bundle)
        for bundle in inventory.bundles {
            let images = imagesByBundle[bundle.id] ?? []
            let title = (bundle.id == BundleID.top ? bundle.name : bundle.id) + " (\(label(bundle.kind)))"
            out += TextTable.wrapped("== " + title, width: width, first: "", rest: "   ") + "\n"
            if let info = bundle.info {
                var facts: [String] = []
                if let id = info.bundleIdentifier { facts.append(id) }
                if let platform = info.platform { facts.append(platform) }
                if !info.iconFiles.isEmpty || !info.iconNames.isEmpty {
                    facts.append("icons: " + (info.iconNames + info.iconFiles).joined(separator: ", "))
                } else if bundle.kind == .app {
                    facts.append("no app icon")
                }
                if let storyboard = info.launchStoryboard { facts.append("launch screen: \(storyboard)") }
                if !info.launchImages.isEmpty { facts.append("launch images: " + info.launchImages.joined(separator: ", ")) }
                if !facts.isEmpty { out += TextTable.wrapped(facts.joined(separator: " · "), width: width, first: "", rest: "  ") + "\n" }
            }
            if !bundle.localizations.isEmpty {
                out += TextTable.wrapped("localizations: " + bundle.localizations.joined(separator: ", "), width: width, first: "", rest: "  ") + "\n"
            }
            out += TextTable.wrapped(summary(images), width: width, first: "", rest: "  ") + "\n"
            guard !images.isEmpty else { out += "\n"; continue }
            let sorted = images.sorted { a, b in
                (a.decodedBytes ?? -1, b.id) > (b.decodedBytes ?? -1, a.id)
            }
            let rows = sorted.map { image -> [String] in
                let pixels =
                    ImageLabel.pixels(image)
                    ?? image.pointWidth.flatMap { w in image.pointHeight.map { "\(formatPoints(w))×\(formatPoints($0)) pt" } } ?? "-"
                return [
                    TextTable.escapeName(image.name), image.scale == 0 ? "-" : "@\(image.scale)x", image.idiom.name,
                    image.appearance ?? "-", (image.format ?? "?") + (image.cgbi ? " (CgBI)" : ""), pixels,
                    image.decodedBytes.map(kibibytes) ?? "-", kibibytes(image.bytesOnDisk),
                    TextTable.escapeName(image.path),
                ]
            }
            out += TextTable.render(
                header: ["NAME", "SCALE", "IDIOM", "APPEARANCE", "FORMAT", "PIXELS", "DECODED", "ON DISK", "WHERE"],
                rows: rows, rightAligned: [6, 7], width: width)
            out += "\n"
        }
        let references = inventory.references
        if !references.isEmpty {
            out += TextTable.wrapped("images named by " + ReferenceKindCounts(references).description, width: width, first: "", rest: "  ") + "\n"
        }
        if !inventory.junk.isEmpty {
            out += TextTable.wrapped("junk that should not ship (\(inventory.junk.count)): " + inventory.junk.joined(separator: ", "), width: width, first: "", rest: "  ") + "\n"
        }
        for warning in inventory.warnings { out += TextTable.wrapped("warning: " + warning, width: width, first: "", rest: "  ") + "\n" }
        return out
    }

    static func summary(_ images: [BundleImage]) -> String {
        var bySource: [String: Int] = [:]
        var byFormat: [String: Int] = [:]
        for image in images {
            bySource[label(image.source), default: 0] += 1
            byFormat[(image.format ?? "unknown").uppercased(), default: 0] += 1
        }
        let disk = images.map(\.bytesOnDisk).saturatingSum()
        let decoded = images.map { $0.decodedBytes ?? 0 }.saturatingSum()
        func list(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        }
        if images.isEmpty { return "no images" }
        return "\(counted(images.count, "image")) (\(list(bySource)); \(list(byFormat))), \(kibibytes(disk)) on disk, \(kibibytes(decoded)) decoded"
    }

    /// How a listing names where an image is.
    static func label(_ source: ImageSource) -> String {
        switch source {
        case .file: return "loose"
        case .assetCatalog: return "in Assets.car"
        case .sourceCatalog: return "in .xcassets"
        case .systemImages: return "system"
        }
    }

    /// How a listing names a bundle's kind.
    static func label(_ kind: BundleKind) -> String {
        switch kind {
        case .app: return "app"
        case .appex: return "app extension"
        case .framework: return "framework"
        case .bundle: return "resource bundle"
        case .xctest: return "test bundle"
        case .sourceCatalog: return "asset catalog source"
        case .systemImages: return "system images"
        case .folder: return "folder"
        }
    }

    static func formatPoints(_ value: Double) -> String {
        value == value.rounded() ? String(Int(saturating: value)) : String(format1(value))
    }

    private static func format1(_ value: Double) -> String {
        let tenths = Int(saturating: (value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}

/// "nibs: 3, Info.plist's app icons: 2" — counts of references by what makes them.
struct ReferenceKindCounts: CustomStringConvertible {
    let counts: [(String, Int)]
    init(_ references: [ImageReference]) {
        var c: [String: Int] = [:]
        for r in references { c[Self.label(r.kind), default: 0] += 1 }
        counts = c.sorted { $0.key < $1.key }
    }

    /// What a kind of reference is, in the words of the listing.
    static func label(_ kind: ReferenceKind) -> String {
        switch kind {
        case .nib: return "nibs and storyboards"
        case .appIcon: return "Info.plist's app icons"
        case .launchImage: return "Info.plist's launch images"
        case .launchScreen: return "the launch screen"
        }
    }

    var description: String { counts.map { "\($0.0): \($0.1)" }.joined(separator: ", ") }
}
