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
        XcodeProject.union(projects.map { $0.project.targets(shipping: path) })
    }

    /// Every shipping target's name, sorted.
    public var shippingTargets: [String] { Set(projects.flatMap { $0.project.targets.filter(\.ships).map(\.name) }).sorted() }

    /// What could not be read, each naming its file: a project found in the tree that is not a
    /// project (a test fixture, a template), a manifest too large or deep to parse.
    public var warnings: [String] = []
    /// Every project file and manifest read, as the paths opened.
    public var filesRead: [String] = []

    /// Reads the projects of the tree at `root`: those `given` (an `.xcodeproj` or an
    /// `.xcworkspace`, paths as the user typed them), else every `.xcodeproj` found under the root
    /// outside dependency and build folders. A given project that cannot be read is an
    /// `InputError` naming it and the offset; a found one is a warning, and the rest are judged.
    /// A project reached twice (a workspace and the project it names) is read once.
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
        var set = ProjectSet(projects: [])
        var seen = Set<String>()
        for absolute in projectPaths.sorted() {
            let relative = treePath(absolute, under: rootURL.path)
            let file = absolute + "/project.pbxproj"
            let shown = given.isEmpty ? (root == "." ? "" : root + "/") + relative + "/project.pbxproj" : file
            if let identity = PlatformIO.fileIdentity(file), !seen.insert("\(identity.device):\(identity.inode)").inserted { continue }
            do {
                set.filesRead.append(file)
                let project = try readProject(file, shown: shown, relative: relative, root: rootURL.path, warnings: &set.warnings, filesRead: &set.filesRead)
                set.projects.append((relative, project))
            } catch let error as InputError where given.isEmpty {
                set.warnings.append("\(error.description): not a project Xcode can open; the images it may ship are judged without it")
            }
        }
        return set
    }

    /// One project file, its local packages' manifests read as it names them.
    private static func readProject(
        _ file: String, shown: String, relative: String, root: String, warnings: inout [String], filesRead: inout [String]
    ) throws -> XcodeProject {
        let bytes: [UInt8]
        do { bytes = try SmallFile.read(file, maxBytes: maxProjectBytes) } catch let error as InputError { throw InputError(path: shown, reason: error.reason) }
        let folder = PathText.folder(relative)
        var manifestWarnings: [String] = []
        var manifests: [String] = []
        defer {
            warnings += manifestWarnings
            filesRead += manifests
        }
        do {
            return try XcodeProject.read(pbxproj: bytes, projectFolder: folder) { packageFolder in
                let manifest = root + "/" + packageFolder + "/Package.swift"
                let named = SafeText.quoted(packageFolder + "/Package.swift")
                manifests.append(manifest)
                guard let source = try? SmallFile.read(manifest, maxBytes: PackageManifest.maxBytes) else {
                    if FileManager.default.fileExists(atPath: manifest) {
                        manifestWarnings.append("\(named): too large to read: every file of its package is taken as shipped")
                        return PackageResources(resources: [packageFolder])
                    }
                    return PackageResources()
                }
                guard let declared = PackageManifest.resources(source: source, packageFolder: packageFolder) else {
                    manifestWarnings.append("\(named): too large or too deeply nested to parse: every file of its package is taken as shipped")
                    return PackageResources(resources: [packageFolder])
                }
                return declared
            }
        } catch let error as FormatError {
            throw InputError(path: shown, location: "offset \(error.offset)", reason: error.reason)
        }
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
        let packages = [".xcodeproj", ".xcworkspace", ".xcassets", ".app"]
        guard
            let walk = try? DirectoryWalk(
                root: root, links: .listed,
                folders: { name in
                    if name.hasPrefix(".") || DependencyFolders.names.contains(name) { return .skip }
                    return packages.contains(where: name.hasSuffix) ? .listOnly : .enter
                })
        else { return [] }
        return walk.entries.compactMap { entry in
            let project = root + "/" + entry.path
            guard entry.kind == .directory, entry.path.hasSuffix(".xcodeproj"), FileManager.default.fileExists(atPath: project + "/project.pbxproj") else { return nil }
            return project
        }
    }

    /// The projects a workspace's `contents.xcworkspacedata` names, as Xcode resolves them: a
    /// `group:` location against the enclosing `<Group>`'s folder (the workspace's folder at the
    /// top), `container:` against the workspace's folder, `absolute:` as it is; groups nest.
    static func workspaceProjects(_ workspace: URL) throws -> [String] {
        let file = workspace.path + "/contents.xcworkspacedata"
        return workspaceProjects(contents: try SmallFile.read(file, maxBytes: 4 << 20), workspace: workspace)
    }

    /// The projects the workspace file `contents` of `workspace` names: absolute paths.
    package static func workspaceProjects(contents: [UInt8], workspace: URL) -> [String] {
        let text = String(decoding: contents, as: UTF8.self)
        let container = workspace.deletingLastPathComponent().path
        var folders = [container]
        var out: [String] = []
        for tag in WorkspaceTags(text) {
            switch tag.name {
            case "/Group":
                if folders.count > 1 { folders.removeLast() }
            case "Group", "FileRef":
                let location = tag.location.map { resolved($0, group: folders[folders.count - 1], container: container) } ?? folders[folders.count - 1]
                if tag.name == "Group", !tag.closed {
                    folders.append(location)
                } else if tag.name == "FileRef", location.hasSuffix(".xcodeproj") {
                    out.append(URL(fileURLWithPath: location).standardizedFileURL.path)
                }
            default: continue
            }
        }
        return out
    }

    /// A workspace location's folder or file: `group:a/b` under `group`, `container:a/b` under
    /// `container`, `absolute:/a/b`; a location of another kind (`self:`, `developer:`) is the group's folder.
    static func resolved(_ location: String, group: String, container: String) -> String {
        guard let colon = location.firstIndex(of: ":") else { return PathText.join(group, location) }
        let kind = location[..<colon], rest = String(location[location.index(after: colon)...])
        switch kind {
        case "group": return PathText.join(group, rest)
        case "container": return PathText.join(container, rest)
        case "absolute": return rest
        default: return group
        }
    }

}

