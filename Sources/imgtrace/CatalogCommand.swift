import AppBundle
import ArgumentParser
import ImgtraceSupport
import Reporters

/// `imgtrace catalog PATH`: every image an app ships, with its size, scale, idiom and cost.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Inventory every image in an .app, .ipa, .xcarchive, .xcassets or Assets.car.",
        discussion: CommandHelp.discussion(
            "Each image with the name that reaches it, its scale, idiom, appearance, format, pixels, decoded size and size on disk, sorted by decoded size; then the names nibs, storyboards and Info.plist ask for, and files that should not ship.",
            examples: [
                "imgtrace catalog App.ipa",
                "imgtrace catalog App.app --format json",
            ])
    )

    @Argument(help: "The bundle, archive, source catalog or compiled catalog.", completion: .file())
    var path: String

    @Option(name: .customLong("system-images"), help: "A folder of framework or OS images the app's names may resolve to (repeatable).", completion: .directory)
    var systemImages: [String] = []

    @Option(help: "Output format.")
    var format: ListingFormat = .text

    @OptionGroup var width: ListingWidth

    func run() throws {
        let inventory: BundleInventory
        do {
            inventory = try BundleReader.inventory(of: path, systemImages: systemImages)
        } catch let error as InputFailure {
            throw error
        } catch {
            // The reader throws InputError; anything else is still this input's, said in one line.
            throw InputError(path: path, reason: "\(error)")
        }
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .json: CatalogJSONReport.write(inventory, to: sink)
        case .text: sink.write(CatalogTextReport.render(inventory, input: path, width: width.columns))
        }
        try ReportFile.finishStandardOutput(sink)
    }
}
