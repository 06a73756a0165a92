/// What kind of request a load is: the outermost image API it passed decides
/// (docs/trace-logs.md §9, from ../shared/docs/apple-image-paths.md).
public enum LoadKind: String, Sendable, CaseIterable {
    /// Its place in `allCases`, for counting in an array.
    package var ordinal: Int {
        switch self {
        case .code: return 0
        case .nib: return 1
        case .swiftui: return 2
        case .symbol: return 3
        case .trait: return 4
        case .data: return 5
        case .file: return 6
        }
    }

    /// The API through which a request of this kind usually enters (for examples and tests).
    public var entryPoint: String {
        switch self {
        case .code: return "+[UIImage imageNamed:]"
        case .nib: return "-[UIImageNibPlaceholder initWithCoder:]"
        case .swiftui: return ImageAPIs.coreUISymbols[0]
        case .symbol: return "+[UIImage systemImageNamed:]"
        case .trait: return "-[UIImageAsset imageWithConfiguration:]"
        case .data: return "-[NSDataAsset initWithName:bundle:]"
        case .file: return "+[UIImage imageWithContentsOfFile:]"
        }
    }

    /// `UIImage(named:)`, `NSImage(named:)`: the app's code asked.
    case code
    /// An image of a storyboard or xib (the nib placeholder asks the asset manager directly).
    case nib
    /// SwiftUI's `Image("x")`: CoreUI called from no UIKit or AppKit image method.
    case swiftui
    /// An SF Symbol: system artwork, never the app's to ship.
    case symbol
    /// A re-decode of an image already loaded, on a trait change (dark mode, size class).
    case trait
    /// `NSDataAsset(name:)`: data, not an image.
    case data
    /// A file path (`imageWithContentsOfFile:`): read from disk, never cached.
    case file
}

/// The image APIs of UIKit, AppKit, CoreUI and UIFoundation and which of them each calls, as
/// iOS 18 ships them (../shared/docs/apple-image-paths.md, "The call graph"). One table: a new
/// OS release is one edit here. A hit on an API that the open request's last API calls, for the
/// same name, is that request going deeper, not a request of its own.
enum ImageAPIs {
    struct API {
        /// The symbol, or its start when `prefix` (selectors drift between releases).
        let symbol: String
        let prefix: Bool
        /// The request's kind when this API is the outermost one.
        let kind: LoadKind
        /// The APIs it calls.
        let calls: [String]
        /// It returns to its caller, which goes on to call more (a catalog handed back for a
        /// data lookup): what follows is called by the caller, not by it.
        var returnsToCaller = false
    }

    private static let funnel = "+[UIImage imageNamed:inBundle:withConfiguration:]"
    private static let managerConfiguration = "-[_UIAssetManager imageNamed:configuration:]"
    private static let managerLookup = "-[_UIAssetManager imageNamed:configuration:cachingOptions:attachCatalogImage:]"
    private static let namedLookup = "-[CUICatalog namedLookupWithName:"
    private static let vectorGlyph = "-[CUICatalog namedVectorGlyphWithName:"
    private static let imageWithName = "-[CUICatalog imageWithName:"

