import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport

/// Resolves names the way UIKit (and AppKit, for macOS, GNUstep and system images) looks them up:
/// asset catalogs before loose files; the app, then its nested bundles, then system image folders;
/// the device's scale with fallback; `~iphone`/`~ipad`; unlocalised before `.lproj` files.
struct NameResolver: Sendable {
    private let inventory: BundleInventory
    private let device: DeviceProfile
    /// Bundle ids in search order, and which use AppKit names.
    private let order: [String]
    /// Each bundle's place in `order`, so a lookup visits only bundles that hold a candidate.
    private let orderIndex: [String: Int]
    /// System image folders, in search order.
    private let systemImageBundles: [String]
    private let appKit: Set<String>
    private let catalogByName: [String: [Int]]
    private let looseByStem: [String: [Int]]
    private let looseByPath: [String: [Int]]
    private let lowered: [String: [Int]]
    private let aliases: [String: ImageAlias]
    /// Catalog names inside a namespace (`Icons/star`), by their last component (`star`).
    private let namespaced: [String: [String]]

    init(inventory: BundleInventory, device: DeviceProfile) {
        self.inventory = inventory
        self.device = device
        let searchable = inventory.bundles.filter { $0.kind != .systemImages } + inventory.bundles.filter { $0.kind == .systemImages }
        order = searchable.map(\.id)
        systemImageBundles = inventory.bundles.filter { $0.kind == .systemImages }.map(\.id)
        orderIndex = Dictionary(order.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        appKit = Set(inventory.bundles.filter(\.usesAppKitNames).map(\.id))
        var catalogs: [String: [Int]] = [:], stems: [String: [Int]] = [:], paths: [String: [Int]] = [:]
        var lower: [String: [Int]] = [:]
        for (index, image) in inventory.images.enumerated() {
            if image.source == .assetCatalog || image.source == .sourceCatalog {
                catalogs[image.name, default: []].append(index)
                lower[image.name.lowercased(), default: []].append(index)
            } else {
                let stem = NameResolver.stem(of: image)
                stems[stem, default: []].append(index)
                lower[stem.lowercased(), default: []].append(index)
                let parsed = LooseImageName(fileName: PathText.fileName(image.path))
                let directory = PathText.folder(image.path)
                paths[(directory.isEmpty ? "" : directory + "/") + parsed.base, default: []].append(index)
            }
        }
        catalogByName = catalogs
        var spaced: [String: [String]] = [:]
        for name in catalogs.keys where name.contains("/") { spaced[PathText.fileName(name), default: []].append(name) }
        namespaced = spaced
        looseByStem = stems
        looseByPath = paths
        lowered = lower
        var byName: [String: ImageAlias] = [:]
        for alias in inventory.aliases where byName[alias.name] == nil { byName[alias.name] = alias }
        aliases = byName
    }

    /// A loose image's name without its extension (`dir/photo` for `dir/photo.jpg`).
    static func stem(of image: BundleImage) -> String {
        let ext = "." + image.fileExtension
        return image.fileExtension.isEmpty || !image.name.hasSuffix(ext) ? image.name : String(image.name.dropLast(ext.count))
    }

    /// What `name` loads when asked for through an API of `kind`.
    func resolve(_ name: String, kind: RequestKind) -> Resolution {
        switch kind {
        case .symbol:
            return Resolution(image: nil, how: "an SF Symbol: system artwork, never the app's to ship", cause: .systemArtwork)
        case .data:
            return Resolution(image: nil, how: "a data asset (`NSDataAsset`): data, not an image", cause: .dataAsset)
        case .catalog, .trait:
            if let found = lookUp(name, catalogsOnly: true) { return found }
            if let loose = lookUp(name), let image = loose.image, image.source == .file {
                return Resolution(
                    image: nil, how: "not found: CoreUI looks in asset catalogs only, and \(code: PathText.fileName(image.path)) is a loose file",
                    cause: .notInCatalog)
            }
            return missing(name)
        case .name, .path:
            break
        }
        if kind == .path || name.hasPrefix("/") { return resolvePath(name) }
        let alias = aliases[name]
        if var found = lookUp(name) {
            if let alias, alias.target == name, found.image?.bundle == alias.bundle { found.cacheName = alias.via }
            return found
        }
        if let alias, var found = lookUp(alias.target, in: [alias.bundle]) {
            found.how += " — \(code: name) maps to it through \(code: alias.file) (as \(code: alias.via))"
            found.cacheName = alias.via
            return found
        }
        if name == "NSApplicationIcon", let top = inventory.bundles.first,
            let icon = top.info?.iconFiles.first ?? top.info?.iconNames.first, icon != name, var found = lookUp(icon)
        {
            found.how = "AppKit's application icon: \(code: icon) from Info.plist, \(found.how)"
            return found
        }
        return missing(name)
    }

    // MARK: Lookup

    private struct Request {
        var base: String
        var fileExtension: String
        /// Set when the name itself carries `@Nx` or `~device`: only that file matches.
        var literal: LooseImageName?

        init(_ name: String) {
            let last = PathText.fileName(name)
            let parsedExtension = LooseImageName(fileName: last).fileExtension
            fileExtension = parsedExtension
            base = parsedExtension.isEmpty ? name : String(name.dropLast(parsedExtension.count + 1))
            let literalName = LooseImageName(fileName: PathText.fileName(base) + ".png")
            literal =
                literalName.scale != 1 || literalName.idiom != .universal || PathText.fileName(base).hasSuffix("@1x")
                ? literalName : nil
        }

        /// The stem the literal file has: folder + base without `@Nx~device`.
        var literalStem: String? {
            guard let literal else { return nil }
            let directory = PathText.folder(base)
            return (directory.isEmpty ? "" : directory + "/") + literal.base
        }
    }

    private func lookUp(_ name: String, in bundles: [String]? = nil, catalogsOnly: Bool = false) -> Resolution? {
        let request = Request(name)
        for bundle in bundles ?? candidateBundles(name, request) {
            let appKitNames = appKit.contains(bundle)
            var catalogHits = (catalogByName[name] ?? []).filter { inventory.images[$0].bundle == bundle }
            var ignoredPNG = false
            if catalogHits.isEmpty, request.fileExtension.lowercased() == "png" {
                catalogHits = (catalogByName[request.base] ?? []).filter { inventory.images[$0].bundle == bundle }
                ignoredPNG = !catalogHits.isEmpty
            }
            if let best = best(catalogHits.map { inventory.images[$0] }, appKit: appKitNames) {
                var how: Phrase = "catalog \(code: PathText.fileName(best.path)) facet \(code: best.name), \(best.idiom) \(scaleText(best.scale))"
                if let appearance = best.appearance { how += ", \(appearance)" }
                how += fitText(best, catalog: true) + whereText(bundle)
                if ignoredPNG { how += " (the `.png` in the name is ignored)" }
                return Resolution(image: best, how: how)
            }
            if catalogsOnly { continue }
            let stemHits = (looseByStem[request.base] ?? []).map { inventory.images[$0] }.filter {
                $0.bundle == bundle && extensionMatches($0, request)
            }
            if let best = best(stemHits, appKit: appKitNames) {
                return Resolution(image: best, how: looseText(best, bundle: bundle))
            }
            if let literal = request.literal, let stem = request.literalStem {
                let hits = (looseByStem[stem] ?? []).map { inventory.images[$0] }.filter {
                    $0.bundle == bundle && $0.scale == literal.scale && $0.idiom == literal.idiom
                        && (request.fileExtension.isEmpty
                            ? $0.fileExtension.lowercased() == "png" || appKitNames
                            : $0.fileExtension == request.fileExtension)
                }
                if let best = hits.min(by: { $0.id < $1.id }) {
                    return Resolution(
                        image: best,
                        how: looseText(best, bundle: bundle)
                            + " — the name includes \(code: literalSuffix(literal)), so this file loads whatever the screen")
                }
            }
        }
        return nil
    }

    /// The bundles, in search order, that hold any image this request could match: visiting
    /// every bundle per name is quadratic in an app with thousands of nested bundles.
    private func candidateBundles(_ name: String, _ request: Request) -> [String] {
        var found = Set<String>()
        var lists = [catalogByName[name], looseByStem[request.base]]
        if request.fileExtension.lowercased() == "png" { lists.append(catalogByName[request.base]) }
        if let stem = request.literalStem { lists.append(looseByStem[stem]) }
        for list in lists { for index in list ?? [] { found.insert(inventory.images[index].bundle) } }
        return found.compactMap { id in orderIndex[id].map { (id, $0) } }.sorted { $0.1 < $1.1 }.map(\.0)
    }

    /// An absolute or bundle-relative path, as `imageWithContentsOfFile:` receives it.
    private func resolvePath(_ path: String) -> Resolution {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let appIndex = parts.lastIndex(where: { $0.hasSuffix(".app") }) else {
            // Not inside an app: it may still be a system image folder's file.
            if let found = lookUp(PathText.fileName(path), in: systemImageBundles) {
                return found
            }
            if !path.hasPrefix("/"), let found = lookUp(path) { return found }
            return Resolution(
                image: nil, how: "not found: \(code: path) is outside the app bundle (documents, caches or a download); imgtrace cannot see it",
                cause: .outsideBundle)
        }
        let relative = parts[(appIndex + 1)...].joined(separator: "/")
        let parsed = LooseImageName(fileName: PathText.fileName(relative))
        let directory = PathText.folder(relative)
        let key = (directory.isEmpty ? "" : directory + "/") + parsed.base
        let hits = (looseByPath[key] ?? []).map { inventory.images[$0] }.filter { $0.fileExtension == parsed.fileExtension }
        let exact = hits.filter { $0.scale == parsed.scale && $0.idiom == parsed.idiom && PathText.fileName($0.path) == PathText.fileName(relative) }
        let chosen = parsed.scale != 1 || parsed.idiom != .universal ? exact.first : best(hits, appKit: false)
        if let image = chosen ?? exact.first {
            return Resolution(image: image, how: looseText(image, bundle: image.bundle) + " (by path)")
        }
        if let found = lowered[key.lowercased()]?.map({ inventory.images[$0] }).first(where: { $0.source == .file }) {
            return Resolution(
                image: nil, how: "not found: \(code: found.path) exists — case differs (device file systems are case-sensitive)",
                cause: .caseDiffers)
        }
        return Resolution(image: nil, how: "not found: no file \(code: relative) in the app", cause: .notFound)
    }

    /// UIKit may leave out only `.png`; AppKit any image extension.
    private func extensionMatches(_ image: BundleImage, _ request: Request) -> Bool {
        if request.fileExtension.isEmpty {
            return appKit.contains(image.bundle) || image.fileExtension.isEmpty || image.fileExtension.lowercased() == "png"
        }
        return image.fileExtension == request.fileExtension
    }

    /// The variant the device picks: scale first (exact, then vector, then the nearest lower, then
    /// higher), then device-specific over universal, then any appearance over dark or tinted.
    private func best(_ candidates: [BundleImage], appKit: Bool) -> BundleImage? {
        var pool = candidates.filter { $0.localization == nil }
        if pool.isEmpty {
            let preferred = ["Base", "en", "English"]
            let localizations = Set(candidates.compactMap(\.localization))
            let pick = preferred.first(where: localizations.contains) ?? localizations.sorted().first
            pool = candidates.filter { $0.localization == pick }
        }
        let idioms: Set<ImageIdiom> = appKit ? [.universal, .mac, device.idiom] : [.universal, device.idiom]
        pool = pool.filter { idioms.contains($0.idiom) }
        return pool.min { a, b in
            let ka = rank(a), kb = rank(b)
            if ka != kb { return ka.lexicographicallyPrecedes(kb) }
            if a.id.utf8.count != b.id.utf8.count { return a.id.utf8.count < b.id.utf8.count }
            return a.id < b.id
        }
    }

    private func rank(_ image: BundleImage) -> [Int] {
        let scale: Int
        if image.scale == device.scale {
            scale = 0
        } else if image.scale == 0 {
            scale = 1
        } else if image.scale < device.scale {
            scale = 2 + device.scale - image.scale
        } else {
            scale = 20 + image.scale - device.scale
        }
        let idiom = image.idiom == .universal ? 1 : 0
        let appearance = image.appearance == nil ? 0 : image.appearance == "light" ? 1 : 2
        return [scale, idiom, appearance]
    }

    // MARK: Why not found

    private func missing(_ name: String) -> Resolution {
        let request = Request(name)
        let images =
            (catalogByName[name] ?? []).map { inventory.images[$0] }
            + (looseByStem[request.base] ?? []).map { inventory.images[$0] }.filter { extensionMatches($0, request) }
        if !images.isEmpty {
            let other = Set(images.map(\.idiom)).sorted().map(\.name).joined(separator: ", ")
            let example = images.map { PathText.fileName($0.source == .file ? $0.path : $0.id) }.sorted().first ?? name
            return Resolution(image: nil, how: "not found for a \(device.idiom): only \(code: example) (\(other)) exists", cause: .otherIdiom)
        }
        if request.fileExtension.isEmpty,
            let hit = (looseByStem[name] ?? []).map({ inventory.images[$0] }).filter({
                $0.source == .file && !$0.fileExtension.isEmpty && $0.fileExtension.lowercased() != "png"
            }).min(by: { $0.id < $1.id })
        {
            return Resolution(
                image: nil,
                how:
                    "not found: \(code: PathText.fileName(hit.path)) exists — formats other than PNG need their extension "
                    + "(\(code: name + "." + hit.fileExtension))",
                cause: .needsExtension)
        }
        let wanted = request.fileExtension.lowercased() == "png" ? request.base : name
        let differentCase = ((lowered[wanted.lowercased()] ?? []) + (lowered[request.base.lowercased()] ?? [])).map { inventory.images[$0] }
            .filter { $0.name != wanted && NameResolver.stem(of: $0) != request.base }
        if let hit = differentCase.min(by: { $0.id < $1.id }) {
            let shown = hit.source == .assetCatalog || hit.source == .sourceCatalog ? hit.name : PathText.fileName(hit.path)
            return Resolution(
                image: nil, how: "not found: \(code: shown) exists — case differs (device file systems are case-sensitive)",
                cause: .caseDiffers)
        }
        if let literal = request.literal, let stem = request.literalStem,
            looseByStem[stem] != nil || catalogByName[stem] != nil
        {
            return Resolution(
                image: nil, how: "not found: the name includes \(code: literalSuffix(literal)); ask for \(code: stem) and let the system pick the variant",
                cause: .scaleInName)
        }
        let last = PathText.fileName(name)
        if let spaced = namespaced[name]?.min() {
            return Resolution(image: nil, how: "not found: the catalog has \(code: spaced) — its folder provides a namespace", cause: .namespace)
        }
        if last != name, catalogByName[last] != nil || looseByStem[last] != nil {
            return Resolution(
                image: nil, how: "not found: no folder or namespace \(code: PathText.folder(name) + "/"); \(code: last) exists without it", cause: .namespace)
        }
        let nested = inventory.bundles.filter { $0.id != BundleID.top && $0.kind != .systemImages }.count
        let systems = inventory.bundles.filter { $0.kind == .systemImages }.count
        var searched = "the app"
        if nested > 0 { searched += ", its \(counted(nested, "nested bundle"))" }
        searched += systems > 0 ? " or \(counted(systems, "system image folder"))" : " (no --system-images given)"
        return Resolution(image: nil, how: "not found in \(searched)", cause: .notFound)
    }

    // MARK: Wording

    private func scaleText(_ scale: Int) -> String { scale == 0 ? "vector" : "@\(scale)x" }

    private func literalSuffix(_ literal: LooseImageName) -> String {
        var suffix = literal.scale != 1 ? "@\(literal.scale)x" : ""
        if literal.idiom == .pad { suffix += "~ipad" } else if literal.idiom == .phone { suffix += "~iphone" }
        return suffix.isEmpty ? "@1x" : suffix
    }

    private func fitText(_ image: BundleImage, catalog: Bool) -> Phrase {
        guard image.scale != 0, image.scale != device.scale, !appKit.contains(image.bundle) else { return "" }
        let kind = catalog ? "rendition" : "variant"
        return image.scale < device.scale
            ? ", no @\(device.scale)x \(kind): upscaled"
            : ", only @\(image.scale)x: scaled down"
    }

    private func whereText(_ bundle: String) -> Phrase {
        guard bundle != BundleID.top, let info = inventory.bundles.first(where: { $0.id == bundle }) else { return "" }
        return info.kind == .systemImages ? " in system images \(code: bundle)" : " in \(code: bundle)"
    }

    private func looseText(_ image: BundleImage, bundle: String) -> Phrase {
        let source = image.source == .systemImages ? "system image" : "loose"
        var how: Phrase = "\(source) \(code: PathText.fileName(image.path))"
        if let localization = image.localization { how += " from \(code: localization + ".lproj")" }
        return how + fitText(image, catalog: false) + whereText(bundle)
    }
}
