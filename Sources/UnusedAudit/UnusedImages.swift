import AppBundle
import AuditModel
import AuditPolicy
import CodeReferences
import ImgtraceSupport

/// What the app ships but never uses: each shipped image set (or loose image) judged against
/// every reference the code, the interface files, the plists and the launches make to it.
///
/// Conservative by design: any reference keeps an image alive — a weak one (a string literal
/// equal to its name anywhere), a dynamic one (a pattern like `icon-*` built at run time), a
/// symbol that a generator makes from its name — and the verdict says which kind did.
package enum UnusedImages {
    /// One verdict, most severe first.
    package enum Verdict: String, Sendable, CaseIterable {
        /// Shipped, referenced by nothing, loaded in no given launch.
        case unused = "unused-image"
        /// Loaded at run time, with no static reference to its name: why static tools fail.
        case dynamicOnly = "dynamic-only"
        /// Referenced, but loaded in none of the given launches (informational).
        case neverLoaded = "never-loaded"
        case used

        package var severity: Severity? {
            switch self {
            case .unused: return .warning
            case .dynamicOnly, .neverLoaded: return .note
            case .used: return nil
            }
        }
    }

    /// What kept an image alive, strongest first.
    package enum Evidence: Sendable, Equatable {
        case build(String)
        case code(CodeReference)
        case interface(file: String)
        case loaded
        case pattern(CodeReference)
        case weak(CodeReference)
        /// A string equal to its name in one of the app's executables or JavaScript bundles.
        case codeString(file: String)

        package var text: String {
            switch self {
            case .build(let why): return why
            case .code(let reference):
                let symbol = (reference.qualifier.map { $0 + "." } ?? "") + reference.name
                let what = reference.kind == .symbol ? "symbol `.\(symbol)`" : reference.api ?? "name"
                return "\(what) at \(reference.file):\(reference.line):\(reference.column)"
            case .interface(let file): return "named in \(file)"
            case .loaded: return "loaded in a given launch"
            case .pattern(let reference): return "pattern `\(reference.name)` built at run time at \(reference.file):\(reference.line):\(reference.column)"
            case .weak(let reference):
                let what = DataReferences.reads(reference.file) ? "string value" : "string literal"
                return "\(what) at \(reference.file):\(reference.line):\(reference.column)"
            case .codeString(let file): return "a string in the app's code, \(file)"
            }
        }
    }

    /// One shipped image set or loose image.
    package struct Asset: Sendable {
        package var name: String
        package var bundle: String
        /// The files it ships (a catalog's renditions are inside its `.car`).
        package var paths: [String]
        /// The inventory's ids of its images (`BundleImage.id`), sorted.
        package var imageIDs: [String]
        package var bytesOnDisk: Int
        /// What one device downloads of it: for a catalog image, the renditions app thinning
        /// keeps for the device (its idiom, the scale it picks, every appearance); a loose file
        /// ships to every device whole.
        package var deviceBytes: Int
        /// Whether it is in an asset catalog (thinned) rather than loose files.
        package var inCatalog: Bool
        package var verdict: Verdict
        /// Why it is not unused (empty for `unused`).
        package var keptBy: [Evidence]
        /// The project targets that copy it into their product, when the bundle is a source tree
        /// whose Xcode project was read; empty otherwise.
        package var targets: [String] = []
    }

    /// Judges every image the inventory ships. `loaded` holds the names the given launches
    /// asked for (nil when no launch was given: then nothing is `never-loaded` or `dynamic-only`).
    package static func judge(inventory: BundleInventory, code: CodeIndex?, loaded: Set<String>?, device: DeviceProfile = .default) -> [Asset] {
        judgement(inventory: inventory, code: code, loaded: loaded, device: device).assets
    }

    /// The verdicts, and how many of the code's references name one of the shipped images (most
    /// string literals and data-file values name none: the count says what the search found).
    package static func judgement(inventory: BundleInventory, code: CodeIndex?, loaded: Set<String>?, device: DeviceProfile = .default)
        -> (assets: [Asset], namingReferences: Int)
    {
        let index = ReferenceIndex(inventory: inventory, code: code, loaded: loaded)
        var groups: [String: [BundleImage]] = [:]
        for image in inventory.images { groups[image.bundle + "\u{0}" + image.name, default: []].append(image) }
        var naming = Set<CodeReference>()
        let assets = groups.keys.sorted().map { key -> Asset in
            let images = groups[key]!
            let name = images[0].name
            let last = PathText.fileName(name)
            let spellings = Set([name, last, stripped(name), stripped(last)].map { $0.lowercased() })
            var kept = keptByTheBuild(images, spellings: spellings, index: index, codeSearched: code != nil)
            var weak: [CodeReference] = []
            // Sorted: the evidence is listed in the report, the same on every run.
            for spelling in spellings.sorted() {
                for reference in index.byName[spelling] ?? [] {
                    if reference.kind == .named { kept.append(.code(reference)) } else { weak.append(reference) }
                }
                for file in index.interfaceFiles[spelling] ?? [] { kept.append(.interface(file: file)) }
            }
            kept += launchImageFamily(images[0], index: index)
            for symbols in namingSymbols(images, index: index) {
                naming.formUnion(symbols)
                kept += symbols.prefix(3).map(Evidence.code)
            }
            let inCode = index.codeStrings.filter { file in spellings.contains(where: file.strings.contains) }.map(\.file)
            let statically = !kept.isEmpty || !weak.isEmpty || !inCode.isEmpty
            let matchingPatterns = index.patternIndex.matching(spellings).map { index.patterns[$0] }
            naming.formUnion(weak)
            naming.formUnion(matchingPatterns)
            naming.formUnion(kept.compactMap { if case .code(let reference) = $0 { return reference } else { return nil } })
            let wasLoaded = spellings.contains(where: index.loadedNames.contains)
            if wasLoaded { kept.append(.loaded) }
            kept += matchingPatterns.prefix(3).map(Evidence.pattern)
            kept += weak.prefix(3).map(Evidence.weak)
            kept += inCode.prefix(3).map { Evidence.codeString(file: $0) }
            let verdict: Verdict
            if !statically && matchingPatterns.isEmpty && !wasLoaded {
                verdict = .unused
            } else if wasLoaded && !statically {
                verdict = .dynamicOnly
            } else if loaded != nil && !wasLoaded {
                verdict = .neverLoaded
            } else {
                verdict = .used
            }
            return asset(images, verdict: verdict, keptBy: verdict == .unused ? [] : kept, device: device)
        }
        return (assets, naming.count)
    }

    /// What the judgement looks names up in, built once: the code's references by the key both
    /// spellings share, the interface files and launch images, each executable's strings, the
    /// names the launches loaded and the app's icon names.
    private struct ReferenceIndex {
        var byName: [String: [CodeReference]] = [:]
        var bySymbol: [String: [CodeReference]] = [:]
        var patterns: [CodeReference] = []
        /// Each pattern compiled once and found by its fixed ends: trying every pattern on every
        /// spelling cost patterns × images (20,000 × 2,000: minutes).
        let patternIndex: PatternIndex
        var interfaceFiles: [String: [String]] = [:]
        var launchImageBases: [(bundle: String, base: String, file: String)] = []
        /// Each file's strings, lowered once, for the names nothing else keeps.
        let codeStrings: [(file: String, strings: Set<String>)]
        let loadedNames: Set<String>
        let iconNames: Set<String>

        init(inventory: BundleInventory, code: CodeIndex?, loaded: Set<String>?) {
            for reference in code?.references ?? [] {
                switch reference.kind {
                case .named, .weak:
                    // `"tab.png"` and `"icons/tab@2x.png"` name the image `tab` as well.
                    for key in keys(reference.name) { byName[key, default: []].append(reference) }
                case .symbol: bySymbol[AssetSymbol.key(reference.name), default: []].append(reference)
                case .dynamic: if let pattern = namePattern(reference) { patterns.append(pattern) }
                case .system: continue
                }
            }
            patternIndex = PatternIndex(patterns.map { $0.name.lowercased() })
            for reference in inventory.references {
                for key in keys(reference.name) { interfaceFiles[key, default: []].append(reference.file) }
                if reference.kind == .launchImage { launchImageBases.append((reference.bundle, stripped(reference.name).lowercased(), reference.file)) }
            }
            codeStrings = inventory.codeStrings.map { (file: $0.file, strings: Set($0.strings.flatMap(keys))) }
            // A path (`imageWithContentsOfFile:`) loads the file it ends with.
            loadedNames = Set((loaded ?? []).map { stripped(PathText.fileName($0)).lowercased() })
            iconNames = Set(inventory.bundles.flatMap { ($0.info?.iconNames ?? []) + ($0.info?.iconFiles ?? []) }.map { $0.lowercased() })
        }
    }

    /// What keeps an image by the build itself: the app icon or launch image, a layer of an
    /// Icon Composer document, a dependency folder the code search skips, iTunes artwork.
    private static func keptByTheBuild(_ images: [BundleImage], spellings: Set<String>, index: ReferenceIndex, codeSearched: Bool) -> [Evidence] {
        let name = images[0].name
        var kept: [Evidence] = []
        if images.contains(where: { $0.details["set"] == "appiconset" || $0.details["set"] == "launchimage" }) || spellings.contains(where: index.iconNames.contains) {
            kept.append(.build("the app's icon or launch image (the build and Info.plist use it)"))
        }
        // Xcode 26's Icon Composer documents (`AppIcon.icon/Assets/…`): the build compiles their layers into the icon.
        if let document = images.lazy.compactMap({ $0.path.split(separator: "/").dropLast().first { $0.hasSuffix(".icon") } }).first {
            kept.append(.build("a layer of `\(document)`, the Icon Composer document the build makes the app icon from"))
        }
        if codeSearched, let folder = images.lazy.compactMap(unsearchedFolder).first {
            kept.append(.build("in `\(folder)/`, a dependency or build folder whose code --source-root does not search"))
        }
        if images[0].bundle == BundleID.top, stripped(name).lowercased() == "itunesartwork" {
            kept.append(.build("the artwork iTunes and the device show for an ad hoc build (read by name)"))
        }
        return kept
    }

    /// A launch image's family (`Default-568h@2x.png`, `Default-Portrait~ipad.png`) shares its base name.
    private static func launchImageFamily(_ first: BundleImage, index: ReferenceIndex) -> [Evidence] {
        let lowered = stripped(first.name).lowercased()
        return index.launchImageBases.filter { launch in
            launch.bundle == first.bundle
                && (lowered == launch.base || [("-" as Character), "~"].contains(where: { lowered.hasPrefix(launch.base + String($0)) }))
        }.map { .interface(file: $0.file) }
    }

    /// The generated symbols that name the image (Xcode's asset symbols, R.swift, SwiftGen). A set
    /// in a provides-namespace folder (`Onboarding/Gear`) has the symbol `.Onboarding.gear`: a bare
    /// `.gear` is something else (an SF Symbol, an enum case) and keeps nothing. One list per
    /// spelling of the symbol, each of which the report quotes up to three of.
    private static func namingSymbols(_ images: [BundleImage], index: ReferenceIndex) -> [[CodeReference]] {
        let name = images[0].name
        let symbolKeys = Set([AssetSymbol.key(AssetSymbol.symbol(for: name)), AssetSymbol.key(PathText.fileName(name))])
        let namespace = AssetSymbol.key(name.split(separator: "/").dropLast().joined())
        let inCatalog = images.allSatisfy { $0.source == .assetCatalog || $0.source == .sourceCatalog }
        return symbolKeys.sorted().map { symbolKey in
            (index.bySymbol[symbolKey] ?? []).filter { reference in
                !inCatalog || namespace.isEmpty || AssetSymbol.key(reference.qualifier ?? "").hasSuffix(namespace)
            }
        }
    }

    /// One image set's or loose image's entry: its files, its bytes in the app and downloaded.
    private static func asset(_ images: [BundleImage], verdict: Verdict, keptBy: [Evidence], device: DeviceProfile) -> Asset {
        let paths = Array(Set(images.map(\.path))).sorted()
        // A catalog's renditions share its `.car`: count each image's own bytes, once per file otherwise.
        var seen = Set<String>()
        let bytes = images.reduce(0) { total, image in seen.insert(image.id).inserted ? total.addingSaturating(image.bytesOnDisk) : total }
        let compiled = images.allSatisfy { $0.source == .assetCatalog }
        return Asset(
            name: images[0].name, bundle: images[0].bundle, paths: paths, imageIDs: images.map(\.id).sorted(), bytesOnDisk: bytes,
            deviceBytes: compiled ? downloaded(images, by: device) : bytes, inCatalog: compiled, verdict: verdict, keptBy: keptBy)
    }

    /// The bytes of the renditions a device downloads of one catalog image: its idiom's (or the
    /// universal ones), at the one scale it picks — its own, else vector, else the nearest lower,
    /// else the nearest higher — in every appearance.
    static func downloaded(_ renditions: [BundleImage], by device: DeviceProfile) -> Int {
        let fitting = renditions.filter { $0.idiom == .universal || $0.idiom == device.idiom }
        func rank(_ scale: Int) -> Int {
            if scale == device.scale { return 0 }
            if scale == 0 { return 1 }
            return scale < device.scale ? 2 + device.scale - scale : 20 + scale - device.scale
        }
        guard let scale = fitting.map(\.scale).min(by: { rank($0) < rank($1) }) else { return 0 }
        return fitting.filter { $0.scale == scale }.map(\.bytesOnDisk).saturatingSum()
    }

    /// The folder of `image`'s path that the code index does not enter (`Pods`, `node_modules`), if any.
    static func unsearchedFolder(_ image: BundleImage) -> String? {
        image.path.split(separator: "/").dropLast().first { CodeIndex.skippedFolders.contains(String($0)) }.map(String.init)
    }

    /// The spellings a reference's name gives an image: itself, without its extension and scale,
    /// and its file name so (`icons/tab@2x.png` → `icons/tab@2x.png`, `icons/tab`, `tab`), lowered.
    static func keys(_ name: String) -> [String] {
        // Every string literal of the code passes here: each spelling is lowered once, and a
        // name's few keys are an array, not a set, uniqued by hand.
        let lowered = name.lowercased()
        var keys = [lowered]
        let base = LooseImageName(fileName: lowered).base
        if base != lowered { keys.append(base) }
        let last = PathText.fileName(name)
        if last.utf8.count != name.utf8.count {
            let lastBase = LooseImageName(fileName: last.lowercased()).base
            if !keys.contains(lastBase) { keys.append(lastBase) }
        }
        return keys
    }

    /// `tab@2x.png` → `tab`: the name without a scale suffix or an image extension.
    static func stripped(_ name: String) -> String { strippedSpellings(name).text }

    /// The name without its extension, device and scale suffixes, as given and lowered: taken
    /// apart by the one image-name parser (`LooseImageName`), on the name lowered so that
    /// `ICON~IPAD.PNG` sheds its suffixes too. They are ASCII, so as many bytes come off the name
    /// as given.
    private static func strippedSpellings(_ name: String) -> (text: String, lowered: String) {
        let lowered = name.lowercased()
        let base = LooseImageName(fileName: lowered).base
        let suffixBytes = lowered.utf8.count - base.utf8.count
        return (String(decoding: name.utf8.dropLast(suffixBytes), as: UTF8.self), base)
    }

    /// A pattern built at run time, normalised as names are (`step*@3x.png` fits what `step*`
    /// fits); nil when what is left names no family (`*-*.png` leaves `*-*`, which fits nearly
    /// everything).
    package static func namePattern(_ reference: CodeReference) -> CodeReference? {
        var normalised = reference
        normalised.name = stripped(reference.name)
        return CodeReference.isNamingPattern(normalised.name) ? normalised : nil
    }

    /// A name pattern ready for `fnmatch`: only `*` is special (`[` and `?` are the name's own).
    package struct Glob {
        let escaped: [CChar]

        package init(_ pattern: String) {
            var bytes: [CChar] = []
            for byte in pattern.utf8 {
                if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "\\") { bytes.append(CChar(UInt8(ascii: "\\"))) }
                bytes.append(CChar(bitPattern: byte))
            }
            escaped = bytes + [0]
        }

        package func matches(_ name: String) -> Bool { fnmatch(escaped, name, 0) == 0 }
    }

    /// Patterns found by their fixed ends: a name is tried only against the patterns whose text
    /// before the first hole it starts with (or, for a pattern that starts with a hole, whose text
    /// after the last hole it ends with), so the cost grows with the matches, not with patterns ×
    /// names. Only a pattern with holes at both ends (`*dark*`) is tried on every name.
    struct PatternIndex {
        private let globs: [Glob]
        private var byPrefix: [String: [Int]] = [:]
        private var bySuffix: [String: [Int]] = [:]
        private var open: [Int] = []
        private var longestPrefix = 0
        private var longestSuffix = 0

        init(_ patterns: [String]) {
            globs = patterns.map(Glob.init)
            for (index, pattern) in patterns.enumerated() {
                let prefix = pattern.prefix { $0 != "*" }
                if !prefix.isEmpty {
                    byPrefix[String(prefix), default: []].append(index)
                    longestPrefix = max(longestPrefix, prefix.count)
                    continue
                }
                let suffix = String(pattern.reversed().prefix { $0 != "*" }.reversed())
                if !suffix.isEmpty {
                    bySuffix[suffix, default: []].append(index)
                    longestSuffix = max(longestSuffix, suffix.count)
                } else {
                    open.append(index)
                }
            }
        }

        /// The indices of the patterns any of `names` matches, in pattern order.
        func matching(_ names: Set<String>) -> [Int] {
            var candidates = Set(open)
            for name in names {
                let characters = Array(name)
                for length in 1...max(1, min(longestPrefix, characters.count)) where length <= characters.count {
                    candidates.formUnion(byPrefix[String(characters[..<length])] ?? [])
                }
                for length in 1...max(1, min(longestSuffix, characters.count)) where length <= characters.count {
                    candidates.formUnion(bySuffix[String(characters[(characters.count - length)...])] ?? [])
                }
            }
            return candidates.filter { index in names.contains { globs[index].matches($0) } }.sorted()
        }
    }
}
