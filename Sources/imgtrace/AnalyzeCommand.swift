import AppBundle
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#endif
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

    @Option(help: "Output format for standard output (or --output): text, json, markdown, html, sarif, github, gitlab, junit or checkstyle.")
    var format: ReportFormat = .text

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

    func run() throws {
        let wantsJSON = format == .json || reports.contains { $0.format == .json }
        let json = wantsJSON ? AnalyzeJSONReport() : nil
        let prior = try baseline.map { path in
            do { return try Baseline.load(path: path) } catch let error as InputError { throw failInput(error) }
        }
        let (result, settings) = try inputs.audit(baselineLaunch: prior?.launch) { load, log, resolution in
            json?.add(load, log: log, resolution: resolution)
        }
        let comparison = prior.map { BaselineComparison(baseline: $0, result: result, tolerance: settings.baselineTolerance) }
        // Files first: stdout is written last, so a failure leaves no report half-printed.
        for report in reports {
            try ReportFile.write(to: report.path) { render(report.format, result, comparison, json: json, color: false, to: $0) }
        }
        try ReportFile.write(to: output) { render(format, result, comparison, json: json, color: useColor, to: $0) }
        // In GitHub Actions the annotations go to the log and the full report to the job summary.
        if format == .github || reports.contains(where: { $0.format == .github }),
           let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            appendStepSummary(AnalyzeMarkdownReport.render(result), to: summary)
        }
        let fails = comparison?.fails ?? result.fails
        if fails { throw ExitCode(1) }
    }

    /// Colour never goes to files, never with `NO_COLOR`, and in auto mode only to a terminal.
    private var useColor: Bool {
        let environment = ProcessInfo.processInfo.environment
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        switch color {
        case .never: return false
        case .always: return output == nil
        case .auto: return output == nil && isatty(1) == 1 && environment["TERM"] != "dumb"
        }
    }

    private func render(_ format: ReportFormat, _ result: AuditResult, _ comparison: BaselineComparison?,
                        json: AnalyzeJSONReport?, color: Bool, to sink: ByteSink) {
        let bundles = inputs.bundles, logs = inputs.logs
        switch format {
        case .text: sink.write(AnalyzeTextReport.render(result, baseline: comparison, color: color))
        case .json: json?.write(result, baseline: comparison, to: sink)
        case .markdown: sink.write(AnalyzeMarkdownReport.render(result))
        case .html: sink.write(AnalyzeHTMLReport.render(result))
        case .sarif:
            sink.write(AnalyzeSARIFReport.render(result, bundlePath: bundles[0], logPaths: logs,
                                                 version: Imgtrace.configuration.version))
        case .github: sink.write(AnalyzeGitHubReport.render(result, bundlePath: bundles[0], logPaths: logs))
        case .gitlab: sink.write(AnalyzeGitLabReport.render(result, bundlePath: bundles[0], logPaths: logs))
        case .junit: sink.write(AnalyzeJUnitReport.render(result, bundlePath: bundles[0], logPaths: logs))
        case .checkstyle: sink.write(AnalyzeCheckstyleReport.render(result, bundlePath: bundles[0], logPaths: logs))
        }
    }

    private func appendStepSummary(_ markdown: String, to path: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            var stderr = StandardError()
            print("imgtrace: warning: cannot append to $GITHUB_STEP_SUMMARY (\(path))", to: &stderr)
            return
        }
        handle.seekToEndOfFile()
        handle.write(Data(markdown.utf8))
        try? handle.close()
    }
}
