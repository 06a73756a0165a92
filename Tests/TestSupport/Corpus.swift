import Foundation

/// Locates `../shared/corpus` (or `$IMGTRACE_CORPUS`) for tests that read real files.
public enum Corpus {
    /// The corpus folder, or nil when it is not beside the checkout.
    public static let root: URL? = {
        if let env = ProcessInfo.processInfo.environment["IMGTRACE_CORPUS"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }
        let candidate = dir.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    /// The message a test gives when it skips for want of the corpus.
    public static let missingMessage = "../shared/corpus is absent: tests on real files are skipped (CI always has it)"

    /// The package's root folder.
    public static let packageRoot: URL = {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }
        return dir
    }()
}
