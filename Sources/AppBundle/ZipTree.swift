import Crypto
import Foundation
import ImgtraceSupport
import ZIPFoundation

/// A zip archive (`.ipa`, `.app.zip`) read in place: entries are inflated into memory, never to disk.
struct ZipTree: FileTree {
    let archivePath: String
    private let archive: Archive
    private var byPath: [String: Entry] = [:]
    private(set) var entries: [TreeEntry] = []
    private(set) var warnings: [String] = []

    init(archivePath: String) throws {
        self.archivePath = archivePath
        // Vet every number ZIPFoundation will use before it opens the file (see ZipDirectory).
        let mapped = try MappedFile(path: archivePath)
        let directory: ZipDirectory
        do {
            directory = try mapped.withBytes { try ZipDirectory($0) }
        } catch let error as FormatError {
            throw InputError(path: archivePath, location: "offset \(error.offset)", reason: "not a readable zip archive: \(error.reason)")
        }
        do {
            archive = try Archive(url: URL(fileURLWithPath: archivePath), accessMode: .read)
        } catch {
            throw InputError(path: archivePath, reason: "not a readable zip archive (\(error))")
        }
        let archiveSize = (try? FileManager.default.attributesOfItem(atPath: archivePath)[.size] as? Int) ?? 0
        var directories = Set<String>()
        var totalDeclared: UInt64 = 0
        var index = -1
        for entry in archive {
            index += 1
            let vetted = index < directory.entries.count ? directory.entries[index] : nil
            guard entries.count < TreeLimits.maxEntries else {
                warnings.append("more than \(TreeLimits.maxEntries) entries; the rest are not read")
                break
            }
            let raw = entry.path.replacingOccurrences(of: "\\", with: "/")
            guard let path = ZipTree.safePath(raw) else {
                warnings.append("\(entry.path): entry path leaves the archive; skipped")
                continue
            }
            if path.isEmpty { continue }
            // Folders are often implicit in zips; add each parent once.
            var parent = Substring(path)
            while let slash = parent.lastIndex(of: "/") {
                parent = parent[..<slash]
                if directories.insert(String(parent)).inserted {
                    entries.append(TreeEntry(path: String(parent), kind: .directory, size: 0))
                }
            }
            switch entry.type {
            case .directory:
                if directories.insert(path).inserted { entries.append(TreeEntry(path: path, kind: .directory, size: 0)) }
            case .symlink:
                // Read from the vetted directory: ZIPFoundation would allocate what the header claims.
                guard let vetted, let target = mapped.withBytes({ ZipDirectory.linkTarget(vetted, in: $0) }) else {
                    warnings.append("\(path): symbolic link whose target cannot be read; not followed")
                    continue
                }
                entries.append(TreeEntry(path: path, kind: .symlink(target), size: 0))
            case .file:
                let declared = entry.uncompressedSize, packed = entry.compressedSize
                // A data descriptor after the data may restate the sizes; only vetted ones are used.
                guard let vetted, vetted.uncompressedSize == declared, vetted.compressedSize == packed else {
                    warnings.append("\(path): sizes in its data descriptor disagree with the central directory; refused")
                    continue
                }
                let (sum, overflow) = totalDeclared.addingReportingOverflow(declared)
                totalDeclared = overflow ? .max : sum
                if declared > TreeLimits.maxEntryBytes
                    || (declared > TreeLimits.ratioFloor && declared / max(packed, 1) > TreeLimits.maxRatio)
                {
                    warnings.append("\(path): declares \(declared) bytes from \(packed) compressed (zip bomb?); refused")
                    continue
                }
                byPath[path] = entry
                entries.append(TreeEntry(path: path, kind: .file, size: Int(declared)))
            }
        }
        if archiveSize > 0, totalDeclared > UInt64(archiveSize) * TreeLimits.maxRatio, totalDeclared > TreeLimits.ratioFloor {
            warnings.append("entries declare \(totalDeclared) bytes in a \(archiveSize)-byte archive (zip bomb?)")
        }
        entries.sort { $0.path < $1.path }
    }

    /// Entry path with `.` removed; `nil` for absolute paths, drive letters and `..` that climb out.
    static func safePath(_ raw: String) -> String? {
        if raw.hasPrefix("/") { return nil }
        if raw.count >= 2, raw.dropFirst().first == ":" { return nil }
        var parts: [Substring] = []
        for part in raw.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { return nil }  // even when it would stay inside: no honest archive does this
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    private struct Enough: Error {}

    /// Streams an entry's bytes to `body`, stopping at `limit`; refuses entries that inflate past their declared size.
    private func stream(_ path: String, limit: Int, _ body: (Data) -> Void) throws {
        guard let entry = byPath[path] else { throw InputError(path: "\(archivePath)#\(path)", reason: "no such entry") }
        let declared = Int(entry.uncompressedSize)
        var seen = 0
        do {
            _ = try archive.extract(entry, bufferSize: 64 * 1024, skipCRC32: limit < declared) { chunk in
                seen += chunk.count
                guard seen <= declared else {
                    throw InputError(path: "\(archivePath)#\(path)", reason: "inflates past its declared \(declared) bytes (zip bomb?)")
                }
                body(chunk)
                if seen >= limit { throw Enough() }
            }
        } catch is Enough {
            return
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(path: "\(archivePath)#\(path)", reason: "cannot inflate (\(error))")
        }
    }

    func prefix(_ path: String, _ limit: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        try stream(path, limit: limit) { out.append(contentsOf: $0) }
        return Array(out.prefix(limit))
    }

    func contents(_ path: String, maxBytes: Int) throws -> [UInt8] {
        guard let entry = byPath[path] else { throw InputError(path: "\(archivePath)#\(path)", reason: "no such entry") }
        guard entry.uncompressedSize <= UInt64(maxBytes) else {
            throw InputError(path: "\(archivePath)#\(path)", reason: "larger than \(maxBytes) bytes; not read")
        }
        var out: [UInt8] = []
        out.reserveCapacity(Int(entry.uncompressedSize))
        try stream(path, limit: Int.max) { out.append(contentsOf: $0) }
        return out
    }

    func forEachChunk(_ path: String, maxBytes: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let entry = byPath[path] else { throw InputError(path: "\(archivePath)#\(path)", reason: "no such entry") }
        guard entry.uncompressedSize <= UInt64(maxBytes) else {
            throw InputError(path: "\(archivePath)#\(path)", reason: "larger than \(maxBytes) bytes; not read")
        }
        var failure: Error?
        try stream(path, limit: Int.max) { chunk in
            guard failure == nil else { return }
            do { try chunk.withUnsafeBytes { try body($0) } } catch { failure = error }
        }
        if let failure { throw failure }
    }

    func sha256(_ path: String) throws -> String {
        var hasher = SHA256()
        try stream(path, limit: Int.max) { hasher.update(data: $0) }
        return hex(hasher.finalize())
    }
}
