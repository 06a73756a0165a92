import AppBundle

/// How reports for people name an image: a rendition of the app's own `Assets.car` by its facet
/// and traits (`logo[universal,3x,any]`), anything else by its id. Machine formats keep the id.
enum ImageLabel {
    static func text(_ image: BundleImage) -> String {
        let topCatalog = "Assets.car#"
        return image.path == "Assets.car" && image.id.hasPrefix(topCatalog) ? String(image.id.dropFirst(topCatalog.count)) : image.id
    }
}
