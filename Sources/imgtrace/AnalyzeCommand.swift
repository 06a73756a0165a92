import ArgumentParser
import AuditModel
import BuildHistory
import Foundation
import LaunchAudit
import LaunchTrace
import Reporters

/// `imgtrace analyze LOG… --bundle PATH`: resolve every load, judge it, report, and set the exit code.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Audit the images a launch loaded: resolve every name against the app and flag waste.",
        discussion: CommandHelp.discussion(
            "Reads one or more debugger logs of the same build (each is one launch) and the built app, resolves every image name the way UIKit or AppKit would on the device, and reports findings with their fixes. Settings come from .imgtrace.yml in the working directory (or --config); flags override it. Exit codes: 0 nothing fails the policy, 1 a finding at or above --fail-on, 2 an input could not be read, 64 a usage error.",
            examples: [
                "imgtrace analyze launch.log --bundle App.app",
                "imgtrace analyze *.log --bundle App.ipa --baseline main.json --format github",
            ])
    )

    @OptionGroup var inputs: AuditInputs

    @OptionGroup var outputs: ReportOutputs

    @OptionGroup var history: HistoryOptions

    @Option(
        help: "A baseline from `imgtrace baseline write`: only new findings and metrics worse than it (beyond the config's tolerance) fail the run.",
        completion: .file(extensions: ["json"]))
    var baseline: String?

    @Option(
        name: .customLong("source-root"),
        help: ArgumentHelp(
            "The app's source folder (in Xcode, $SRCROOT): findings point at the .xcassets entry, image file or .xib/.storyboard line to edit (config: sourceRoot).",
            valueName: "dir"), completion: .directory)
    var sourceRoot: String?

    func run() throws {
        try outputs.check(inputs: inputs.files(baseline: baseline) + (sourceRoot.map { [(what: "source root", path: $0)] } ?? []) + history.files)
        let chosen = outputs.chosen
        let loads = chosen.contains { $0.needsLoadRecords } ? LoadRecords(keepingRows: chosen.contains { $0.showsLoadRows }) : nil
        let onLoad = { (load: ImageLoad, log: Int, resolution: Resolution?) -> Void in loads?.add(load, log: log, resolution: resolution) }
        let outcome: AuditOutcome<AuditResult>
        if let location = history.history {
            // Opened first: a file that is not a history is refused before anything is read.
            let opened = try BuildHistory.open(location)
            outcome = try HistoryAudit.run(
                inputs.request(baseline: baseline, sourceRoot: sourceRoot), history: opened, identity: history.identity, pauseForTests: history.pauseForTests,
                onLoad: onLoad)
        } else {
            outcome = try inputs.audit(baseline: baseline, sourceRoot: sourceRoot, onLoad: onLoad)
        }
        let input = ReportInput(
            result: outcome.result, baseline: outcome.baseline, toolVersion: Imgtrace.configuration.version, loads: loads,
            workingDirectory: FileManager.default.currentDirectoryPath)
        try outputs.write(input, fails: outcome.fails)
        if outcome.fails { throw ExitCode(1) }
    }
}
