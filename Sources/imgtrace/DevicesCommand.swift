import ArgumentParser
import Reporters

/// `imgtrace devices`: the built-in device profiles.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device profiles --device accepts (screen points, scale, idiom).",
        discussion: CommandHelp.discussion(
            "--device takes a profile's id or any of its model names, in any case and spacing (\"iPhone 16 Pro Max\", iphone16promax). Without --device the profile follows the app: the largest current iPhone for iOS apps, a 14-inch MacBook Pro for macOS apps, a 1080p display for GNUstep apps.",
            examples: [
                "imgtrace devices",
                "imgtrace devices --format json",
            ])
    )

    @Option(help: "Output format; text is a table.")
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
