import ArgumentParser
import AuditPolicy
import Foundation
import ImgtraceSupport
import LaunchAudit
import Reporters
import UnusedAudit

/// `imgtrace unused --bundle App [--source-root DIR] [LOG…]`: what the app ships but never uses.
struct UnusedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unused",
        abstract: "List the images an app ships that nothing references and no launch loads.",
        discussion: CommandHelp.discussion(
            "An image is kept by any reference: a name the Swift or Objective-C code gives an image API, a string literal equal to its name anywhere (weak), a generated symbol of its name (Xcode's asset symbols, R.swift, SwiftGen), a name pattern built at run time (\"icon-\\(name)\" keeps every icon-*), a nib, storyboard or plist, or a load in a given launch log. The report says which kind kept each image. --fail-on warning fails on unused images, note also on dynamic-only and never-loaded ones. Formats and exit codes as for analyze.",
            examples: [
                "imgtrace unused --bundle App.app --source-root .",
                "imgtrace unused --bundle App.app --source-root . launch.log --format sarif",
            ])
    )

    @Argument(help: "Launch logs whose loads count as uses (optional).", completion: .file())
    var logs: [String] = []

    @Option(
        name: .customLong("bundle"),
        help: "The built app (.app, .ipa, .xcarchive), an asset catalog, or a source tree with its Xcode project; repeat for an app's extensions or several catalogs.",
        completion: .file())
    var bundles: [String]

    @Option(
        name: .customLong("project"),
        help: "The .xcodeproj or .xcworkspace that says which target ships what, when --bundle is a source tree (default: every project found in it).",
        completion: .file())
    var projects: [String] = []

    @Option(
        name: .customLong("source-root"),
        help: ArgumentHelp(
            "The app's source tree: its .swift, .m, .mm and .h files, and its plists, JSON and .strings, are searched for references (config: sourceRoot).",
            valueName: "dir"),
        completion: .directory)
    var sourceRoot: String?

    @OptionGroup var outputs: ReportOutputs
    @OptionGroup var width: ListingWidth

    @Flag(help: "List every shipped image, the used ones too, with what keeps each.")
    var all = false

    @OptionGroup var deviceChoice: DeviceChoice

    @OptionGroup var policy: PolicyOptions

    @Option(help: "A baseline from `imgtrace unused --write-baseline`: only images newly judged fail the run.", completion: .file())
    var baseline: String?

    @Option(name: .customLong("write-baseline"), help: "Also write this run's findings as a baseline to this file.", completion: .file())
    var writeBaseline: String?

    @Option(
        help: ArgumentHelp(
            "Also write a patch (a unified diff for `git apply`) that deletes every unused image of the source tree given as --bundle: whole .imageset folders, loose files and their project entries. The tree is never edited.",
            valueName: "patch"),
        completion: .file())
    var fix: String?

    func validate() throws {
        if fix != nil, bundles.count != 1 { throw ValidationError("--fix needs one --bundle: the source tree to patch") }
        if fix == "-" { throw ValidationError("--fix writes a file: standard output carries the report") }
        if logs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (`-`) can be given as one log only") }
    }

    func run() throws {
        var inputs = bundles.map { (what: "bundle", path: $0) } + logs.map { (what: "log", path: $0) }
        if let baseline { inputs.append((what: "baseline", path: baseline)) }
        if let sourceRoot { inputs.append((what: "source root", path: sourceRoot)) }
        inputs += projects.map { (what: "project", path: $0) }
        // The config is read too: no report may be written over it, as in `analyze`.
        if let path = ConfigFile.path(explicit: policy.config) { inputs.append((what: "config file", path: path)) }
        try outputs.check(inputs: inputs)
        try OutputTargets.check(outputs: [("--write-baseline", writeBaseline), ("--fix", fix)], inputs: inputs)
        var request = AuditRequest(logs: logs, bundles: bundles)
        request.projects = projects
        request.device = deviceChoice.device
        request.configPath = policy.config
        request.failOn = policy.failOn.map(\.severity)
        request.baselinePath = baseline
        request.sourceRoot = sourceRoot
        let outcome = try AuditSession.unused(request)
        // The projects and manifests the run read may lie outside every folder given (a local
        // package beside the tree): checked now, before anything is written.
        let read = outcome.result.summary.projectFiles.map { (what: "project file", path: $0) }
        try outputs.check(inputs: inputs + read)
        try OutputTargets.check(outputs: [("--write-baseline", writeBaseline), ("--fix", fix)], inputs: inputs + read)
        if let fix {
            // Computed before anything is written: a tree it cannot patch is one error, no partial output.
            let patch = try UnusedFix.patch(for: outcome.result.summary, treeRoot: bundles[0])
            // A patch is the files' exact bytes for git, not text for a reader: it passes unguarded.
            try ReportFile.write(to: fix, for: .json) { $0.writeTrusted(patch.bytes) }
            PlatformIO.writeStandardError("imgtrace: wrote " + SafeText.visible(UnusedFix.summary(patch, path: fix)) + "\n")
        }
        if let writeBaseline {
            let written = Baseline(outcome.result)
            try ReportFile.write(to: writeBaseline, for: .json) { $0.write(written.render()) }
        }
        var input = ReportInput(
            result: outcome.result, baseline: outcome.baseline, toolVersion: Imgtrace.configuration.version,
            workingDirectory: FileManager.default.currentDirectoryPath)
        input.allImages = all
        input.listingWidth = width.columns
        try outputs.write(input, fails: outcome.fails)
        if outcome.fails { throw ExitCode(1) }
    }
}
