import Foundation

/// A source tree written file by file in a temporary folder, for tests of `unused` and the code
/// search: files, and asset-catalog image sets of one PNG. `remove()` deletes it.
public struct TreeWriter {
    /// The tree's root.
    public let root: URL

    public init() throws {
        root = try BinaryRunner.temporaryDirectory()
    }

    /// Writes under `root`, an existing folder (a tree beside another in one temporary folder).
    public init(root: URL) {
        self.root = root
    }

    /// Writes `bytes` at `path` (relative to the root), making its folders.
    public func write(_ path: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    public func write(_ path: String, _ text: String) throws { try write(path, Array(text.utf8)) }

    /// `folder/name.imageset` with its `Contents.json` and one universal @1x PNG `width`×20.
    public func imageSet(_ folder: String, _ name: String, width: UInt32 = 20) throws {
        try write(
            "\(folder)/\(name).imageset/Contents.json",
            #"{"images":[{"idiom":"universal","filename":"\#(name).png","scale":"1x"}],"info":{"version":1,"author":"xcode"}}"#)
        try write("\(folder)/\(name).imageset/\(name).png", ImageWriter.png(width: width, height: 20))
    }

    public func remove() { try? FileManager.default.removeItem(at: root) }
}
