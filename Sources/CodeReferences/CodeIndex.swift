import Foundation
import ImgtraceSupport

/// Every image reference in a source tree's Swift and Objective-C files, and the names its data
/// files (property lists, JSON, `.strings`) hold.
public struct CodeIndex: Sendable {
    public var references: [CodeReference]
    /// Files read, by language.
    public var swiftFiles = 0
    public var objcFiles = 0
    public var dataFiles = 0

    /// Larger files are not source code (generated data, a vendored blob): skipped.
    public static let maxFileBytes = 4 << 20

    public init(references: [CodeReference]) {
        self.references = references
    }

    /// Folders never entered: version control, build products, dependency checkouts. An image
    /// under one of them is kept by `unused`, since the code that names it is not searched.
    public static let skippedFolders: Set<String> = [".git", ".build", "DerivedData", ".swiftpm", "build", "Pods", "Carthage", "node_modules"]
    /// Packages never entered either: an asset catalog's `Contents.json` files describe the
    /// catalog itself (file names, idioms, scales), which the catalog reader reads, and the
    /// Xcode project's files are settings, not names the app asks for.
    static let skippedPackages = [".xcassets", ".xcodeproj", ".xcworkspace"]

    /// Walks `root` (symbolic links are not followed) and scans each `.swift`, `.m`, `.mm` and
    /// `.h` file and each data file `DataReferences` reads, in path order, so output never
    /// depends on the file system's order.
    public static func scan(root: String) -> CodeIndex {
        var index = CodeIndex(references: [])
        var files: [String] = []
        collect("", root: root, depth: 0, into: &files)
        for relative in files.sorted() {
            let path = root + "/" + relative
            guard let bytes = try? SmallFile.read(path, maxBytes: maxFileBytes) else { continue }
            if relative.hasSuffix(".swift") {
                index.swiftFiles += 1
                index.references += SwiftReferences.scan(String(decoding: bytes, as: UTF8.self), file: relative)
            } else if DataReferences.reads(relative) {
                index.dataFiles += 1
                index.references += DataReferences.scan(bytes, file: relative)
            } else {
                index.objcFiles += 1
                index.references += ObjCReferences.scan(bytes, file: relative)
            }
        }
        return index
    }

    /// The source files under `root/relative`, by one `readdir` per folder and `lstat` per entry.
    private static func collect(_ relative: String, root: String, depth: Int, into files: inout [String]) {
        guard depth < 64, let dir = opendir(relative.isEmpty ? root : root + "/" + relative) else { return }
        defer { closedir(dir) }
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(root + "/" + path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if !skippedFolders.contains(name), !skippedPackages.contains(where: name.hasSuffix) { collect(path, root: root, depth: depth + 1, into: &files) }
            case S_IFREG:
                if name.hasSuffix(".swift") || name.hasSuffix(".m") || name.hasSuffix(".mm") || name.hasSuffix(".h") || DataReferences.reads(name) {
                    files.append(path)
                }
            default:
                continue
            }
        }
    }
}
