import ImageHeaders
import ImgtraceSupport

/// What reading one image file's first bytes told: its header (or why there is none), its size
/// and a hash of its first 4 KiB for the duplicate pass.
struct HeaderRead {
    var header: Result<ImageInfo?, any Error>
    var firstBytes: Int?
    /// The file's size, learnt when it was opened (asked of the tree when it could not be).
    var size: Int

    /// Reads `path`'s header as `addFile` always has: the first 4 KiB, more while the header asks,
    /// from one open of the file. Its digest is left to the duplicate pass, which takes it only
    /// where another image has the same size and first 4 KiB.
    init(_ tree: FileTree, path: String, listedSize: Int) {
        var firstBytes: Int?
        var learnt: Int?
        header = Result(catching: {
            try tree.withStart(of: path, listed: listedSize) { size, first in
                learnt = size
                return try ImageHeaderReader.read(fileSize: size) { length in
                    let bytes = try first(length)
                    if firstBytes == nil { firstBytes = prefixHash(bytes) }
                    return bytes
                }
            }
        })
        self.firstBytes = firstBytes
        size = max(0, learnt ?? tree.size(of: path, listed: listedSize))
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
    /// The file's size in bytes.
    var size: Int

    /// The file read here, on this thread (nothing read ahead).
    init(_ tree: FileTree, path: String, listedSize: Int, placement: LoosePlacement) {
        self.init(path: path, placement: placement, read: HeaderRead(tree, path: path, listedSize: listedSize))
    }

    init(path: String, placement: LoosePlacement, read: HeaderRead) {
        let size = read.size
        self.size = size
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
        if path.utf8.containsBytes(".lproj"), let lproj = pathComponents(path).dropLast().last(where: { $0.utf8.hasBytesSuffix(".lproj") }) {
            image.localization = String(lproj.dropLast(6))
        }
        if let warning = implausible(image) { warnings.append(warning) }
        self.image = image
        firstBytes = read.firstBytes ?? 0
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
    /// 20,000 headers is most of `catalog`'s time): `placement` says where each goes. Returns the
    /// reads by entry (none where none was made: the pass then reads the file itself); none at all
    /// for a tree read through one archive.
    func readLooseImagesAhead(
        _ tree: FileTree, isLooseImage: (TreeEntry) -> Bool, placement: (String) -> LoosePlacement
    ) -> ReadAhead {
        guard tree.readsConcurrently else { return ReadAhead() }
        // Asked of every entry, on every core too.
        let picked = parallelMap(tree.entries, isLooseImage)
        let candidates = tree.entries.indices.filter { picked[$0] }
        guard candidates.count > 1 else { return ReadAhead() }
        let reads = parallelMap(candidates) { index -> LooseImageRead? in
            let entry = tree.entries[index]
            return LooseImageRead(path: entry.path, placement: placement(entry.path), read: HeaderRead(tree, path: entry.path, listedSize: entry.size))
        }
        var slots = [Int32](repeating: -1, count: tree.entries.count)
        for (slot, index) in candidates.enumerated() { slots[index] = Int32(slot) }
        return ReadAhead(reads: reads, slots: slots)
    }
}

/// The loose images read ahead, by the index of their entry in the tree: the reads in one array
/// and a small index per entry (an array of optional reads, one per entry, would copy every read again).
struct ReadAhead {
    private var reads: [LooseImageRead?] = []
    private var slots: [Int32] = []

    init() {}

    init(reads: [LooseImageRead?], slots: [Int32]) {
        self.reads = reads
        self.slots = slots
    }

    /// The read of entry `entry`, moved out (each is taken once: no copy of its image to retain
    /// and release again).
    mutating func take(entry: Int) -> LooseImageRead? {
        guard entry < slots.count, slots[entry] >= 0 else { return nil }
        return reads[Int(slots[entry])].take()
    }

    var count: Int { reads.count }
}
