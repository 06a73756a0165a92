import AppBundle
import ArgumentParser
import CodeReferences
import Foundation
import ImgtraceSupport
import LaunchAudit
import LaunchTrace
import Reporters

/// `imgtrace unused --bundle App [--source-root DIR] [LOG…]`: what the app ships but never uses.
struct UnusedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unused",
        abstract: "List the images an app ships that nothing references and no launch loads.",
        discussion: """
            An image is kept by any reference: a name the Swift or Objective-C code gives an image API, a string literal \
            equal to its name anywhere (weak), a generated symbol of its name (Xcode's asset symbols, R.swift, SwiftGen), \
            a name pattern built at run time (`"icon-\\(name)"` keeps every icon-*), a nib, storyboard or plist, or a load \
            in a given launch log. The report says which kind kept each image.
            """
    )

    @Argument(help: "Launch logs whose loads count as uses (optional).")
    var logs: [String] = []

    @Option(name: .customLong("bundle"), help: "The built app, or a source tree with its asset catalogs.")
    var bundle: String

    @Option(name: .customLong("source-root"), help: "The app's source tree: its .swift, .m, .mm and .h files are searched for references.")
    var sourceRoot: String?

    @Option(help: "Output format: text or json.")
    var format: ListingFormat = .text

    @Flag(help: "Also list the images that are used, with what keeps each.")
    var all = false

    @Option(name: .customLong("fail-on"), help: "Fail (exit 1) on unused images (warning) or also dynamic-only and never-loaded ones (note).")
    var failOn: AuditInputs.FailLevel = .never

    func run() throws {
        let inventory: BundleInventory
        do { inventory = try BundleReader.inventory(of: bundle, systemImages: []) } catch let error as InputFailure { throw error } catch {
            throw InputError(path: bundle, reason: "\(error)")
        }
        var code: CodeIndex?
        if let sourceRoot {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: sourceRoot, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw InputError(path: sourceRoot, reason: "--source-root is not a folder")
            }
            code = CodeIndex.scan(root: sourceRoot)
        }
        var loaded: Set<String>?
        if !logs.isEmpty {
            var names = Set<String>()
            for log in logs {
                _ = try TraceReader.read(contentsOf: log, options: TraceOptions()) { load in
                    if load.status == .ok, let name = load.name { names.insert(name) }
                }
            }
            loaded = names
        }
        let assets = UnusedImages.judge(inventory: inventory, code: code, loaded: loaded)
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .json: sink.write(UnusedReport.json(assets, code: code, logs: logs.count))
        case .text: sink.write(UnusedReport.text(assets, code: code, logs: logs.count, all: all))
        }
        try ReportFile.finishStandardOutput(sink)
        if let level = failOn.severity, assets.contains(where: { $0.verdict.severity.map { $0 <= level } ?? false }) { throw ExitCode(1) }
    }
}
