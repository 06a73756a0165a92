import Crypto
import ImageHeaders
import ImgtraceSupport

/// What reading one image file's first bytes told: its header (or why there is none), a hash of
/// its first 4 KiB for the duplicate pass, and, when the file was read whole, its digest.
struct HeaderRead {
    var header: Result<ImageInfo?, any Error>
    var firstBytes: Int?
    /// SHA-256 of the whole file, lowercase hex; nil when only its first bytes were read.
    var digest: String?

    /// Reads `path`'s header as `addFile` always has: the first 4 KiB, more while the header asks.
    /// With `mayHaveTwin` (another file has its size), a file those reads took whole is digested
    /// from the same bytes, so the duplicate pass need not open it again.
    init(_ tree: FileTree, path: String, size: Int, mayHaveTwin: Bool) {
        var firstBytes: Int?
        var digest: String?
        header = Result(catching: {
            try ImageHeaderReader.read(fileSize: size) { length in
                let bytes = try tree.prefix(path, length)
                if firstBytes == nil { firstBytes = prefixHash(bytes) }
                if mayHaveTwin, bytes.count == size { digest = hex(SHA256.hash(data: bytes)) }
                return bytes
            }
        })
        self.firstBytes = firstBytes
        self.digest = digest
    }
}

/// Where a loose image file goes in the inventory, told by its place in the tree.
struct LoosePlacement {
    var bundle: String
    /// Its path as names see it (relative to its bundle's resources, no `.lproj`).
    var relative: String
    var source: ImageSource
    var appKitNames: Bool
    /// Whether its extension says image: a file without one that is no image is no warning.
    var mustBeImage: Bool
    var idPrefix: String = ""
}

/// A loose image file read: the image (nil when the file is none), the warnings reading it gave,
/// and what the duplicate pass needs. A value, so files are read on every core and taken into
/// the inventory in order.
struct LooseImageRead {
    var image: BundleImage?
    var warnings: [String] = []
    var firstBytes = 0
    var digest: String?

    /// The file read here, on this thread (nothing read ahead: its digest is left to the duplicate pass).
    init(_ tree: FileTree, path: String, size: Int, placement: LoosePlacement) {
        self.init(path: path, size: size, placement: placement, read: HeaderRead(tree, path: path, size: size, mayHaveTwin: false))
    }

    init(path: String, size: Int, placement: LoosePlacement, read: HeaderRead) {
        let parsed = LooseImageName(fileName: PathText.fileName(placement.relative))
        let id = placement.idPrefix + path
        var header: ImageInfo?
        var format: String?
        do {
            header = try read.header.get()
            guard header != nil else {
                if placement.mustBeImage, size > 0 { warnings.append("\(id): `.\(parsed.fileExtension)` file that is no image format imgtrace knows") }
                return
            }
            format = header?.format.rawValue
        } catch let error as ImageHeaderError {
            warnings.append("\(id): \(error)")
            if case let .malformed(f, _, _) = error { format = f.rawValue }
        } catch {
            warnings.append("\(id): \(describe(error))")
            if !placement.mustBeImage { return }
        }
        let directory = PathText.folder(placement.relative)
        let base = placement.appKitNames || placement.source == .systemImages ? parsed.base : parsed.lookupName
        var image = BundleImage(
            id: id, bundle: placement.bundle, path: path, source: placement.source,
            name: directory.isEmpty ? base : directory + "/" + base, format: format,
            cgbi: header?.cgbi ?? false, pixelWidth: header?.pixelWidth, pixelHeight: header?.pixelHeight,
            pointWidth: header?.pointWidth, pointHeight: header?.pointHeight, scale: parsed.scale,
            idiom: parsed.idiom, fileExtension: parsed.fileExtension, bytesOnDisk: size,
            decodedBytes: header?.decodedBytes, isVector: header?.format.isVector ?? false)
        if image.isVector { image.scale = 0 }
        if let lproj = pathComponents(path).dropLast().last(where: { $0.utf8.hasBytesSuffix(".lproj") }) {
            image.localization = String(lproj.dropLast(6))
        }
        if let warning = implausible(image) { warnings.append(warning) }
        self.image = image
        firstBytes = read.firstBytes ?? 0
        digest = read.digest
    }
}

/// The warning for an image whose header claims more than a gigabyte decoded, if it does.
func implausible(_ image: BundleImage) -> String? {
    guard let w = image.pixelWidth, let h = image.pixelHeight, (image.decodedBytes ?? Int.max) > (1 << 30) else { return nil }
    return "\(image.id): claims \(w)×\(h) pixels (over 1 GiB decoded)"
}

extension InventoryBuilder {
    /// Reads the loose images among the tree's entries (those `isLooseImage` picks) on every core,
    /// ahead of the one-file-at-a-time pass that builds the inventory (opening, reading and parsing
    /// 20,000 headers is most of `catalog`'s time): `placement` says where each goes. Returns a
    /// read per entry of the tree, nil where none was made (the pass then reads the file itself);
    /// none at all for a tree read through one archive.
    func readLooseImagesAhead(
        _ tree: FileTree, isLooseImage: (TreeEntry) -> Bool, placement: (String) -> LoosePlacement
    ) -> [LooseImageRead?] {
        guard tree.readsConcurrently else { return [] }
        let candidates = tree.entries.indices.filter { isLooseImage(tree.entries[$0]) }
        guard candidates.count > 1 else { return [] }
        var sharedSizes: [Int: Int] = [:]
        for index in candidates { sharedSizes[tree.entries[index].size, default: 0] += 1 }
        let reads = parallelMap(candidates) { index in
            let entry = tree.entries[index]
            let read = HeaderRead(tree, path: entry.path, size: entry.size, mayHaveTwin: sharedSizes[entry.size]! > 1)
            return LooseImageRead(path: entry.path, size: entry.size, placement: placement(entry.path), read: read)
        }
        var byEntry = [LooseImageRead?](repeating: nil, count: tree.entries.count)
        for (index, read) in zip(candidates, reads) { byEntry[index] = read }
        return byEntry
    }
}
