import ImgtraceSupport

/// An Xcode project (`*.xcodeproj/project.pbxproj`) reduced to what `unused` needs: its
/// targets, what kind of product each builds, and which files of the tree each copies into it.
public struct XcodeProject: Sendable, Equatable {
    /// One native target.
    public struct Target: Sendable, Equatable {
        public var name: String
        /// `com.apple.product-type.application`, `….app-extension`, `….bundle.unit-test`, …
        public var productType: String
        /// Indices into the project's `pathSets` of what the target copies: a build phase's
        /// files are one set however many targets share the phase, so a project costs what it declares.
        public var pathSets: [Int]
        /// Synchronized folders (Xcode 16): everything under `folder` is the target's, except `excluded`.
        public var synchronizedFolders: [SynchronizedFolder]

        /// Whether the product reaches users: test bundles run on a developer's machine only.
        public var ships: Bool { !productType.contains("unit-test") && !productType.contains("ui-testing") }
    }

    /// Tree paths a target copies whole: a file, or a folder (an asset catalog, a folder
    /// reference, a synchronized folder's explicit folder).
    public struct PathSet: Sendable, Equatable {
        public var paths: Set<String>
        /// Only asset catalogs under these folders are copied: the folders of a Swift package's
        /// targets, whose catalogs SwiftPM compiles into the package's resource bundle unasked.
        public var catalogsOnly = false

        func covers(_ path: String, inCatalog: Bool) -> Bool {
            (inCatalog || !catalogsOnly) && XcodeProject.isUnder(path, any: paths)
        }
    }

    /// A folder Xcode keeps in step with the disk, less the files a target opted out of.
    public struct SynchronizedFolder: Sendable, Hashable {
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
    public var targets: [Target] { didSet { shipping = ShippingIndex(targets: targets, pathSets: pathSets) } }
    /// What the targets copy, each set once.
    public var pathSets: [PathSet] { didSet { shipping = ShippingIndex(targets: targets, pathSets: pathSets) } }
    /// Folders (tree paths) of the local Swift packages the project references.
    public var localPackages: [String]
    /// Each copied path to the shipping targets that copy it, built once.
    private var shipping: ShippingIndex

    public init(targets: [Target], pathSets: [PathSet], localPackages: [String]) {
        self.targets = targets
        self.pathSets = pathSets
        self.localPackages = localPackages
        shipping = ShippingIndex(targets: targets, pathSets: pathSets)
    }

    /// Whether `target` copies the file at `path` (relative to the tree root) into its product.
    public func copies(_ path: String, target: Target) -> Bool {
        let inCatalog = Self.isInCatalog(path)
        if target.pathSets.contains(where: { pathSets[$0].covers(path, inCatalog: inCatalog) }) { return true }
        return target.synchronizedFolders.contains { XcodeProject.isUnder(path, $0.folder) && !$0.excludes(path) }
    }

    /// The names of the shipping targets that copy `path` into their product, sorted: a lookup
    /// per folder above the path, whatever the number of targets.
    public func targets(shipping path: String) -> [String] {
        let inCatalog = Self.isInCatalog(path)
        var lists: [[String]] = []
        Self.forEachAncestor(of: path) { folder in
            for set in shipping.setsByPath[folder] ?? [] where inCatalog || !pathSets[set].catalogsOnly {
                lists.append(shipping.namesBySet[set])
            }
            for group in shipping.synchronizedByFolder[folder] ?? [] where !shipping.synchronized[group].folder.excludes(path) {
                lists.append(shipping.synchronized[group].names)
            }
        }
        return Self.union(lists)
    }

    /// The sorted names of every list; a list shared by every match (one phase, many targets) is returned as it is.
    public static func union(_ lists: [[String]]) -> [String] {
        let named = lists.filter { !$0.isEmpty }
        guard let first = named.first else { return [] }
        if named.allSatisfy({ $0 == first }) { return first }
        return Set(named.joined()).sorted()
    }

    static func isInCatalog(_ path: String) -> Bool { path.split(separator: "/").contains { $0.hasSuffix(".xcassets") } }

    /// `a/b/c`, `a/b`, `a`, then the tree root (``).
    static func forEachAncestor(of path: String, _ body: (String) -> Void) {
        body(path)
        var end = path.endIndex
        while let slash = path[..<end].lastIndex(of: "/") {
            body(String(path[..<slash]))
            end = slash
        }
        if !path.isEmpty { body("") }
    }

    static func isUnder(_ path: String, _ folder: String) -> Bool {
        folder.isEmpty || path == folder || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }

    static func isUnder(_ path: String, any folders: Set<String>) -> Bool {
        // Every ancestor of the path, looked up: a target may list thousands of files.
        var found = false
        forEachAncestor(of: path) { if !found, folders.contains($0) { found = true } }
        return found
    }
}

/// The shipping targets by what they copy: each path set's and each synchronized folder's
/// names, and the sets by path, so that a question costs the path's depth.
private struct ShippingIndex: Sendable, Equatable {
    var setsByPath: [String: [Int]] = [:]
    var namesBySet: [[String]] = []
    var synchronized: [(folder: XcodeProject.SynchronizedFolder, names: [String])] = []
    var synchronizedByFolder: [String: [Int]] = [:]

