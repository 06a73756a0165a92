import ArgumentParser
import AssetCatalog
import ImgtraceSupport
import Reporters

/// `imgtrace car FILE.car`: every rendition of a compiled catalog, as assetutil lists them.
struct CarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "car",
        abstract: "List the renditions of a compiled asset catalog (Assets.car), as `assetutil --info` does."
    )

    @Argument(help: "The compiled catalog.")
    var file: String

    @Option(help: "Output format: json (assetutil-compatible) or text.")
    var format: ListingFormat = .json

    @OptionGroup var width: ListingWidth

    func run() throws {
        let catalog = try CarCatalog.read(contentsOf: file)
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .json: sink.write(CarJSONReport.render(catalog))
        case .text: sink.write(CarTextReport.render(catalog, file: file, width: width.columns))
        }
        try ReportFile.finishStandardOutput(sink)
    }
}
