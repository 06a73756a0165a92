import ImgtraceSupport

/// An Xcode project (`*.xcodeproj/project.pbxproj`) reduced to what `unused` needs: its
/// targets, what kind of product each builds, and which files of the tree each copies into it.
public struct XcodeProject: Sendable, Equatable {
    /// One native target.
    public struct Target: Sendable, Equatable {
        public var name: String
        /// `com.apple.product-type.application`, `….app-extension`, `….bundle.unit-test`, …
        public var productType: String
        /// Paths relative to the tree root that the target copies whole: a file, or a folder
        /// (an asset catalog, a folder reference, a synchronized folder's explicit folder).
        public var resources: Set<String>
        /// Synchronized folders (Xcode 16): everything under `folder` is the target's, except `excluded`.
        public var synchronizedFolders: [SynchronizedFolder]
        /// Folders of Swift package targets the target links whose asset catalogs SwiftPM compiles
        /// into the package's resource bundle without a `resources:` entry.
        public var packageFolders: Set<String>

        /// Whether the product reaches users: test bundles run on a developer's machine only.
        public var ships: Bool { !productType.contains("unit-test") && !productType.contains("ui-testing") }

        /// Whether the target copies the file at `path` (relative to the tree root) into its product.
        public func copies(_ path: String) -> Bool {
            if XcodeProject.isUnder(path, any: resources) { return true }
            for folder in synchronizedFolders where XcodeProject.isUnder(path, folder.folder) {
                if !folder.excludes(path) { return true }
            }
            if path.split(separator: "/").contains(where: { $0.hasSuffix(".xcassets") }), XcodeProject.isUnder(path, any: packageFolders) { return true }
            return false
        }
    }

    /// A folder Xcode keeps in step with the disk, less the files a target opted out of.
    public struct SynchronizedFolder: Sendable, Equatable {
        public var folder: String
        /// Tree paths; a folder excludes everything under it. A localized exception
        /// (`/Localized/x.strings`) is kept with its `.lproj` component removed.
        public var excluded: Set<String>

        func excludes(_ path: String) -> Bool {
            if XcodeProject.isUnder(path, any: excluded) { return true }
            let delocalized = path.split(separator: "/").filter { !$0.hasSuffix(".lproj") }.joined(separator: "/")
            return delocalized != path && XcodeProject.isUnder(delocalized, any: excluded)
        }
    }

    /// The project's targets, in the file's order of ids.
    public var targets: [Target]
    /// Folders (tree paths) of the local Swift packages the project references.
    public var localPackages: [String]

    /// The names of the shipping targets that copy `path` into their product, sorted.
    public func targets(shipping path: String) -> [String] {
        targets.filter { $0.ships && $0.copies(path) }.map(\.name).sorted()
    }

    static func isUnder(_ path: String, _ folder: String) -> Bool {
        folder.isEmpty || path == folder || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }

    static func isUnder(_ path: String, any folders: Set<String>) -> Bool {
        // Every ancestor of the path, looked up: a target may list thousands of files.
        if folders.contains(path) { return true }
        var end = path.endIndex
        while let slash = path[..<end].lastIndex(of: "/") {
            if folders.contains(String(path[..<slash])) { return true }
            end = slash
        }
        return folders.contains("")
    }
}

