import Crypto
import ImgtraceSupport

extension InventoryBuilder {
    // MARK: System images

    mutating func addSystemImages(_ folder: String) throws {
        let tree = try DirectoryTree(root: folder)
        let index = register(tree)
        var id = PathText.lastComponent(folder)
        while inventory.bundles.contains(where: { $0.id == id }) { id += "+" }
        inventory.bundles.append(BundleInfo(id: id, kind: .systemImages, name: id, resourceRoot: ""))
        inventory.warnings += tree.warnings.map { "\(id)/\($0)" }
        for entry in tree.entries where entry.kind == .file && !isJunk(entry.path) {
            let ext = PathText.fileExtension(PathText.fileName(entry.path)).lowercased()
            guard LooseImageName.imageExtensions.contains(ext) || ext.isEmpty else { continue }
            addFile(
                tree, treeIndex: index, path: entry.path, listedSize: entry.size, bundle: id, relative: entry.path,
                source: .systemImages, appKitNames: true, mustBeImage: !ext.isEmpty, idPrefix: id + "/")
        }
        if tree.entries.contains(where: { $0.path == ImageAliases.mappingFile && $0.kind == .file }) {
            do {
                let bytes = try tree.contents(ImageAliases.mappingFile, maxBytes: BundleReader.maxPlistBytes)
                guard let pairs = ImageAliases.parseStrings(bytes) else {
                    inventory.warnings.append("\(id)/\(ImageAliases.mappingFile): not a strings file (`key = value;`)")
                    return
                }
                let names = Set(inventory.images.filter { $0.bundle == id }.map(\.name))
                inventory.aliases += ImageAliases.aliases(mapping: pairs, existing: names, bundle: id)
            } catch {
                inventory.warnings.append("\(id)/\(ImageAliases.mappingFile): \(describe(error))")
            }
        }
    }

    // MARK: Finishing

    /// What two images must share to be digested: where their bytes live (a loose file or a
    /// rendition), their size and the hash of their first 4 KiB.
    private struct TwinKey: Hashable {
        var isFile: Bool
        var size: Int
        var prefix: Int
    }

    /// The digests of the loose files of the twin groups (image indices), by index: each group's
    /// files of one tree together (`sha256(ofTwins:)`), the groups on every core when their tree allows.
    private func digestFiles(_ groups: [[Int]]) -> [Int: Result<String, any Error>] {
        var jobs: [(tree: Int, indices: [Int], paths: [String])] = []
        for members in groups {
            var byTree: [Int: Int] = [:]  // tree → its job
            for index in members {
                guard case let .file(tree, path)? = stored[index]?.0 else { continue }
                if byTree[tree] == nil {
                    byTree[tree] = jobs.count
                    jobs.append((tree, [], []))
                }
                jobs[byTree[tree]!].indices.append(index)
                jobs[byTree[tree]!].paths.append(path)
            }
        }
        let allTrees = trees
        let concurrent = jobs.filter { allTrees[$0.tree].readsConcurrently }
        var digests: [Int: Result<String, any Error>] = [:]
        let read = parallelMap(concurrent) { job in allTrees[job.tree].sha256(ofTwins: job.paths) }
        for (job, results) in zip(concurrent, read) {
            for (index, digest) in zip(job.indices, results) { digests[index] = digest }
        }
        for job in jobs where !allTrees[job.tree].readsConcurrently {
            for (index, digest) in zip(job.indices, allTrees[job.tree].sha256(ofTwins: job.paths)) { digests[index] = digest }
        }
        return digests
    }

    /// Digests only where sizes and first 4 KiB collide (as duplicate finders do): anything else cannot have a twin.
    mutating func finish() throws -> BundleInventory {
        var groups: [TwinKey: [Int]] = [:]
        // Renditions may share one payload (the same block under many keys): hash it once.
        var renditionDigests: [String: String] = [:]
        for index in inventory.images.indices {
            guard let (where_, size, prefix) = stored[index] else { continue }
            var isFile = false
            if case .file = where_ { isFile = true }
            groups[TwinKey(isFile: isFile, size: size, prefix: prefix), default: []].append(index)
        }
        // In the order of each group's first image: a digest that fails warns in the same place every run.
        let twins = groups.values.filter { $0.count > 1 }.sorted { $0[0] < $1[0] }
        let fileDigests = digestFiles(twins)
        for members in twins {
            for index in members {
                let image = inventory.images[index]
                guard let (where_, _, _) = stored[index] else { continue }
                switch where_ {
                case .file:
                    switch fileDigests[index] {
                    case .success(let digest): inventory.images[index].digest = digest
                    case .failure(let error): inventory.warnings.append("\(image.id): \(describe(error))")
                    case nil: break
                    }
                case let .rendition(car, offset, length):
                    guard let bytes = carBytes[car] else { continue }
                    let key = "\(car)#\(offset)+\(length)"
                    if let known = renditionDigests[key] {
                        inventory.images[index].digest = known
                        continue
                    }
                    let digest = bytes.withUnsafeBytes {
                        hex(SHA256.hash(data: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + length)])))
                    }
                    renditionDigests[key] = digest
                    inventory.images[index].digest = digest
                }
            }
        }
        inventory.images.sort { $0.id < $1.id }
        let top = inventory.bundles.filter { $0.id == BundleID.top }
        inventory.bundles =
            top + inventory.bundles.filter { $0.id != BundleID.top }.sorted { ($0.kind == .systemImages ? 1 : 0, $0.id) < ($1.kind == .systemImages ? 1 : 0, $1.id) }
        inventory.references.sort { ($0.bundle, $0.file, $0.name, $0.kind.rawValue) < ($1.bundle, $1.file, $1.name, $1.kind.rawValue) }
        inventory.codeStrings.sort { $0.file < $1.file }
        inventory.junk.sort()
        return inventory
    }
}

