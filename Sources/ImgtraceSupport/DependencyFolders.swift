/// Folders of a source tree that hold copies, checkouts or build products rather than the app's
/// own sources: every reader of a tree (code, projects, catalogs) passes them by, with one list.
package enum DependencyFolders {
    /// Version control, SwiftPM's and Xcode's build and checkout folders, CocoaPods, Carthage, npm.
    package static let names: Set<String> = [
        ".git", ".build", ".swiftpm", "DerivedData", "SourcePackages", "build", "Pods", "Carthage", "node_modules",
    ]
}
