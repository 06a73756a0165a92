import Foundation
import ImgtraceSupport

/// Every image reference in a source tree's Swift and Objective-C files.
public struct CodeIndex: Sendable {
    public var references: [CodeReference]
    /// Files read, by language.
    public var swiftFiles = 0
    public var objcFiles = 0

    /// Larger files are not source code (generated data, a vendored blob): skipped.
    public static let maxFileBytes = 4 << 20

    public init(references: [CodeReference]) {
        self.references = references
    }

    /// Walks `root` (symbolic links are not followed; `.git`, `.build`, `Pods`'s build output and
    /// `DerivedData` are skipped) and scans each `.swift`, `.m`, `.mm` and `.h` file.
    public static func scan(root: String) -> CodeIndex {
        var index = CodeIndex(references: [])
        let skipped: Set<String> = [".git", ".build", "DerivedData", ".swiftpm", "build"]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return index }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if skipped.contains(name) {
                walker.skipDescendants()
                continue
            }
            let ext = (name as NSString).pathExtension
            if ["swift", "m", "mm", "h"].contains(ext) { files.append(relative) }
        }
        // The walk's order is the file system's: sort, so output never depends on it.
        for relative in files.sorted() {
            let path = (root as NSString).appendingPathComponent(relative)
            guard let bytes = try? SmallFile.read(path, maxBytes: maxFileBytes) else { continue }
            if relative.hasSuffix(".swift") {
                index.swiftFiles += 1
                index.references += SwiftReferences.scan(String(decoding: bytes, as: UTF8.self), file: relative)
            } else {
                index.objcFiles += 1
                index.references += ObjCReferences.scan(bytes, file: relative)
            }
        }
        return index
    }
}