extension XcodeProject {
    /// Reads a `project.pbxproj`. `projectFolder` is the tree path of the folder that holds the
    /// `.xcodeproj` (Xcode's `SOURCE_ROOT`; empty at the tree root). `packageResources` gives the
    /// resource folders of a local package (its tree path in, tree paths out), from its `Package.swift`.
    public static func read(
        pbxproj bytes: [UInt8], projectFolder: String, packageResources: (String) -> PackageResources = { _ in PackageResources() }
    ) throws -> XcodeProject {
        guard case .dictionary(let root) = try OpenStepPlist.parse(bytes) else {
            throw FormatError(offset: 0, reason: "a project file is one dictionary")
        }
        guard case .dictionary(let objects)? = root["objects"], let rootID = root["rootObject"]?.string,
            let project = objects[rootID]?.dictionary
        else {
            throw FormatError(offset: 0, reason: "no `objects` with the `rootObject` a project file has")
        }
        let resolver = PathResolver(objects: objects, project: project, projectFolder: projectFolder)

        // Local packages: their folders and the resources their manifests declare.
        var packageFolderByID: [String: String] = [:]
        for id in project["packageReferences"]?.strings ?? [] {
            guard let reference = objects[id]?.dictionary, reference["isa"]?.string == "XCLocalSwiftPackageReference",
                let relative = reference["relativePath"]?.string
            else { continue }
            packageFolderByID[id] = normalized(join(resolver.projectFolder, relative))
        }
        var resourcesByPackage: [String: PackageResources] = [:]
        for folder in Set(packageFolderByID.values) { resourcesByPackage[folder] = packageResources(folder) }

        // Each synchronized folder's exception sets, by the target they name: read once for all targets.
        var optedIn: [String: [(group: String, files: [String])]] = [:]
        for (groupID, folder) in resolver.pathByID where objects[groupID]?.dictionary?["isa"]?.string == "PBXFileSystemSynchronizedRootGroup" {
            for exceptionID in objects[groupID]?.dictionary?["exceptions"]?.strings ?? [] {
                guard let exception = objects[exceptionID]?.dictionary, let target = exception["target"]?.string,
                    exception["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet"
                else { continue }
                optedIn[target, default: []].append((groupID, (exception["membershipExceptions"]?.strings ?? []).map { exceptionPath($0, in: folder) }))
            }
        }
        var targets: [Target] = []
        for id in project["targets"]?.strings ?? [] {
            guard let target = objects[id]?.dictionary, target["isa"]?.string == "PBXNativeTarget" else { continue }
            var made = Target(
                name: target["name"]?.string ?? id, productType: target["productType"]?.string ?? "", resources: [], synchronizedFolders: [],
                packageFolders: [])
            for phaseID in target["buildPhases"]?.strings ?? [] {
                guard let phase = objects[phaseID]?.dictionary,
                    ["PBXResourcesBuildPhase", "PBXCopyFilesBuildPhase"].contains(phase["isa"]?.string ?? "")
                else { continue }
                for buildFileID in phase["files"]?.strings ?? [] {
                    guard let fileRef = objects[buildFileID]?.dictionary?["fileRef"]?.string else { continue }
                    made.resources.formUnion(resolver.paths(of: fileRef))
                }
            }
            for groupID in target["fileSystemSynchronizedGroups"]?.strings ?? [] {
                guard let folder = resolver.pathByID[groupID] else { continue }
                var excluded = Set<String>()
                for exceptionID in objects[groupID]?.dictionary?["exceptions"]?.strings ?? [] {
                    guard let exception = objects[exceptionID]?.dictionary, exception["target"]?.string == id,
                        exception["isa"]?.string == "PBXFileSystemSynchronizedBuildFileExceptionSet"
                    else { continue }
                    for relative in exception["membershipExceptions"]?.strings ?? [] {
                        excluded.insert(exceptionPath(relative, in: folder))
                    }
                }
                made.synchronizedFolders.append(SynchronizedFolder(folder: folder, excluded: excluded))
            }
            // A synchronized folder of another target adds the files its exceptions name for this one.
            let own = Set(target["fileSystemSynchronizedGroups"]?.strings ?? [])
            for (groupID, files) in optedIn[id] ?? [] where !own.contains(groupID) { made.resources.formUnion(files) }
            for dependencyID in target["packageProductDependencies"]?.strings ?? [] {
                guard let packageID = objects[dependencyID]?.dictionary?["package"]?.string, let folder = packageFolderByID[packageID],
                    let declared = resourcesByPackage[folder]
                else { continue }
                made.resources.formUnion(declared.resources)
                made.packageFolders.formUnion(declared.targetFolders)
            }
            targets.append(made)
        }
        return XcodeProject(targets: targets, localPackages: Set(packageFolderByID.values).sorted())
    }

    /// The tree path of every group and file reference reached from the project's main group, by id.
    static func referencePaths(objects: [String: OpenStepValue], project: [String: OpenStepValue], projectFolder: String) -> [String: String] {
        PathResolver(objects: objects, project: project, projectFolder: projectFolder).pathByID
    }

    /// `Foo/x.png` in `App` → `App/Foo/x.png`; `/Localized/Foo/x.strings` → `App/Foo/x.strings`.
    static func exceptionPath(_ relative: String, in folder: String) -> String {
        var path = relative
        if path.hasPrefix("/Localized/") { path = String(path.dropFirst("/Localized/".count)) }
        return normalized(join(folder, path))
    }

    static func join(_ a: String, _ b: String) -> String {
        if b.isEmpty { return a }
        if a.isEmpty { return b }
        return a + "/" + b
    }

    /// Resolves `.` and `..`; a path that climbs out of the tree keeps a leading `..` and matches nothing.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }
}

/// What a local Swift package's manifest says it ships.
public struct PackageResources: Sendable, Equatable {
    /// Tree paths its targets' `resources:` name (`.process`, `.copy`).
    public var resources: Set<String> = []
    /// Tree paths of its non-test targets' folders.
    public var targetFolders: Set<String> = []

    public init(resources: Set<String> = [], targetFolders: Set<String> = []) {
        self.resources = resources
        self.targetFolders = targetFolders
    }
}

/// Every group and file reference's tree path, found by walking the groups from the main group.
private struct PathResolver {
    let objects: [String: OpenStepValue]
    let projectFolder: String
    /// Ids whose path is known; a reference outside the tree (`<absolute>`, `SDKROOT`) has none.
    var pathByID: [String: String] = [:]

    /// Resolves every path reached from `project`'s main group; `projectFolder` as for `XcodeProject.read`.
    init(objects: [String: OpenStepValue], project: [String: OpenStepValue], projectFolder: String) {
        self.objects = objects
        self.projectFolder = XcodeProject.join(projectFolder, project["projectDirPath"]?.string ?? "")
        if let main = project["mainGroup"]?.string { walk(group: main, folder: self.projectFolder, depth: 0) }
    }

    mutating func walk(group id: String, folder: String, depth: Int) {
        // Groups nest as the project says; a cycle or absurd depth in a hostile file stops here.
        guard depth < 256, pathByID[id] == nil, let object = objects[id]?.dictionary,
            let path = ownPath(object, parentFolder: folder)
        else { return }
        pathByID[id] = path
        for child in object["children"]?.strings ?? [] { walk(group: child, folder: path, depth: depth + 1) }
    }

    func ownPath(_ object: [String: OpenStepValue], parentFolder: String) -> String? {
        let path = object["path"]?.string ?? ""
        switch object["sourceTree"]?.string ?? "<group>" {
        case "<group>": return XcodeProject.normalized(XcodeProject.join(parentFolder, path))
        case "SOURCE_ROOT": return XcodeProject.normalized(XcodeProject.join(projectFolder, path))
        default: return nil
        }
    }

    /// The paths a build file's reference copies: a file or folder, or a variant group's localized files.
    func paths(of id: String) -> [String] {
        guard let path = pathByID[id] else { return [] }
        if objects[id]?.dictionary?["isa"]?.string == "PBXVariantGroup" {
            return (objects[id]?.dictionary?["children"]?.strings ?? []).compactMap { pathByID[$0] }
        }
        return [path]
    }
}
