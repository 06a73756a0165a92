import Foundation
import ImgtraceSupport

/// The Xcode projects that build a source tree, read together: which of the tree's files any
/// shipping target copies into its product.
public struct ProjectSet: Sendable {
    /// Each project's tree path (`App.xcodeproj`, `ios/App.xcodeproj`) and what it says.
    public var projects: [(path: String, project: XcodeProject)]

    /// The largest project file read: the largest public ones are a few MiB.
    public static let maxProjectBytes = 64 << 20

    /// The names of the shipping targets of every project that copy the tree path `path`, sorted;
    /// empty when no target ships it.
    public func targets(shipping path: String) -> [String] {
        var names = Set<String>()
        for (_, project) in projects { names.formUnion(project.targets(shipping: path)) }
        return names.sorted()
    }

    /// Every shipping target's name, sorted.
    public var shippingTargets: [String] { Set(projects.flatMap { $0.project.targets.filter(\.ships).map(\.name) }).sorted() }

    /// Reads the projects of the tree at `root`: those `given` (an `.xcodeproj` or an
    /// `.xcworkspace`, paths as the user typed them), else every `.xcodeproj` found under the root
    /// outside dependency and build folders. A project file that cannot be read is an `InputError`
    /// naming it and the offset.
    public static func read(root: String, given: [String] = []) throws -> ProjectSet {
        let rootURL = URL(fileURLWithPath: root).standardizedFileURL
        var projectPaths: [String] = []
        if given.isEmpty {
            projectPaths = find(under: rootURL.path)
        } else {
            for path in given {
                let url = URL(fileURLWithPath: path).standardizedFileURL
                if url.pathExtension == "xcworkspace" {
                    projectPaths += try workspaceProjects(url)
                } else {
                    projectPaths.append(url.path)
                }
            }
        }
        var projects: [(path: String, project: XcodeProject)] = []
        for absolute in projectPaths.sorted() {
            let relative = treePath(absolute, under: rootURL.path)
            let file = absolute + "/project.pbxproj"
            let shown = given.isEmpty ? (root == "." ? "" : root + "/") + relative + "/project.pbxproj" : file
            let bytes = try SmallFile.read(file, maxBytes: maxProjectBytes)
            let folder = (relative as NSString).deletingLastPathComponent
            do {
                let project = try XcodeProject.read(pbxproj: bytes, projectFolder: folder) { packageFolder in
                    let manifest = rootURL.path + "/" + packageFolder + "/Package.swift"
                    guard let source = try? SmallFile.read(manifest, maxBytes: 4 << 20) else { return PackageResources() }
                    return PackageManifest.resources(source: String(decoding: source, as: UTF8.self), packageFolder: packageFolder)
                }
                projects.append((relative, project))
            } catch let error as FormatError {
                throw InputError(path: shown, location: "offset \(error.offset)", reason: error.reason)
            }
        }
        return ProjectSet(projects: projects)
    }

    /// `root/ios/App.xcodeproj` → `ios/App.xcodeproj`; a project outside the root keeps `..` and ships nothing of it.
    static func treePath(_ absolute: String, under root: String) -> String {
        if absolute == root { return "" }
        if absolute.hasPrefix(root.hasSuffix("/") ? root : root + "/") { return String(absolute.dropFirst(root.hasSuffix("/") ? root.count : root.count + 1)) }
        let up = root.split(separator: "/").count
        return String(repeating: "../", count: up) + absolute.drop { $0 == "/" }
    }

    /// Every `.xcodeproj` under `root`, outside hidden and dependency folders (CocoaPods'
    /// `Pods.xcodeproj` ships through the app's project already) and built bundles.
    static func find(under root: String) -> [String] {
        var found: [String] = []
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        while let next = walker.nextObject() as? String {
            let name = (next as NSString).lastPathComponent
            guard walker.fileAttributes?[.type] as? FileAttributeType == .typeDirectory else { continue }
            if name.hasPrefix(".") || DependencyFolders.names.contains(name) {
                walker.skipDescendants()
            } else if name.hasSuffix(".xcodeproj") {
                walker.skipDescendants()
                if FileManager.default.fileExists(atPath: root + "/" + next + "/project.pbxproj") { found.append(root + "/" + next) }
            } else if name.hasSuffix(".xcworkspace") || name.hasSuffix(".xcassets") || name.hasSuffix(".app") {
                walker.skipDescendants()
            }
        }
        return found
    }

    /// The projects a workspace's `contents.xcworkspacedata` names (`location = "group:App.xcodeproj"`).
    static func workspaceProjects(_ workspace: URL) throws -> [String] {
        let file = workspace.path + "/contents.xcworkspacedata"
        let text = String(decoding: try SmallFile.read(file, maxBytes: 4 << 20), as: UTF8.self)
        var out: [String] = []
        for piece in text.components(separatedBy: "location = \"").dropFirst() {
            guard let end = piece.firstIndex(of: "\"") else { continue }
            let location = XMLEntities.decoded(String(piece[..<end]), strict: false) ?? String(piece[..<end])
            guard location.hasSuffix(".xcodeproj") else { continue }
            // `group:` is relative to the workspace's folder, `container:` too for a standalone one; `absolute:` is absolute.
            if location.hasPrefix("absolute:") {
                out.append(String(location.dropFirst("absolute:".count)))
            } else if let colon = location.firstIndex(of: ":") {
                let relative = String(location[location.index(after: colon)...])
                out.append(workspace.deletingLastPathComponent().appendingPathComponent(relative).standardizedFileURL.path)
            }
        }
        return out
    }
}
