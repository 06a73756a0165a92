import AppBundle
import ImgtraceSupport

/// The bundles a report's paths are relative to, as they were given: the inventory's paths of
/// the first are its own, a later one's start with its folder name (`BundleID.pathPrefix`). A
/// report links an image to the file in the bundle that ships it.
public struct BundleRoots: Sendable, Equatable, ExpressibleByStringLiteral {
    /// Each `--bundle`, in the order given.
    public var paths: [String]

    public init(_ paths: [String]) { self.paths = paths }

    /// One bundle.
    public init(stringLiteral path: String) { paths = [path] }

    /// The first bundle: where a finding without a file of its own points.
    public var primary: String { paths.first ?? "" }

    /// The file an inventory path names, under the bundle that holds it.
    public func file(of asset: String) -> String {
        for (index, root) in paths.enumerated().dropFirst() {
            let prefix = BundleID.pathPrefix(ofGiven: index, path: root)
            if asset.hasPrefix(prefix) { return PathText.join(root, String(asset.dropFirst(prefix.count))) }
        }
        return PathText.join(primary, asset)
    }

}
