import ImgtraceSupport
import Foundation

/// One image slot of a source asset catalog (`.xcassets`), before its header is read.
package struct SourceCatalogImage {
    /// Path of the file relative to the tree root.
    package var path: String
    /// Lookup name: namespace folders + set name.
    package var name: String
    /// 0 when the slot has no scale (single-scale or vector).
    package var scale: Int
    package var idiom: ImageIdiom
    package var appearance: String?
    package var details: [String: String]
    /// Where the set's `Contents.json` names the file (docs/source-trees.md §2), when found.
    package var entry: TextPosition?
}

/// Reads a source `.xcassets` folder through its `Contents.json` files (Apple's Asset Catalog Format Reference).
package struct SourceCatalogReader {
    let tree: FileTree
    /// The catalog folder's path in the tree (`` when the tree is the catalog).
    let root: String
    package private(set) var images: [SourceCatalogImage] = []
    package private(set) var warnings: [String] = []
    /// Image-like sets found, by kind (`imageset`, `appiconset`, …).
    private(set) var setCounts: [String: Int] = [:]

    static let imageSetKinds: Set<String> = ["imageset", "appiconset", "launchimage", "symbolset"]
    static let idioms: [String: String] = [
        "universal": "universal", "iphone": "phone", "ipad": "pad", "mac": "mac", "tv": "tv", "watch": "watch",
        "car": "car", "vision": "vision", "ios-marketing": "marketing", "watch-marketing": "marketing",
    ]

    package init(tree: FileTree, root: String) {
        self.tree = tree
        self.root = root
        let prefix = root.isEmpty ? "" : root + "/"
        let files = Set(tree.entries.filter { $0.kind == .file }.map(\.path))
        // Each set's own files, gathered once: scanning every entry per set is quadratic.
        var children: [String: [String]] = [:]
        for file in files { children[PathText.folder(file), default: []].append(file) }
        // Namespaces come from group folders whose Contents.json sets provides-namespace.
        var namespaces: [String: String] = [:]
        for entry in tree.entries where entry.kind == .directory && entry.path.hasPrefix(prefix) {
            let relative = String(entry.path.dropFirst(prefix.count))
            let name = relative.split(separator: "/").last.map(String.init) ?? relative
            let parent = relative.contains("/") ? String(relative[..<relative.lastIndex(of: "/")!]) : ""
            let inherited = namespaces[parent] ?? ""
            guard !name.contains(".") else {
                let kind = String(name[name.index(after: name.lastIndex(of: ".")!)...])
                setCounts[kind, default: 0] += 1
                if SourceCatalogReader.imageSetKinds.contains(kind) {
                    readSet(entry.path, name: inherited + String(name[..<name.lastIndex(of: ".")!]), kind: kind, files: files, children: children[entry.path] ?? [])
                }
                continue
            }
            var namespace = inherited
            if let json = readJSON(entry.path + "/Contents.json", files: files)?.object,
                (json["properties"] as? [String: Any])?["provides-namespace"] as? Bool == true
            {
                namespace = inherited + name + "/"
            }
            namespaces[relative] = namespace
        }
    }

    /// The file's object, with its bytes for locating entries in the text.
    private mutating func readJSON(_ path: String, files: Set<String>) -> (object: [String: Any], bytes: [UInt8])? {
        guard files.contains(path) else { return nil }
        do {
            let bytes = try tree.contents(path, maxBytes: 4 << 20)
            guard let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
                warnings.append("\(path): not a JSON object")
                return nil
            }
            return (object, bytes)
        } catch {
            warnings.append("\(path): not readable JSON (\(String(describing: error).prefix(100)))")
            return nil
        }
    }

    private mutating func readSet(_ folder: String, name: String, kind: String, files: Set<String>, children: [String]) {
        guard let (json, bytes) = readJSON(folder + "/Contents.json", files: files) else {
            warnings.append("\(folder): no readable Contents.json; its images are not listed")
            return
        }
        let properties = json["properties"] as? [String: Any] ?? [:]
        var shared: [String: String] = ["set": kind]
        if properties["preserves-vector-representation"] as? Bool == true { shared["preservesVector"] = "true" }
        if let intent = properties["template-rendering-intent"] as? String { shared["template"] = intent }
        if let intent = properties["symbol-rendering-intent"] as? String { shared["template"] = intent }
        let slots = (json["images"] ?? json["symbols"]) as? [[String: Any]] ?? []
        let firstImage = images.count
        let positions = SourceText.filenamePositions(inContentsJSON: bytes)
        var referenced = Set<String>()
        for slot in slots {
            guard let filename = slot["filename"] as? String else { continue }  // empty slot
            let path = folder + "/" + filename
            referenced.insert(path)
            guard files.contains(path) else {
                warnings.append("\(folder)/Contents.json: names \(SafeText.quoted(filename)), which is not in the set")
                continue
            }
            var scale = 0
            if let text = slot["scale"] as? String {
                // Xcode writes `1x`, `2x`, `3x`; anything else would feed absurd figures to the rules.
                guard text.hasSuffix("x"), let n = Int(text.dropLast()), LooseImageName.scales.contains(n) else {
                    warnings.append(
                        "\(folder)/Contents.json: \(SafeText.quoted(filename)) has scale \(SafeText.quoted(String(text.prefix(40)))), not 1x to \(LooseImageName.scales.upperBound)x; slot ignored"
                    )
                    continue
                }
                scale = n
            }
            let idiomName = slot["idiom"] as? String ?? "universal"
            let idiom = ImageIdiom(name: SourceCatalogReader.idioms[idiomName] ?? idiomName)
            var appearance: String?
            for entry in slot["appearances"] as? [[String: Any]] ?? [] {
                if let value = entry["value"] as? String { appearance = value }
            }
            var details = shared
            for key in ["size", "subtype", "display-gamut", "width-class", "height-class", "orientation", "extent"] {
                if let value = slot[key] as? String { details[key] = value }
            }
            images.append(
                SourceCatalogImage(
                    path: path, name: name, scale: scale, idiom: idiom, appearance: appearance,
                    details: details, entry: positions[filename]))
        }
        // A vector in the 1x slot with the 2x/3x slots empty is rasterised at 1x only (a common slip).
        let hasEmptyScaledSlots = slots.contains { $0["filename"] == nil && ($0["scale"] as? String ?? "") != "1x" && $0["scale"] != nil }
        for image in images[firstImage...] where image.scale == 1 && hasEmptyScaledSlots {
            let ext = image.path.split(separator: ".").last?.lowercased() ?? ""
            if ext == "pdf" || ext == "svg" {
                warnings.append("\(image.path): vector file in the 1x slot with empty 2x/3x slots; set it to Single Scale")
            }
        }
        for file in children.sorted() {
            if file != folder + "/Contents.json", !referenced.contains(file) {
                warnings.append("\(file): in the set but not named by its Contents.json")
            }
        }
    }
}
