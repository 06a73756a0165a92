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
    /// Files read only in part, or not at all, and why, in path order: what they name is not
    /// known for sure, so the images they might name are not judged unused.
    public var partlyRead: [PartlyRead] = []

    /// A source file whose references were not all read.
    public struct PartlyRead: Sendable, Equatable {
        /// Why, as the warning says it.
        public enum Reason: Sendable, Equatable {
            /// Too large or too costly to parse: read by lexers, its string literals weak
            /// references and its member names asset symbols; the APIs its calls name are unknown.
            case readWithoutSyntaxTree
            /// Not read at all: too large, unreadable, vanished.
            case unread(String)
        }
        /// The file, relative to the scanned root (a name that is not UTF-8 shows U+FFFD).
        public var file: String
        public var reason: Reason
    }

    /// Larger Swift files are read without their syntax tree: swift-syntax's tree costs about 50
    /// times the text (a generated `R.generated.swift` can be this large).
    public static let maxParsedBytes = 4 << 20
    /// Larger files are not source code (generated data, a vendored blob): not read, with a warning.
    public static let maxFileBytes = 64 << 20

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
    /// depends on the file system's order. With a `filter`, Swift is searched only for references
    /// that may name its images (`ImageNameFilter`): the pieces that cannot are not parsed.
    public static func scan(root: String, only filter: ImageNameFilter? = nil) -> CodeIndex {
        let files = sourceFiles(under: root)
        // Files are parsed on every core (parsing Swift is most of `unused`'s time on a real
        // tree); the results come back in the paths' order.
        let slots = parallelMap(files) { file -> ScanSlot in
            let relative = file.name
            let bytes: [UInt8]
            do {
                bytes = try SmallFile.read(root + "/" + relative, rawPath: Array(root.utf8) + [UInt8(ascii: "/")] + file.raw, maxBytes: maxFileBytes)
            } catch {
                return ScanSlot(kind: .unreadable, references: [], partly: .unread((error as? InputError)?.reason ?? "\(error)"))
            }
            if relative.hasSuffix(".swift") {
                if bytes.count > maxParsedBytes {
                    return ScanSlot(kind: .swift, references: SwiftReferences.weakReferences(bytes, file: relative), partly: .readWithoutSyntaxTree)
                }
                let read = SwiftReferences.read(String(decoding: bytes, as: UTF8.self), file: relative, only: filter)
                return ScanSlot(kind: .swift, references: read.references, partly: read.parsed ? nil : .readWithoutSyntaxTree)
            } else if DataReferences.reads(relative) {
                return ScanSlot(kind: .data, references: DataReferences.scan(bytes, file: relative))
            }
            return ScanSlot(kind: .objc, references: ObjCReferences.scan(bytes, file: relative))
        }
        var index = CodeIndex(references: [])
        for (i, slot) in slots.enumerated() {
            if let reason = slot.partly { index.partlyRead.append(PartlyRead(file: files[i].name, reason: reason)) }
            switch slot.kind {
            case .swift: index.swiftFiles += 1
            case .data: index.dataFiles += 1
            case .objc: index.objcFiles += 1
            case .unreadable: continue
            }
            index.references += slot.references
        }
        return index
    }

    /// A file found by the walk, relative to the root: its bytes open it, so a name that is not
    /// UTF-8 is read like any other; `name` shows it (U+FFFD for what is not UTF-8).
    private struct SourceFile {
        var raw: [UInt8]
        var name: String { String(decoding: raw, as: UTF8.self) }
    }

    /// The source files under `root`, by `DirectoryWalk` (links listed, not entered), in
    /// byte order of their paths.
    private static func sourceFiles(under root: String) -> [SourceFile] {
        guard
            let walk = try? DirectoryWalk(
                root: root, links: .listed,
                folders: { name in
                    skippedFolders.contains(name) || skippedPackages.contains(where: name.hasSuffix) ? .skip : .enter
                })
        else { return [] }
        return walk.entries.compactMap { entry -> SourceFile? in
            guard entry.kind == .file else { return nil }
            let name = entry.path
            guard name.hasSuffix(".swift") || name.hasSuffix(".m") || name.hasSuffix(".mm") || name.hasSuffix(".h") || DataReferences.reads(name) else { return nil }
            return SourceFile(raw: entry.pathBytes)
        }.sorted { $0.raw.lexicographicallyPrecedes($1.raw) }
    }
}

/// What scanning one file found.
private struct ScanSlot {
    enum Kind { case swift, data, objc, unreadable }
    var kind: Kind
    var references: [CodeReference]
    var partly: CodeIndex.PartlyRead.Reason? = nil
}