/// The `<Group>`, `</Group>` and `<FileRef>` tags of a workspace file, in order, with each one's
/// `location` (entities decoded) and whether it closes itself.
private struct WorkspaceTags: Sequence, IteratorProtocol {
    struct Tag {
        var name: Substring
        var location: String?
        var closed: Bool
    }

    private let text: Substring
    private var rest: Substring

    init(_ text: String) {
        self.text = Substring(text)
        rest = self.text
    }

    mutating func next() -> Tag? {
        while let open = rest.firstIndex(of: "<") {
            let afterOpen = rest.index(after: open)
            guard let end = rest[afterOpen...].firstIndex(of: ">") else { return nil }
            let body = rest[afterOpen..<end]
            rest = rest[rest.index(after: end)...]
            let name = body.prefix { !$0.isWhitespace && $0 != "/" && $0 != ">" }
            let rawName = body.first == "/" ? "/" + body.dropFirst().prefix { !$0.isWhitespace } : name
            guard ["Group", "/Group", "FileRef"].contains(rawName) else { continue }
            return Tag(name: Substring(rawName), location: Self.attribute("location", in: body), closed: body.hasSuffix("/"))
        }
        return nil
    }

    /// `location = "group:App.xcodeproj"` → `group:App.xcodeproj`.
    private static func attribute(_ key: String, in body: Substring) -> String? {
        var rest = body
        while let range = rest.range(of: key) {
            var after = rest[range.upperBound...].drop { $0.isWhitespace }
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before?.isWhitespace == true, after.first == "=" else { continue }
            after = after.dropFirst().drop { $0.isWhitespace }
            guard let quote = after.first, quote == "\"" || quote == "'" else { return nil }
            let value = after.dropFirst().prefix { $0 != quote }
            return XMLEntities.decoded(String(value), strict: false) ?? String(value)
        }
        return nil
    }
}
