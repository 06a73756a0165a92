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
    public static let skippedFolders = DependencyFolders.names
    /// Packages never entered either: an asset catalog's `Contents.json` files describe the
    /// catalog itself (file names, idioms, scales), which the catalog reader reads, and the
    /// Xcode project's files are settings, not names the app asks for.
    static let skippedPackages = [".xcassets", ".xcodeproj", ".xcworkspace"]

    /// Walks `root` (symbolic links are not followed) and scans each `.swift`, `.m`, `.mm` and
    /// `.h` file and each data file `DataReferences` reads, in path order, so output never
    /// depends on the file system's order.
    public static func scan(root: String) -> CodeIndex {
        var found: [String] = []
        collect("", root: root, depth: 0, into: &found)
        let files = found.sorted()
        // Files are parsed on every core (parsing Swift is most of `unused`'s time on a real
        // tree); each result lands in its file's slot, so the order stays the paths' order.
        let slots = ScanSlots(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { i in
            let relative = files[i]
            guard let bytes = try? SmallFile.read(root + "/" + relative, maxBytes: maxFileBytes) else { return }
            if relative.hasSuffix(".swift") {
                slots.store(i, .swift, SwiftReferences.scan(String(decoding: bytes, as: UTF8.self), file: relative))
            } else if DataReferences.reads(relative) {
                slots.store(i, .data, DataReferences.scan(bytes, file: relative))
            } else {
                slots.store(i, .objc, ObjCReferences.scan(bytes, file: relative))
            }
        }
        var index = CodeIndex(references: [])
        for (kind, references) in slots.results {
            switch kind {
            case .swift: index.swiftFiles += 1
            case .data: index.dataFiles += 1
            case .objc: index.objcFiles += 1
            case .unreadable: continue
            }
            index.references += references
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

/// One result per file, written by the scanning threads: each writes only its own slot through
/// the buffer's pointer (an `inout` access to a shared array would be a simultaneous access),
/// and the slots are read after every thread has finished (`concurrentPerform` returns then).
private final class ScanSlots: @unchecked Sendable {
    enum Kind { case swift, data, objc, unreadable }
    private let slots: UnsafeMutableBufferPointer<(kind: Kind, references: [CodeReference])>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: (.unreadable, []))
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    func store(_ index: Int, _ kind: Kind, _ references: [CodeReference]) { slots[index] = (kind, references) }

    var results: [(kind: Kind, references: [CodeReference])] { Array(slots) }
}
