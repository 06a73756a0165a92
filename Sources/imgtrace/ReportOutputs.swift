import ArgumentParser
import Foundation
import ImgtraceSupport
import Reporters

/// Where a report goes and in which formats, shared by `analyze` and `unused`.
struct ReportOutputs: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Output format for standard output (or --output). (values: \(AuditReporters.ids.joined(separator: ", ")); default: text)", valueName: "format"),
        completion: .list(AuditReporters.ids), transform: ReportFormat.parse)
    var format = ReportFormat(TextReporter())

    @Option(
        name: .customLong("report"), help: ArgumentHelp("Also write a report to a file, e.g. json:audit.json (repeatable).", valueName: "format:path"),
        completion: .file(), transform: ReportDestination.parse)
    var reports: [ReportDestination] = []

    @Option(help: "Write the report to this file instead of standard output.", completion: .file())
    var output: String?

    @Option(help: "Colour in the text report; auto means on a terminal with TERM not dumb. NO_COLOR always wins.")
    var color: ColorMode = .auto

    enum ColorMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never
    }

    /// The formats asked for, standard output's first.
    var chosen: [any AuditReporter] { [format.reporter] + reports.map(\.format.reporter) }

    /// Refuses to write over an input before anything is read.
    func check(inputs: [(what: String, path: String)]) throws {
        try OutputTargets.check(outputs: [("--output", output)] + reports.map { ("--report", $0.path) }, inputs: inputs)
    }

    /// Writes every report: files first, standard output last, so a failure leaves no report
    /// half-printed; in GitHub Actions the Markdown report also goes to the job summary; someone
    /// at a terminal whose report went elsewhere hears the verdict.
    func write<Result: ReportableResult>(_ input: ReportInput<Result>, fails: Bool) throws {
        var input = input
        for report in reports {
            try ReportFile.write(to: report.path, for: report.format.reporter.consumer) { input.render(in: report.format.reporter, to: $0) }
        }
        input.color = useColor
        try ReportFile.write(to: output, for: format.reporter.consumer, colour: useColor) { input.render(in: format.reporter, to: $0) }
        if chosen.contains(where: { $0.id == GitHubReporter().id }),
            let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty
        {
            let markdown = MarkdownReporter()
            let collected = ByteSink(collecting: markdown.consumer)
            input.render(in: markdown, to: collected)
            // The job summary is a copy beside the run's own report: a file it cannot go to is
            // said, and the run still ends with its verdict.
            do {
                try ReportFile.append(collected.collected, to: summary, consumer: markdown.consumer)
            } catch let failure as InputFailure {
                var stderr = StandardError()
                print(
                    "imgtrace: warning: GITHUB_STEP_SUMMARY " + SafeText.capped(SafeText.visible(failure.description), limit: 1000) + "; the job summary is left out", to: &stderr)
            }
        }
        if output != nil || (fails && !PlatformIO.isTerminal(1) && PlatformIO.isTerminal(2)) {
            var stderr = StandardError()
            print(VerdictLine.text(input.result, failing: fails) + (output.map { "; report: \($0)" } ?? ""), to: &stderr)
        }
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
