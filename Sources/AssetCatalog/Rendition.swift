import ImgtraceSupport

/// A rendition's key: its attributes in KEYFORMAT order, each with its value, zeros included
/// (an attribute past the KEYFORMAT's is `UInt16.max`). The keys of one catalog share one
/// buffer of values: an array per rendition was a third of reading a catalog of 100,000.
public struct RenditionKey: RandomAccessCollection, Equatable, Sendable, ExpressibleByArrayLiteral {
    public typealias Element = (attribute: UInt16, value: UInt16)

    /// The KEYFORMAT and every key's values, one key after another: one object for a catalog's
    /// keys, so a key costs one reference count, not two.
    final class Storage: Sendable {
        let attributes: [UInt16]
        let values: [UInt16]

        init(attributes: [UInt16], values: [UInt16]) {
            self.attributes = attributes
            self.values = values
        }
    }

    private let storage: Storage
    private let offset: Int
    public let endIndex: Int
    public var startIndex: Int { 0 }

    /// The key whose `count` values start at `offset` in the storage's values.
    init(_ storage: Storage, offset: Int, count: Int) {
        self.storage = storage
        self.offset = offset
        endIndex = count
    }

    public init(arrayLiteral elements: Element...) {
        let storage = elements.isEmpty ? Self.noStorage : Storage(attributes: elements.map(\.attribute), values: elements.map(\.value))
        self.init(storage, offset: 0, count: elements.count)
    }

    /// What every empty key shares (a rendition before its key is read): no object each.
    private static let noStorage = Storage(attributes: [], values: [])

    public subscript(position: Int) -> Element {
        (position < storage.attributes.count ? storage.attributes[position] : .max, storage.values[offset + position])
    }

    public static func == (a: RenditionKey, b: RenditionKey) -> Bool { a.elementsEqual(b) { $0 == $1 } }
}

/// Rendition key attributes (KEYFORMAT ids), named as the ground truth and assetutil do.
public enum KeyAttribute: UInt16, Sendable, CaseIterable {
    case look = 0, element, part, size, direction, placeholder, value, appearance, dim1, dim2, state, layer
    case scale, localization, presentationState, idiom, subtype, identifier, previousValue, previousState
    case sizeClassHorizontal, sizeClassVertical, memoryClass, graphicsClass, displayGamut, deploymentTarget
    case glyphWeight, glyphSize

    /// Snake-case name (`deployment_target`), as in the corpus ground truth.
    public var name: String {
        switch self {
        case .look: return "look"
        case .element: return "element"
        case .part: return "part"
        case .size: return "size"
        case .direction: return "direction"
        case .placeholder: return "placeholder"
        case .value: return "value"
        case .appearance: return "appearance"
        case .dim1: return "dim1"
        case .dim2: return "dim2"
        case .state: return "state"
        case .layer: return "layer"
        case .scale: return "scale"
        case .localization: return "localization"
        case .presentationState: return "presentation_state"
        case .idiom: return "idiom"
        case .subtype: return "subtype"
        case .identifier: return "identifier"
        case .previousValue: return "previous_value"
        case .previousState: return "previous_state"
        case .sizeClassHorizontal: return "size_class_h"
        case .sizeClassVertical: return "size_class_v"
        case .memoryClass: return "memory_class"
        case .graphicsClass: return "graphics_class"
        case .displayGamut: return "display_gamut"
        case .deploymentTarget: return "deployment_target"
        case .glyphWeight: return "glyph_weight"
        case .glyphSize: return "glyph_size"
        }
    }

    /// assetutil's `kCRTheme…Name` for the header's "Key Format".
    public var themeName: String {
        let camel = name.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return "kCRTheme\(camel)Name"
    }
}

/// Device idiom of a rendition key (0 universal … 6 marketing).
public enum Idiom: UInt16, Sendable, CaseIterable {
    case universal = 0, phone, pad, tv, car, watch, marketing, mac

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
        }
    }

    /// The idiom of a name (`phone`), the inverse of `name`.
    public init?(name: String) {
        guard let idiom = Idiom.allCases.first(where: { $0.name == name }) else { return nil }
        self = idiom
    }
}

/// A rendition's frame inside a packed atlas (TLV 1010).
public struct AtlasFrame: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    /// The atlas's key attributes.
    public var atlasKey: [(attribute: UInt16, value: UInt16)]

    public static func == (a: AtlasFrame, b: AtlasFrame) -> Bool {
        a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height
            && a.atlasKey.map(\.attribute) == b.atlasKey.map(\.attribute) && a.atlasKey.map(\.value) == b.atlasKey.map(\.value)
    }
}

/// One size of a multisize icon set (`SISM`).
public struct MultisizeEntry: Equatable, Sendable {
    public var width: Int, height: Int, index: Int, idiom: Int
}

