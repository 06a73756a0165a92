import AssetCatalog

/// The device idiom an image is for, as asset catalogs (`idiom` key, rendition keys), file names
/// (`~ipad`, `~iphone`) and device profiles name it: one of the catalog format's idioms
/// (`AssetCatalog.Idiom`, whose names are the JSON contract's), or a name the format does not
/// define (a newer catalog's number, a misspelt `Contents.json`) kept as read, never dropped.
public enum ImageIdiom: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    case known(Idiom)
    case other(String)

    public static let universal = ImageIdiom.known(.universal)
    public static let phone = ImageIdiom.known(.phone)
    public static let pad = ImageIdiom.known(.pad)
    public static let mac = ImageIdiom.known(.mac)

    /// The idiom of a contract name (`universal`, `phone`, `pad`, …); any other name is `other`.
    public init(name: String) {
        self = Idiom(name: name).map(ImageIdiom.known) ?? .other(name)
    }

    public init(stringLiteral name: String) { self.init(name: name) }

    /// The contract name.
    public var name: String {
        switch self {
        case .known(let idiom): return idiom.name
        case .other(let name): return name
        }
    }

    public var description: String { name }

    /// By name, so lists of idioms read the same in every report.
    public static func < (a: ImageIdiom, b: ImageIdiom) -> Bool { a.name < b.name }
}