    static let table: [API] = [
        API(symbol: "+[UIImage imageNamed:]", prefix: false, kind: .code, calls: [funnel]),
        API(symbol: "+[UIImage imageNamed:inBundle:compatibleWithTraitCollection:]", prefix: false, kind: .code, calls: [funnel]),
        API(symbol: funnel, prefix: false, kind: .code, calls: [managerConfiguration, "+[_UIAssetManager newAssetNamed:fromBundle:]"]),
        API(symbol: managerConfiguration, prefix: false, kind: .code, calls: [managerLookup, "-[UIImageAsset imageWithConfiguration:]"]),
        API(symbol: managerLookup, prefix: false, kind: .code, calls: [namedLookup, vectorGlyph]),
        API(symbol: "+[_UIAssetManager newAssetNamed:fromBundle:]", prefix: false, kind: .code, calls: []),
        API(symbol: "-[UIImageNibPlaceholder initWithCoder:]", prefix: false, kind: .nib, calls: ["-[_UIAssetManager imageNamed:]"]),
        API(symbol: "-[_UIAssetManager imageNamed:]", prefix: false, kind: .nib, calls: ["-[_UIAssetManager imageNamed:idiom:]"]),
        API(symbol: "-[_UIAssetManager imageNamed:idiom:]", prefix: false, kind: .nib, calls: ["-[_UIAssetManager imageNamed:idiom:subtype:]"]),
        API(symbol: "-[_UIAssetManager imageNamed:idiom:subtype:]", prefix: false, kind: .nib, calls: ["-[_UIAssetManager imageNamed:scale:idiom:subtype:]"]),
        API(symbol: "-[_UIAssetManager imageNamed:scale:idiom:subtype:]", prefix: false, kind: .nib, calls: [managerLookup]),
        API(symbol: "+[UIImage systemImageNamed:]", prefix: false, kind: .symbol, calls: ["+[UIImage systemImageNamed:withConfiguration:]"]),
        API(
            symbol: "+[UIImage systemImageNamed:withConfiguration:]", prefix: false, kind: .symbol,
            calls: ["+[UIImage _systemImageNamed:withConfiguration:allowPrivate:]"]),
        API(symbol: "+[UIImage _systemImageNamed:withConfiguration:allowPrivate:]", prefix: false, kind: .symbol, calls: [managerConfiguration]),
        API(symbol: "-[UIImageAsset imageWithConfiguration:]", prefix: false, kind: .trait, calls: [imageWithName]),
        API(symbol: imageWithName, prefix: true, kind: .swiftui, calls: []),
        API(symbol: namedLookup, prefix: true, kind: .code, calls: []),
        API(symbol: vectorGlyph, prefix: true, kind: .symbol, calls: []),
        API(symbol: "-[NSDataAsset initWithName:bundle:]", prefix: false, kind: .data, calls: ["+[CUICatalog defaultUICatalogForBundle:]", "-[CUICatalog dataWithName:]"]),
        API(symbol: "-[NSDataAsset initWithName:]", prefix: false, kind: .data, calls: ["-[NSDataAsset initWithName:bundle:]"]),
        API(symbol: "+[CUICatalog defaultUICatalogForBundle:]", prefix: false, kind: .data, calls: [], returnsToCaller: true),
        API(symbol: "-[CUICatalog dataWithName:]", prefix: false, kind: .data, calls: []),
        API(symbol: "+[UIImage imageWithContentsOfFile:]", prefix: false, kind: .file, calls: ["-[UIImage initWithContentsOfFile:]"]),
        API(symbol: "-[UIImage initWithContentsOfFile:]", prefix: false, kind: .file, calls: []),
        API(symbol: "+[NSImage imageNamed:]", prefix: false, kind: .code, calls: ["+[NSImage _catalogImageWithName:bundle:]"]),
        API(symbol: "+[NSImage _catalogImageWithName:bundle:]", prefix: false, kind: .code, calls: [namedLookup]),
        API(symbol: "-[NSBundle imageForResource:]", prefix: false, kind: .code, calls: []),
    ]

    /// CoreUI's image lookups by their whole iOS 18 selectors (the table matches them by prefix),
    /// for debuggers that cannot match a prefix.
    static let coreUISymbols = [
        imageWithName + "scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]",
        namedLookup + "scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]",
        vectorGlyph + "scaleFactor:deviceIdiom:layoutDirection:glyphSize:glyphWeight:glyphPointSize:appearanceName:]",
    ]

    /// The function symbol GCC's Objective-C compiler gives a method, or the start of one (for a
    /// family): `_c_Class_Category_selector` for a class method, `_i_` for an instance method,
    /// each `:` of the selector a `_`. A debugger shows it where the DWARF does not name the
    /// function (gcc -O2 splits a method into a hot and a cold part). Nil for a C function's name.
    static func gccSymbol(_ method: String) -> String? {
        let scalars = Array(method.unicodeScalars)
        guard scalars.count > 3, scalars[0] == "+" || scalars[0] == "-", scalars[1] == "[" else { return nil }
        let body = method.dropFirst(2).prefix { $0 != "]" }
        guard let space = body.firstIndex(of: " ") else { return nil }
        var owner = body[..<space], category = Substring("")
        if let open = owner.firstIndex(of: "("), owner.hasSuffix(")") {
            category = owner[owner.index(after: open)..<owner.index(before: owner.endIndex)]
            owner = owner[..<open]
        }
        let selector = body[body.index(after: space)...].replacing(":", with: "_")
        return (scalars[0] == "+" ? "_c_" : "_i_") + owner + "_" + category + "_" + selector
    }

