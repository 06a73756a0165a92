/// What `imgtrace unused` judged and searched.
public struct UnusedSummary: Sendable {
    /// Every shipped image set or loose image, with its verdict and what kept it.
    package var assets: [UnusedImages.Asset]
    /// The Swift and the Objective-C files searched; nil when no source root was given.
    public package(set) var swiftFiles: Int?
    public package(set) var objcFiles: Int?
    /// The property lists, JSON and `.strings` files searched for names (weak references).
    public package(set) var dataFiles: Int?
    /// The references in code and data files that name a shipped image (names, symbols,
    /// patterns, literals), each counted once.
    public package(set) var references: Int?
    /// Images of a source tree that no shipping target of its projects copies: not findings,
    /// and in no figure (nil when no project was read).
    package var notShipped: [UnusedImages.Asset]?
    /// The project files read to know what each target ships (tree paths), empty when none.
    package var projects: [String] = []
    /// The files read to judge shipping that may lie outside the source tree: project files and
    /// local packages' manifests, as paths the run opened (an output may not replace one).
    package var projectFiles: [String] = []
    /// Images the config's ignores cover: out of the findings and of every figure.
    package var ignored = 0

    package init(assets: [UnusedImages.Asset], swiftFiles: Int?, objcFiles: Int?, dataFiles: Int?, references: Int?) {
        self.assets = assets
        self.swiftFiles = swiftFiles
        self.objcFiles = objcFiles
        self.dataFiles = dataFiles
        self.references = references
    }

    /// Bytes in the app of the images judged unused: what deleting them saves.
    public var bytesToSave: Int {
        assets.filter { $0.verdict == .unused }.map(\.bytesOnDisk).saturatingSum()
    }
}
