import ArgumentParser
import Foundation
import ImgtraceSupport
import LaunchTrace
import Reporters

/// `imgtrace trace LOG`: only the trace, every ImageLoad and the summary.
struct TraceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trace",
        abstract: "Read a debugger log into image-load events and a summary."
    )

    @Argument(help: "The debugger console log (lldb, gdb or Xcode).")
    var log: String

    @Option(help: "Output format: text or json.")
    var format: ListingFormat = .text

    @OptionGroup var width: ListingWidth

    @Option(name: .customLong("launch-end"), help: LaunchEndPattern.help, transform: LaunchEndPattern.parse)
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