    init(targets: [XcodeProject.Target], pathSets: [XcodeProject.PathSet]) {
        var names = Array(repeating: [String](), count: pathSets.count)
        var folders: [XcodeProject.SynchronizedFolder: [String]] = [:]
        for target in targets where target.ships {
            for set in Set(target.pathSets) where set < names.count { names[set].append(target.name) }
            for folder in Set(target.synchronizedFolders) { folders[folder, default: []].append(target.name) }
        }
        namesBySet = names.map { Array(Set($0)).sorted() }
        for (index, set) in pathSets.enumerated() where !namesBySet[index].isEmpty {
            for path in set.paths { setsByPath[path, default: []].append(index) }
        }
        for (folder, targetNames) in folders.sorted(by: { $0.key.folder < $1.key.folder }) {
            synchronizedByFolder[folder.folder, default: []].append(synchronized.count)
            synchronized.append((folder, Array(Set(targetNames)).sorted()))
        }
    }

    static func == (lhs: ShippingIndex, rhs: ShippingIndex) -> Bool {
        lhs.setsByPath == rhs.setsByPath && lhs.namesBySet == rhs.namesBySet && lhs.synchronizedByFolder == rhs.synchronizedByFolder
            && lhs.synchronized.elementsEqual(rhs.synchronized) { $0.folder == $1.folder && $0.names == $1.names }
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
            packageFolderByID[id] = normalized(PathText.join(resolver.projectFolder, relative))
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
        var sets = PathSetTable()
        var targets: [Target] = []
        for id in project["targets"]?.strings ?? [] {
            guard let target = objects[id]?.dictionary, target["isa"]?.string == "PBXNativeTarget" else { continue }
            var made = Target(name: target["name"]?.string ?? id, productType: target["productType"]?.string ?? "", pathSets: [], synchronizedFolders: [])
            for phaseID in target["buildPhases"]?.strings ?? [] {
                // A phase shared by many targets is read once, and is one set.
                made.pathSets += sets.index(for: "phase " + phaseID) {
                    guard let phase = objects[phaseID]?.dictionary,
                        ["PBXResourcesBuildPhase", "PBXCopyFilesBuildPhase"].contains(phase["isa"]?.string ?? "")
                    else { return nil }
                    var paths = Set<String>()
                    for buildFileID in phase["files"]?.strings ?? [] {
                        guard let fileRef = objects[buildFileID]?.dictionary?["fileRef"]?.string else { continue }
                        paths.formUnion(resolver.paths(of: fileRef))
                    }
                    return PathSet(paths: paths)
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
            let optedInHere = (optedIn[id] ?? []).filter { !own.contains($0.group) }.flatMap(\.files)
            if !optedInHere.isEmpty { made.pathSets += sets.index(for: "opted in " + id) { PathSet(paths: Set(optedInHere)) } }
            for dependencyID in target["packageProductDependencies"]?.strings ?? [] {
                guard let packageID = objects[dependencyID]?.dictionary?["package"]?.string, let folder = packageFolderByID[packageID],
                    let declared = resourcesByPackage[folder]
                else { continue }
                made.pathSets += sets.index(for: "package " + folder) { PathSet(paths: declared.resources) }
                made.pathSets += sets.index(for: "package catalogs " + folder) { PathSet(paths: declared.targetFolders, catalogsOnly: true) }
            }
            targets.append(made)
        }
        return XcodeProject(targets: targets, pathSets: sets.sets, localPackages: Set(packageFolderByID.values).sorted())
    }

    /// The tree path of every group and file reference reached from the project's main group, by id.
    static func referencePaths(objects: [String: OpenStepValue], project: [String: OpenStepValue], projectFolder: String) -> [String: String] {
        PathResolver(objects: objects, project: project, projectFolder: projectFolder).pathByID
    }

    /// `Foo/x.png` in `App` → `App/Foo/x.png`; `/Localized/Foo/x.strings` → `App/Foo/x.strings`.
    static func exceptionPath(_ relative: String, in folder: String) -> String {
        var path = relative
        if path.hasPrefix("/Localized/") { path = String(path.dropFirst("/Localized/".count)) }
        return normalized(PathText.join(folder, path))
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

/// The path sets of a project being read, each made once by its key (a phase's id, a package's folder).
private struct PathSetTable {
    var sets: [XcodeProject.PathSet] = []
    private var indexByKey: [String: Int?] = [:]

    /// The set for `key`, made by `make` the first time (none when it makes nil), as a list of at most one index.
    mutating func index(for key: String, _ make: () -> XcodeProject.PathSet?) -> [Int] {
        if let known = indexByKey[key] { return known.map { [$0] } ?? [] }
        guard let made = make(), !made.paths.isEmpty else {
            indexByKey[key] = .some(nil)
            return []
        }
        sets.append(made)
        indexByKey[key] = sets.count - 1
        return [sets.count - 1]
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
        self.projectFolder = PathText.join(projectFolder, project["projectDirPath"]?.string ?? "")
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
        case "<group>": return XcodeProject.normalized(PathText.join(parentFolder, path))
        case "SOURCE_ROOT": return XcodeProject.normalized(PathText.join(projectFolder, path))
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
