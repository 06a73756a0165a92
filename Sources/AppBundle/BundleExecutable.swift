import Foundation
import ImgtraceSupport

/// Where an app folder keeps the program to run: what its Info.plist names
/// (`CFBundleExecutable`, GNUstep's `NSExecutable`), in the place each layout puts it — iOS
/// `Name.app/Name`, macOS `Name.app/Contents/MacOS/Name`, GNUstep `Name.app/Name` beside
/// `Resources/Info-gnustep.plist`.
public enum BundleExecutable {
    /// The executable of the app folder at `path`; any other path is returned as it is. When no
    /// candidate exists, the iOS/GNUstep place of the folder's own name (the error then names it).
    public static func path(of path: String) -> String {
        guard path.hasSuffix(".app") || path.hasSuffix(".app/") else { return path }
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        let own = String(PathText.lastComponent(folder).dropLast(4))
        var names: [String] = []
        for plist in ["Contents/Info.plist", "Info.plist", "Resources/Info-gnustep.plist"] {
            // The bounded reader every input goes through: a FIFO or a huge file is refused, not read.
            guard let bytes = try? SmallFile.read(folder + "/" + plist, maxBytes: BundleReader.maxPlistBytes),
                let parsed = try? PropertyList.parse(bytes), let name = InfoPlistFacts(parsed).executable,
                !name.isEmpty, !name.contains("/")
            else { continue }
            names.append(name)
        }
        names.append(own)
        for name in names {
            for candidate in [folder + "/" + name, folder + "/Contents/MacOS/" + name] where FileManager.default.isExecutableFile(atPath: candidate) {
                return candidate
            }
        }
        return folder + "/" + own
    }
}
