import Foundation
import ImgtraceSupport
import ProjectModel

/// `imgtrace unused --fix PATCH`: a unified diff that deletes what `unused` judged unused in a
/// source tree — a catalog set's whole `.imageset` folder, a loose image's files and the project
/// objects that name them — for `git apply` to apply after review. It never edits the tree.
package enum UnusedFix {
    /// What the patch deletes, and its text.
    package struct Patch: Sendable {
        /// Tree paths of the deleted files, sorted.
        package var deletedFiles: [String]
        /// The projects the patch edits.
        package var editedProjects: [String]
        /// The names of the images deleted.
        package var images: [String]
        /// The bytes of the deleted files together.
        package var deletedBytes = 0
        /// The diff, the tree's own bytes in its context; empty when nothing is unused.
        package var bytes: [UInt8]
    }

    /// The patch for `unused` (a run over the source tree at `treeRoot`, the one `--bundle`).
    /// Only `unused-image` verdicts of a run that searched the code are deleted: nothing weak,
    /// dynamic or loaded touches them. An `InputError` when the run cannot say so.
    package static func patch(for unused: UnusedSummary, treeRoot: String) throws -> Patch {
        guard unused.swiftFiles != nil else {
            throw InputError(path: treeRoot, reason: "--fix needs --source-root: without the code searched, a verdict is a candidate, not a deletion")
        }
        let root = URL(fileURLWithPath: treeRoot).standardizedFileURL.path
        // A built app's images are in its compiled catalog and its copies of the sources: deleting
        // them there deletes nothing the next build makes, and a `.car` holds every catalog image.
        if builtBundleExtensions.contains(PathText.fileExtension(PathText.lastComponent(root)).lowercased()) {
            throw InputError(
                path: treeRoot,
                reason: "--fix patches a source tree, not a built app: give the app's source folder (its .xcassets and Xcode project) as --bundle")
        }
        var deleted = Set<String>(), images: [String] = []
        for asset in unused.assets where asset.verdict == .unused {
            deleted.formUnion(try files(of: asset, root: root, treeRoot: treeRoot))
            images.append(asset.name)
        }
        var text: [UInt8] = []
        var edited: [String] = []
        for project in unused.projects {
            let file = project + "/project.pbxproj"
            let bytes = try SmallFile.read(root + "/" + file, maxBytes: ProjectSet.maxProjectBytes)
            let folder = PathText.folder(project)
            let lines: [Int]
            do {
                lines = try ProjectEdit.linesRemoving(deleted, from: bytes, projectFolder: folder)
            } catch let error as FormatError {
                throw InputError(path: root + "/" + file, location: "offset \(error.offset)", reason: error.reason)
            }
            guard !lines.isEmpty else { continue }
            text += UnifiedDiff.removingLines(path: file, bytes: bytes, removed: lines)
            edited.append(project)
        }
        var deletedBytes = 0
        for path in deleted.sorted() {
            let full = root + "/" + path
            // git deletes a link as a link (its bytes are its target), and nothing through one.
            try refuseLinkedFolders(of: path, root: root, treeRoot: treeRoot)
            let file = try TreeFile.read(full)
            deletedBytes += file.bytes.count
            text += UnifiedDiff.deletion(path: path, bytes: file.bytes, mode: file.mode)
        }
        var patch = Patch(deletedFiles: deleted.sorted(), editedProjects: edited, images: images.sorted(), bytes: text)
        patch.deletedBytes = deletedBytes
        return patch
    }

    /// Folders that are a built product, not a source tree.
    static let builtBundleExtensions: Set<String> = ["app", "ipa", "xcarchive", "appex", "framework"]

    /// `fix.patch: 3 sets, 8 files, 454.1 KiB; review, then `git apply fix.patch``: what a run says it wrote.
    package static func summary(_ patch: Patch, path: String) -> String {
        guard !patch.images.isEmpty else { return "\(path): nothing to delete (no image is judged unused)" }
        return "\(path): \(counted(patch.images.count, "image")), \(counted(patch.deletedFiles.count, "file")), \(kibibytes(patch.deletedBytes))"
            + (patch.editedProjects.isEmpty ? "" : " and \(counted(patch.editedProjects.count, "project")) edited")
            + "; review it, then `git apply \(path)`"
    }

    /// The tree files an unused image's deletion removes: a catalog image's whole set folder, a
    /// loose image's file. A compiled catalog, or a path not in the tree, is an `InputError`.
    static func files(of asset: UnusedImages.Asset, root: String, treeRoot: String) throws -> Set<String> {
        var files = Set<String>()
        var walked = Set<String>()
        for path in asset.paths {
            if let set = setFolder(of: path) {
                // A set of 2,000 files is walked once, not once a file.
                if walked.insert(set).inserted { files.formUnion(try filesUnder(set, root: root)) }
            } else if path.lowercased().hasSuffix(".car") {
                throw InputError(
                    path: treeRoot,
                    reason: "--fix would delete the compiled catalog \(path), every image in it: give the source tree with its .xcassets as --bundle")
            } else {
                files.insert(path)
            }
        }
        guard files.allSatisfy({ FileManager.default.fileExists(atPath: root + "/" + $0) }) else {
            throw InputError(path: treeRoot, reason: "--fix needs --bundle to be the source tree: \(asset.paths.first ?? asset.name) is not in it")
        }
        return files
    }

    /// `A.xcassets/x.imageset` for `A.xcassets/x.imageset/x@2x.png`.
    static func setFolder(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.lastIndex(where: { $0.hasSuffix(".imageset") || $0.hasSuffix(".symbolset") }), index < parts.count - 1 else { return nil }
        return parts[...index].joined(separator: "/")
    }

    /// Every file and symbolic link under the tree folder `folder`, as tree paths (a link is
    /// deleted as itself: the walk does not enter it).
    static func filesUnder(_ folder: String, root: String) throws -> [String] {
        let walk = try DirectoryWalk(root: root + "/" + folder, links: .listed)
        if let warning = walk.warnings.first { throw InputError(path: root + "/" + folder, reason: warning) }
        return walk.entries.compactMap { $0.kind == .directory ? nil : folder + "/" + $0.path }
    }

    /// An `InputError` naming the first folder of `path` that is a symbolic link: `git apply`
    /// refuses a deletion "beyond a symbolic link", and the file lives elsewhere.
    static func refuseLinkedFolders(of path: String, root: String, treeRoot: String) throws {
        var folder = root
        for component in path.split(separator: "/").dropLast() {
            folder += "/" + component
            var info = stat()
            if lstat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
                let link = String(folder.dropFirst(root.count + 1))
                throw InputError(
                    path: treeRoot,
                    reason: "--fix would delete \(path) through the symbolic link \(link): delete it where the link points, or give that tree as --bundle")
            }
        }
    }
}

/// A tree file as git stores it: a link's target or a file's bytes, and git's mode for it.
private struct TreeFile {
    var bytes: [UInt8]
    var mode: String

    static func read(_ path: String) throws -> TreeFile {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw InputError(path: path, reason: "cannot read: \(String(cString: strerror(errno)))") }
        if info.st_mode & S_IFMT == S_IFLNK {
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(path, &target, target.count - 1)
            guard count >= 0 else { throw InputError(path: path, reason: "cannot read the link: \(String(cString: strerror(errno)))") }
            return TreeFile(bytes: target.prefix(count).map { UInt8(bitPattern: $0) }, mode: "120000")
        }
        let executable = info.st_mode & S_IXUSR != 0
        return TreeFile(bytes: try SmallFile.read(path, maxBytes: 1 << 30), mode: executable ? "100755" : "100644")
    }
}
