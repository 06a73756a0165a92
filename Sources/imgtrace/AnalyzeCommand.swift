import ArgumentParser
import Foundation
import ImgtraceSupport
import LaunchAudit
import LaunchTrace
import Reporters

/// `imgtrace analyze LOG… --bundle PATH`: resolve every load, judge it, report, and set the exit code.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Audit the images a launch loaded: resolve every name against the app and flag waste.",
        discussion: """
            Reads one or more debugger logs of the same build (each is a launch) and the built app, resolves
            every image name the way UIKit/AppKit would on the chosen device, and reports findings.
            Settings come from .imgtrace.yml in the working directory (or --config); flags override it.
            Exit codes: 0 nothing fails the policy; 1 findings at or above --fail-on, or a budget exceeded;
            2 an input could not be read; 64 usage error.
            """
    )

    @OptionGroup var inputs: AuditInputs

    @Option(help: ArgumentHelp("Output format for standard output (or --output): \(ReportFormat.listed).", valueName: "format"))
    var format = ReportFormat(TextReporter())

    @Option(name: .customLong("report"), help: ArgumentHelp("Also write a report to a file, e.g. json:audit.json (repeatable).", valueName: "format:path"))
    var reports: [ReportDestination] = []

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(help: "Colour in the text report: auto (a terminal, TERM not dumb, NO_COLOR unset), always or never. NO_COLOR always wins.")
    var color: ColorMode = .auto

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    @Option(help: "A baseline from `imgtrace baseline write`: only new findings and metrics worse than it (beyond the config's tolerance) fail the run.")
    var baseline: String?

    @Option(
        name: .customLong("source-root"),
        help: ArgumentHelp(
            "The app's source folder (in Xcode, $SRCROOT): findings point at the .xcassets entry, image file or .xib/.storyboard line to edit (config: sourceRoot).",
            valueName: "dir"), completion: .directory)
    var sourceRoot: String?

    func run() throws {
        try OutputTargets.check(
            outputs: [("--output", output)] + reports.map { ("--report", $0.path) }, inputs: inputs.files(baseline: baseline))
        let chosen = [format.reporter] + reports.map(\.format.reporter)
        let loads = chosen.contains { $0.needsLoadRecords } ? LoadRecords(keepingRows: chosen.contains { $0.showsLoadRows }) : nil
        let outcome = try inputs.audit(baseline: baseline, sourceRoot: sourceRoot) { load, log, resolution in
            loads?.add(load, log: log, resolution: resolution)
        }
        var input = ReportInput(
            result: outcome.result, baseline: outcome.baseline, bundlePath: inputs.bundles[0],
            logPaths: inputs.logs, toolVersion: Imgtrace.configuration.version, loads: loads,
            workingDirectory: FileManager.default.currentDirectoryPath)
        // Files first: stdout is written last, so a failure leaves no report half-printed.
        for report in reports {
            try ReportFile.write(to: report.path, for: report.format.reporter.consumer) { report.format.reporter.render(input, to: $0) }
        }
        input.color = useColor
        try ReportFile.write(to: output, for: format.reporter.consumer, colour: useColor) { format.reporter.render(input, to: $0) }
        // In GitHub Actions the annotations go to the log and the full report to the job summary.
        if chosen.contains(where: { $0.id == GitHubReporter().id }),
            let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty
        {
            let markdown = MarkdownReporter()
            let collected = ByteSink(collecting: markdown.consumer)
            markdown.render(input, to: collected)
            try ReportFile.append(collected.collected, to: summary, consumer: markdown.consumer)
        }
        // Someone at a terminal whose report went to a file (or who will only see the exit code)
        // hears how it went.
        if output != nil || (outcome.fails && !PlatformIO.isTerminal(1) && PlatformIO.isTerminal(2)) {
            var stderr = StandardError()
            print(VerdictLine.text(outcome.result, failing: outcome.fails) + (output.map { "; report: \($0)" } ?? ""), to: &stderr)
        }
        if outcome.fails { throw ExitCode(1) }
    }

    /// Colour never goes to files, never with `NO_COLOR`, and in auto mode only to a terminal.
    private var useColor: Bool {
        let environment = ProcessInfo.processInfo.environment
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        switch color {
        case .never: return false
        case .always: return output == nil
        case .auto: return output == nil && PlatformIO.isTerminal(1) && environment["TERM"] != "dumb"
        }
    }
}
