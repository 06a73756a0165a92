import AuditModel
import AuditPolicy
import AuditRules
import Foundation
import ImgtraceSupport
import ProjectModel

/// `imgtrace unused --fix PATCH`: a unified diff that deletes what `unused` judged unused in a
/// source tree — a catalog set's whole `.imageset` folder, a loose image's files and the project
/// objects that name them — for `git apply` to apply after review. It never edits the tree.
public enum UnusedFix {
    /// What the patch deletes, and its text.
    public struct Patch: Sendable {
        /// Tree paths of the deleted files, sorted.
        public var deletedFiles: [String]
        /// The projects the patch edits.
        public var editedProjects: [String]
        /// The names of the images deleted.
        public var images: [String]
        /// The diff; empty when nothing is unused.
        public var text: String
    }

    /// The patch for `unused` (a run over the source tree at `treeRoot`, the one `--bundle`).
    /// Only `unused-image` verdicts of a run that searched the code are deleted: nothing weak,
    /// dynamic or loaded touches them. An `InputError` when the run cannot say so.
    public static func patch(for unused: UnusedSummary, treeRoot: String) throws -> Patch {
        guard unused.swiftFiles != nil else {
            throw InputError(path: treeRoot, reason: "--fix needs --source-root: without the code searched, a verdict is a candidate, not a deletion")
        }
        let root = URL(fileURLWithPath: treeRoot).standardizedFileURL.path
        var deleted = Set<String>(), images: [String] = []
        for asset in unused.assets where asset.verdict == .unused {
            var files = Set<String>()
            for path in asset.paths {
                // A catalog image: its whole set folder; a loose image: its file.
                if let set = setFolder(of: path) {
                    files.formUnion(try filesUnder(set, root: root))
                } else {
                    files.insert(path)
                }
            }
            guard files.allSatisfy({ FileManager.default.fileExists(atPath: root + "/" + $0) }) else {
                throw InputError(path: treeRoot, reason: "--fix needs --bundle to be the source tree: \(asset.paths.first ?? asset.name) is not in it")
            }
            deleted.formUnion(files)
            images.append(asset.name)
        }
        var text = ""
        var edited: [String] = []
        for project in unused.projects {
            let file = project + "/project.pbxproj"
            let bytes = try SmallFile.read(root + "/" + file, maxBytes: ProjectSet.maxProjectBytes)
            let folder = (project as NSString).deletingLastPathComponent
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
        for path in deleted.sorted() {
            let full = root + "/" + path
            let bytes = try SmallFile.read(full, maxBytes: 1 << 30)
            let executable = FileManager.default.isExecutableFile(atPath: full)
            text += UnifiedDiff.deletion(path: path, bytes: bytes, executable: executable)
        }
        return Patch(deletedFiles: deleted.sorted(), editedProjects: edited, images: images.sorted(), text: text)
    }

    /// `A.xcassets/x.imageset` for `A.xcassets/x.imageset/x@2x.png`.
    static func setFolder(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.lastIndex(where: { $0.hasSuffix(".imageset") || $0.hasSuffix(".symbolset") }), index < parts.count - 1 else { return nil }
        return parts[...index].joined(separator: "/")
    }

    /// Every file under the tree folder `folder`, as tree paths.
    static func filesUnder(_ folder: String, root: String) throws -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root + "/" + folder) else {
            throw InputError(path: root + "/" + folder, reason: "not a readable folder")
        }
        var out: [String] = []
        while let next = walker.nextObject() as? String {
            if walker.fileAttributes?[.type] as? FileAttributeType == .typeRegular { out.append(folder + "/" + next) }
        }
        return out
    }
}