// MARK: Path helpers

// Paths are split on the byte `/`, as the file system does, not on grapheme clusters: a
// Character-level `lastIndex(of:)` or `split` over every path of a 20,000-file bundle was most of
// `catalog`'s own time (and a `/` followed by a combining mark is still a separator on disk).
// A path's folder, name and extension are PathText's (`folder`, `fileName`, `fileExtension`).

extension Collection where Element == UInt8 {
    /// Whether the bytes end with the ASCII `suffix` (a file extension: no Unicode comparison).
    func hasBytesSuffix(_ suffix: StaticString) -> Bool {
        let n = suffix.utf8CodeUnitCount
        guard count >= n else { return false }
        let pattern = UnsafeBufferPointer(start: suffix.utf8Start, count: n)
        if let found = withContiguousStorageIfAvailable({ UnsafeBufferPointer(rebasing: $0[($0.count - n)...]).elementsEqual(pattern) }) {
            return found
        }
        return dropFirst(count - n).elementsEqual(pattern)
    }

    /// Whether the ASCII `needle` occurs in the bytes.
    func containsBytes(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        guard let first = pattern.first else { return true }
        if let found = withContiguousStorageIfAvailable({ bytes in
            var from = 0
            while let at = bytes[from...].firstIndex(of: first) {
                if bytes[at...].starts(with: pattern) { return true }
                from = at + 1
            }
            return false
        }) {
            return found
        }
        var rest = self[...]
        while let at = rest.firstIndex(of: first) {
            if rest[at...].starts(with: pattern) { return true }
            rest = rest[index(after: at)...]
        }
        return false
    }
}

/// The non-empty components of a `/`-separated path, in order.
func pathComponents(_ path: String) -> [Substring] {
    let utf8 = path.utf8
    // Split where the bytes lie in one piece (an index step of `String.UTF8View` is a call).
    if let offsets = utf8.withContiguousStorageIfAvailable({ bytes -> [Range<Int>] in
        var ranges: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "/") {
            if start < index { ranges.append(start..<index) }
            start = index + 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }) {
        return offsets.map { path[utf8.index(utf8.startIndex, offsetBy: $0.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: $0.upperBound)] }
    }
    var components: [Substring] = []
    var start = utf8.startIndex
    var index = start
    while index < utf8.endIndex {
        if utf8[index] == UInt8(ascii: "/") {
            if start < index { components.append(path[start..<index]) }
            start = utf8.index(after: index)
        }
        index = utf8.index(after: index)
    }
    if start < utf8.endIndex { components.append(path[start...]) }
    return components
}

/// Files that should never ship: Finder and Explorer metadata, and zip tools' resource-fork folders.
/// (Asked of every path of a bundle, several times: its components are looked at where they
/// stand in its bytes, and only one that starts as a junk name does is compared.)
func isJunk(_ path: String) -> Bool {
    var path = path
    return path.withUTF8 { bytes in
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
            defer { start = index + 1 }
            guard index > start else { continue }
            let first = bytes[start]
            guard first == UInt8(ascii: "_") || first == UInt8(ascii: ".") || first == UInt8(ascii: "T") else { continue }
            let name = UnsafeBufferPointer(rebasing: bytes[start..<index])
            if name.elementsEqual("__MACOSX".utf8) || name.elementsEqual(".DS_Store".utf8) || name.elementsEqual("Thumbs.db".utf8)
                || name.starts(with: "._".utf8)
            {
                return true
            }
        }
        return false
    }
}

func describe(_ error: Error) -> String {
    if let error = error as? InputError { return error.location.map { "\($0): \(error.reason)" } ?? error.reason }
    return "\(error)"
}
