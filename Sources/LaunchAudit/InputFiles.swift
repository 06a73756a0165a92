import AppBundle
import CodeReferences
import ImgtraceSupport

/// Which files inside a folder an audit reads, for the guard that keeps a report or a patch off
/// them: a built product is read whole; a source tree's code, data files, images, interface
/// files, asset catalogs, projects and manifests are, outside the folders no reader enters.
public enum InputFiles {
    /// Whether a run given the folder named `folderName` (`App`, `App.app`, `App.xcodeproj`)
    /// reads the file at `relative` inside it.
    public static func isRead(_ relative: String, inFolderNamed folderName: String) -> Bool {
        let components = ([folderName] + relative.split(separator: "/").map(String.init)).filter { !$0.isEmpty }
        guard let name = components.last else { return false }
        let folders = components.dropLast()
        if folders.contains(where: { builtProducts.contains(PathText.fileExtension($0).lowercased()) }) { return true }
        if folders.dropFirst().contains(where: { $0.hasPrefix(".") || CodeIndex.skippedFolders.contains($0) }) { return false }
        if folders.contains(where: { readWhole.contains(PathText.fileExtension($0).lowercased()) }) { return true }
        let ext = PathText.fileExtension(name).lowercased()
        return name == "Package.swift" || sourceExtensions.contains(ext) || DataReferences.reads(name) || LooseImageName.imageExtensions.contains(ext)
    }

    /// Folders read whole wherever they are: built products.
    static let builtProducts: Set<String> = ["app", "appex", "framework", "bundle", "xcarchive"]
    /// Packages of a source tree read whole: catalogs, projects, workspaces, localizations.
    static let readWhole: Set<String> = ["xcassets", "xcodeproj", "xcworkspace", "lproj"]
    /// Code and interface files.
    static let sourceExtensions: Set<String> = ["swift", "m", "mm", "h", "storyboard", "xib", "nib", "car"]
}