/// One rendition of a compiled catalog: a concrete variant of a facet.
public struct Rendition: Equatable, Sendable {
    /// The facet (asset) name; `nil` for packed atlases and records with no facet.
    public var facet: String?
    /// The CSI rendition (file) name, up to 128 bytes; `nil` when the value is not a CSI record.
    public var name: String?
    /// Key attributes in KEYFORMAT order, zeros included.
    public var key: RenditionKey
    /// Bytes of the CSI record: assetutil's SizeOnDisk.
    public var sizeOnDisk: Int
    /// Raw layout (12 one-part scale, 1003 internal link, 1004 atlas, 1009 colour…).
    public var layoutRaw: Int?
    /// Pixel format FourCC (`ARGB`, `GA8`, `JPEG`, `HEIF`, `PDF`, `SVG`, `DATA`), if any.
    public var pixelFormat: String?
    /// Compression as CoreUI names it (`lzfse`, `deepmap2`, `none(rawd)`, `lzfse(rawd)`), if any.
    public var compression: String?
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Where the size came from: `csi` (header), `tlv1003` (metrics), or nil (no size).
    public var sizeSource: String?
    public var csiScaleFactor: Int
    public var csiFlags: UInt32
    /// Bitmap payload flags (bit 0 chunked, bit 1 opaque).
    public var bitmapFlags: UInt32?
    /// Raw data length (assetutil's "Data Length").
    public var dataLength: Int?
    public var uti: String?
    public var atlasFrame: AtlasFrame?
    public var multisize: [MultisizeEntry]
    /// Appearance name from APPEARANCEKEYS, when the key's appearance is not 0.
    public var appearanceName: String?
    /// Byte offset of the CSI record in the file.
    public var offset: Int

    public static func == (a: Rendition, b: Rendition) -> Bool {
        a.facet == b.facet && a.name == b.name && a.key == b.key && a.sizeOnDisk == b.sizeOnDisk && a.layoutRaw == b.layoutRaw
            && a.pixelFormat == b.pixelFormat && a.compression == b.compression && a.pixelWidth == b.pixelWidth
            && a.pixelHeight == b.pixelHeight && a.offset == b.offset
    }

    /// The value of a key attribute, 0 when the KEYFORMAT lacks it.
    public func value(_ attribute: KeyAttribute) -> Int {
        Int(key.first { $0.attribute == attribute.rawValue }?.value ?? 0)
    }

    public var scale: Int { value(.scale) }
    public var idiom: Idiom? { Idiom(rawValue: UInt16(value(.idiom))) }
    public var layout: String? { layoutRaw.map(Rendition.layoutName) }

    /// Whether the rendition is a picture a name can load (not a colour, data or set).
    public var isImage: Bool {
        guard let layoutRaw else { return false }
        switch layoutRaw {
        case 1000, 1009, 1010, 1020, 1021, 1005, 1006: return false
        default: return true
        }
    }

    public var isVector: Bool { csiFlags & 0x4 != 0 && (pixelFormat == "PDF" || pixelFormat == "SVG") }

    /// Opaque bitmap (payload flag) or JPEG.
    public var isOpaque: Bool { pixelFormat == "JPEG" || (bitmapFlags.map { $0 & 0x2 != 0 } ?? false) }

    /// Layout names, as the corpus ground truth spells them.
    public static func layoutName(_ raw: Int) -> String {
        switch raw {
        case 6: return "gradient"
        case 7: return "effect"
        case 9: return "vector"
        case 10: return "onepart-fixed"
        case 11: return "onepart-tile"
        case 12: return "onepart-scale"
        case 20...25: return "threepart"
        case 30...34: return "ninepart"
        case 40: return "sixpart"
        case 50: return "animation"
        case 1000: return "data"
        case 1001: return "external-link"
        case 1002: return "layer-stack"
        case 1003: return "internal-link"
        case 1004: return "packed-image"
        case 1005: return "name-list"
        case 1006: return "thinning-placeholder"
        case 1007: return "texture"
        case 1008: return "texture-image"
        case 1009: return "color"
        case 1010: return "multisize-image"
        case 1011...1016: return "model"
        case 1017: return "vector-glyph"
        case 1018: return "solid-image-stack"
        case 1019: return "icon-image-stack"
        case 1020: return "icon-group"
        case 1021: return "named-gradient"
        default: return "layout-\(raw)"
        }
    }

    /// CoreUI's names of bitmap compressions.
    public static func compressionName(_ raw: UInt32) -> String {
        raw < compressionNames.count ? compressionNames[Int(raw)] : "compression-\(raw)"
    }

    private static let compressionNames = [
        "uncompressed", "rle", "zip", "lzvn", "lzfse", "jpeg-lzfse", "blurred", "astc",
        "palette-img", "hevc", "deepmap-lzfse", "deepmap2", "dxtc",
    ]
}
