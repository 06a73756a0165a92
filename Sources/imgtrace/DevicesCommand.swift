import ArgumentParser
import ImgtraceSupport
import LaunchAudit
import Reporters

/// `imgtrace devices`: the built-in device profiles.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device profiles --device accepts (screen points, scale, idiom)."
    )

    @Option(help: "text (a table) or json.")
    var format: ListingFormat = .text

    @OptionGroup var width: ListingWidth

    func run() throws {
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .text: sink.write(DeviceListing.table(width: width.columns))
        case .json: sink.write(DeviceListing.json())
        }
        try ReportFile.finishStandardOutput(sink)
    }
}
