/// Writes `project.pbxproj` text the way Xcode lays it out (OpenStep, ids of 24 hex digits,
/// comments after ids), from objects a test adds one by one: small projects whose target
/// membership a test knows without Xcode.
public struct ProjectWriter {
    /// A value of the project file: a word, a list, or a nested dictionary.
    public indirect enum Value: ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
        case text(String)
        case list([String])
        case dictionary([(String, Value)])

        public init(stringLiteral value: String) { self = .text(value) }
        public init(arrayLiteral elements: String...) { self = .list(elements) }
    }

    private var objects: [(id: String, fields: [(String, Value)])] = []
    private var counter = 0
    private var mainChildren: [String] = []
    /// The project's target ids, in order (a test may list targets it added itself).
    public var targets: [String] = []
    private var packages: [String] = []

    public init() {}

    /// A fresh id, for an object added later (a target an exception set names).
    public mutating func newID() -> String {
        counter += 1
        let hex = String(counter, radix: 16, uppercase: true)
        return "AB" + String(repeating: "0", count: 22 - hex.count) + hex
    }

    /// Adds an object of class `isa` under `id` (a fresh one by default); returns its id.
    @discardableResult
    public mutating func add(_ isa: String, id: String? = nil, _ fields: [(String, Value)]) -> String {
        let id = id ?? newID()
        objects.append((id, [("isa", .text(isa))] + fields))
        return id
    }

    /// A file reference; `path` relative to its group unless `sourceTree` says otherwise.
    public mutating func file(_ path: String, sourceTree: String = "<group>", type: String = "image.png") -> String {
        add("PBXFileReference", [("lastKnownFileType", .text(type)), ("path", .text(path)), ("sourceTree", .text(sourceTree))])
    }

    /// A group; `path` nil for a group that only organises (its children resolve against its parent).
    public mutating func group(_ path: String?, name: String? = nil, children: [String], topLevel: Bool = false) -> String {
        var fields: [(String, Value)] = [("children", .list(children))]
        if let name { fields.append(("name", .text(name))) }
        if let path { fields.append(("path", .text(path))) }
        fields.append(("sourceTree", "<group>"))
        let id = add("PBXGroup", fields)
        if topLevel { mainChildren.append(id) }
        return id
    }

    /// An Xcode 16 synchronized folder with its exception sets.
    public mutating func synchronizedFolder(_ path: String, exceptions: [String] = [], topLevel: Bool = true) -> String {
        let id = add(
            "PBXFileSystemSynchronizedRootGroup",
            [("exceptions", .list(exceptions)), ("explicitFileTypes", .dictionary([])), ("explicitFolders", .list([])), ("path", .text(path)), ("sourceTree", "<group>")])
        if topLevel { mainChildren.append(id) }
        return id
    }

    /// Files of a synchronized folder whose membership in `target` is the opposite of the folder's.
    public mutating func exceptionSet(target: String, files: [String]) -> String {
        add("PBXFileSystemSynchronizedBuildFileExceptionSet", [("membershipExceptions", .list(files)), ("target", .text(target))])
    }

    /// A local Swift package at `relativePath` and one of its products.
    public mutating func localPackageProduct(_ relativePath: String, product: String) -> String {
        let package = add("XCLocalSwiftPackageReference", [("relativePath", .text(relativePath))])
        packages.append(package)
        return add("XCSwiftPackageProductDependency", [("package", .text(package)), ("productName", .text(product))])
    }

    /// A native target whose Copy Bundle Resources phase copies `resources` (file reference ids).
    @discardableResult
    public mutating func target(
        _ name: String, id: String? = nil, productType: String = "com.apple.product-type.application", resources: [String] = [],
        synchronized: [String] = [], packages: [String] = []
    ) -> String {
        let buildFiles = resources.map { add("PBXBuildFile", [("fileRef", .text($0))]) }
        let phase = add("PBXResourcesBuildPhase", [("buildActionMask", "2147483647"), ("files", .list(buildFiles))])
        let id = add(
            "PBXNativeTarget", id: id,
            [
                ("buildPhases", .list([phase])), ("fileSystemSynchronizedGroups", .list(synchronized)), ("name", .text(name)),
                ("packageProductDependencies", .list(packages)), ("productType", .text(productType)),
            ])
        targets.append(id)
        return id
    }

    /// The project file's text.
    public mutating func render() -> String {
        let main = add("PBXGroup", [("children", .list(mainChildren)), ("sourceTree", "<group>")])
        let root = add(
            "PBXProject",
            [("mainGroup", .text(main)), ("packageReferences", .list(packages)), ("projectDirPath", ""), ("targets", .list(targets))])
        var out = "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjectVersion = 77;\n\tobjects = {\n"
        for object in objects {
            out += "\t\t\(object.id) /* \(object.fields.first { $0.0 == "name" || $0.0 == "path" }.map { render($0.1) } ?? "object") */ = "
            out += render(.dictionary(object.fields)) + ";\n"
        }
        out += "\t};\n\trootObject = \(root) /* Project object */;\n}\n"
        return out
    }

    private func render(_ value: Value) -> String {
        switch value {
        case .text(let text): return quote(text)
        case .list(let items): return "(" + items.map { quote($0) + ", " }.joined() + ")"
        case .dictionary(let fields): return "{" + fields.map { "\($0.0) = \(render($0.1)); " }.joined() + "}"
        }
    }

    /// Bare when every character may stand unquoted, as Xcode writes it.
    private func quote(_ text: String) -> String {
        let bare = !text.isEmpty && text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII || ("0"..."9").contains($0) || "_$/:.-".unicodeScalars.contains($0) }
        if bare { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
