/// The device idiom an image is for, as asset catalogs (`idiom` key, rendition keys), file names
/// (`~ipad`, `~iphone`) and device profiles name it. The names are the JSON contract's; an idiom
/// the format does not define (a newer catalog's number, a misspelt `Contents.json`) is kept as
/// read in `other`, never dropped or guessed.
public enum ImageIdiom: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    case universal, phone, pad, tv, car, watch, marketing, mac
    case other(String)

    /// The idiom of a contract name (`universal`, `phone`, `pad`, …); any other name is `other`.
    public init(name: String) {
        switch name {
        case "universal": self = .universal
        case "phone": self = .phone
        case "pad": self = .pad
        case "tv": self = .tv
        case "car": self = .car
        case "watch": self = .watch
        case "marketing": self = .marketing
        case "mac": self = .mac
        default: self = .other(name)
        }
    }

    public init(stringLiteral name: String) { self.init(name: name) }

    /// The contract name.
    public var name: String {
        switch self {
        case .universal: return "universal"
        case .phone: return "phone"
        case .pad: return "pad"
        case .tv: return "tv"
        case .car: return "car"
        case .watch: return "watch"
        case .marketing: return "marketing"
        case .mac: return "mac"
        case .other(let name): return name
        }
    }

    public var description: String { name }

    /// By name, so lists of idioms read the same in every report.
    public static func < (a: ImageIdiom, b: ImageIdiom) -> Bool { a.name < b.name }
}
