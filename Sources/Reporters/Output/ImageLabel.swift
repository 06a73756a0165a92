import AppBundle
import ImgtraceSupport

/// How reports for people name an image: a rendition of the app's own `Assets.car` by its facet
/// and traits (`logo[universal,3x,any]`), anything else by its id. Machine formats keep the id.
enum ImageLabel {
    static func text(_ image: BundleImage) -> String {
        let topCatalog = "Assets.car#"
        return image.path == "Assets.car" && image.id.hasPrefix(topCatalog) ? String(image.id.dropFirst(topCatalog.count)) : image.id
    }

    /// `4032×3024`, when the pixel size is known.
    static func pixels(_ image: BundleImage) -> String? {
        image.pixelWidth.flatMap { w in image.pixelHeight.map { dimensions(w, $0) } }
    }
}
