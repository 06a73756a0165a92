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

    func run() throws {
        let sink = ByteSink(consumer: format.consumer)
        switch format {
        case .text:
            let rows = DeviceProfile.builtIn.map { d -> [String] in
                let mark = d == DeviceProfile.default ? " (default)" : ""
                return [
                    d.id + mark, "\(d.pointWidth)×\(d.pointHeight)", "@\(d.scale)x", "\(d.pixelWidth)×\(d.pixelHeight)", d.idiom.name,
                    d.models.joined(separator: ", "),
                ]
            }
            sink.write(TextTable.render(header: ["ID", "POINTS", "SCALE", "PIXELS", "IDIOM", "MODELS"], rows: rows))
        case .json:
            var w = JSONText()
            w.beginArray()
            for d in DeviceProfile.builtIn {
                // The object `analyze --format json` writes, with the pixels and the default mark.
                JSONReporter.writeDevice(d, &w) { w in
                    w.field("pixelWidth", d.pixelWidth)
                    w.field("pixelHeight", d.pixelHeight)
                    w.field("default", d == DeviceProfile.default)
                }
            }
            w.endArray()
            sink.write(w.bytes + [0x0A])
        }
        try ReportFile.finishStandardOutput(sink)
    }
}
