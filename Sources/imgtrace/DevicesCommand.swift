import ArgumentParser
import LaunchAudit
import Reporters

/// `imgtrace devices`: the built-in device profiles.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device profiles --device accepts (screen points, scale, idiom)."
    )

    func run() throws {
        let rows = DeviceProfile.builtIn.map { d -> [String] in
            let mark = d == DeviceProfile.default ? " (default)" : ""
            return [
                d.id + mark, "\(d.pointWidth)×\(d.pointHeight)", "@\(d.scale)x", "\(d.pixelWidth)×\(d.pixelHeight)", d.idiom,
                d.models.joined(separator: ", "),
            ]
        }
        let sink = ByteSink()
        sink.write(TextTable.render(header: ["ID", "POINTS", "SCALE", "PIXELS", "IDIOM", "MODELS"], rows: rows))
        try ReportFile.finishStandardOutput(sink)
    }
}