    /// The table index of the API a hit names, exact symbols first, then families by prefix.
    /// (At most 64 entries: a request's passed APIs are a bit set over them.)
    static func index(of api: String) -> Int? {
        if let exact = exactIndex[api] { return exact }
        return table.indices.first { table[$0].prefix && api.hasPrefix(table[$0].symbol) }
    }

    /// Whether `inner` is called, directly or not, by `outer`.
    static func calls(_ outer: Int, _ inner: Int) -> Bool { reachable[outer][inner] }

    /// Each API's kind, by table index (read per hit: no copy of the table's entries).
    static let kinds: [LoadKind] = table.map(\.kind)
    private static let returning: UInt64 = table.indices.reduce(0) { table[$1].returnsToCaller ? $0 | 1 << UInt64($1) : $0 }

    /// Whether the API hands a value back to a caller that goes on (`API.returnsToCaller`).
    static func returnsToCaller(_ index: Int) -> Bool { returning & (1 << UInt64(index)) != 0 }

    /// The APIs `outer` calls, directly or not, as bits of table indices.
    static func callees(_ outer: Int) -> UInt64 { calleeBits[outer] }

    private static let calleeBits: [UInt64] = reachable.map { row in
        row.enumerated().reduce(UInt64(0)) { bits, entry in entry.element ? bits | 1 << UInt64(entry.offset) : bits }
    }

    /// The APIs some other API calls, as bits of table indices: a request that starts at one of
    /// them may be another request's inner call.
    static let calledByAnother: UInt64 = calleeBits.reduce(0, |)

    /// Whether `outer` calls `inner` itself.
    static func callsDirectly(_ outer: Int, _ inner: Int) -> Bool { direct[outer][inner] }

    private static let exactIndex: [String: Int] = Dictionary(
        table.indices.filter { !table[$0].prefix }.map { (table[$0].symbol, $0) }, uniquingKeysWith: { first, _ in first })

    /// `calls` as a matrix.
    private static let direct: [[Bool]] = {
        var direct = [[Bool]](repeating: [Bool](repeating: false, count: table.count), count: table.count)
        for (i, api) in table.enumerated() {
            for callee in api.calls {
                let j = exactIndex[callee] ?? table.indices.first { table[$0].prefix && table[$0].symbol == callee }
                if let j { direct[i][j] = true }
            }
        }
        return direct
    }()

    /// The transitive closure of `calls`, computed once (the table is small).
    private static let reachable: [[Bool]] = {
        let count = table.count
        var closure = direct
        for k in 0..<count {
            for i in 0..<count where closure[i][k] {
                for j in 0..<count where closure[k][j] { closure[i][j] = true }
            }
        }
        return closure
    }()
}

extension CaptureAPI {
    /// What the in-process agent wraps by default: every API of the table whose first argument
    /// is the name (CoreUI's families by their whole iOS 18 selectors), and as contexts the two
    /// that take no name but say what kind the requests inside them are.
    public static var agentTargets: (names: [String], contexts: [String]) {
        let contexts = ["-[UIImageNibPlaceholder initWithCoder:]", "-[UIImageAsset imageWithConfiguration:]"]
        // The catalog it hands back is not a name.
        let noName: Set<String> = ["+[CUICatalog defaultUICatalogForBundle:]"]
        let names = ImageAPIs.table.filter { !$0.prefix && !contexts.contains($0.symbol) && !noName.contains($0.symbol) }.map(\.symbol)
        return (names + ImageAPIs.coreUISymbols, contexts)
    }

    /// Where a toolkit decodes an image object a lookup returned, at its first use: the agent
    /// times these and names the object. GNUstep reads and decodes the file in
    /// `-[NSImage _loadFromFile:]` (found in libgnustep-gui 0.29's method list; a lookup only
    /// references the file). Apple's decode entry points are not verified on a device: none yet.
    public static let agentDecoders = ["-[NSImage _loadFromFile:]"]
}

extension LoadKind {
    /// The kind of a request whose outermost API is `api`, when the call graph's table knows it.
    public static func of(outermostAPI api: String) -> LoadKind? { ImageAPIs.index(of: api).map { ImageAPIs.kinds[$0] } }
}
