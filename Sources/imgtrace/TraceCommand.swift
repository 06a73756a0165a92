import ArgumentParser
import LaunchTrace
import Reporters

/// `imgtrace trace LOG`: only the trace, every ImageLoad and the summary.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Read a debugger log into image-load events and a summary.",
        discussion: CommandHelp.discussion(
            "Shows what a log holds before an audit: every name with its loads, first line and API, then the hits without a name by reason and the debugger's shape. --format json prints every event.",
            examples: [
                "imgtrace trace launch.log",
                "imgtrace trace launch.log --format json",
            ])
    )

    @Argument(help: "The debugger console log (lldb, gdb or Xcode).", completion: .file())
    var log: String

    @Option(help: "Output format.")
    var format: ListingFormat = .text

    @OptionGroup var width: ListingWidth

    @Option(name: .customLong("launch-end"), parsing: .unconditional, help: LaunchEndPattern.help, transform: LaunchEndPattern.parse)
    var launchEnd: LaunchEndPattern?

    func run() throws {
        let options = TraceOptions(launchEnd: launchEnd)
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .json:
            let report = TraceJSONReport()
            let summary = try TraceReader.read(contentsOf: log, options: options) { report.add($0) }
            report.write(summary: summary, to: sink)
        case .text:
            let summary = try TraceReader.read(contentsOf: log, options: options, onLoad: nil)
            sink.write(TraceTextReport.render(summary, file: log, width: width.columns))
        }
        try ReportFile.finishStandardOutput(sink)
    }
}
