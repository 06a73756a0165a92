import AuditModel
import LaunchAudit
import LaunchTrace

/// The HTML report's picture of image time (`record --agent`): one lane per thread, the main
/// thread first, each lookup a bar from its start to its end and each decode one in a lighter
/// shade, on a time axis in milliseconds from the program's start (or from the first request
/// when the log does not say when the program started), the launch end marked. First log only.
enum TimeLanes {
    /// Lanes drawn at most; the busiest threads, the main thread always.
    static let maxLanes = 8

    private struct Bar {
        var start: Double
        var milliseconds: Double
        var label: String
        var decode: Bool
    }

    static func svg(_ result: AuditResult, loads: LoadRecords?) -> String? {
        guard let log = result.logs.first, let rows = loads?.rows else { return nil }
        var bars: [String: [Bar]] = [:]
        for row in rows where row.log == 0 {
            guard let microseconds = row.microseconds, let start = row.timestamp?.millisecondsOfDay else { continue }
            bars[row.thread ?? "main", default: []].append(Bar(start: start, milliseconds: Double(microseconds) / 1000, label: row.name, decode: false))
        }
        for decode in log.summary.decodes {
            guard let microseconds = decode.microseconds, let start = decode.timestamp?.millisecondsOfDay else { continue }
            bars[decode.thread ?? "main", default: []].append(
                Bar(start: start, milliseconds: Double(microseconds) / 1000, label: (decode.name ?? "an image no lookup returned") + " (decode)", decode: true))
        }
        guard !bars.isEmpty else { return nil }
        let allBars = bars.values.flatMap { $0 }
        let origin = log.summary.recordingStart?.millisecondsOfDay ?? allBars.map(\.start).min()!
        let launchEnd = log.summary.recording?.launchMilliseconds.map(Double.init).flatMap { log.summary.recordingStart == nil ? nil : $0 }
        let end = max(allBars.map { $0.start + $0.milliseconds - origin }.max()!, launchEnd ?? 0, 1)
        // The main thread first, then the busiest.
        let threads = bars.keys.sorted { a, b in
            let mainA = ImageLoad.isMainThread(a), mainB = ImageLoad.isMainThread(b)
            if mainA != mainB { return mainA }
            let busyA = bars[a]!.reduce(0) { $0 + $1.milliseconds }, busyB = bars[b]!.reduce(0) { $0 + $1.milliseconds }
            return busyA != busyB ? busyA > busyB : a < b
        }.prefix(maxLanes)
        let left = 150.0, width = 700.0, laneHeight = 26.0, top = 6.0
        let plotBottom = top + Double(threads.count) * laneHeight
        func x(_ ms: Double) -> Double { left + width * max(0, ms - origin) / end }
        var svg = "<svg role=\"img\" aria-label=\"image time per thread\" viewBox=\"0 0 \(Int(left + width + 30)) \(Int(plotBottom + 36))\" width=\"100%\">"
        for (lane, thread) in threads.enumerated() {
            let y = top + Double(lane) * laneHeight
            svg += "<text x=\"\(Int(left - 8))\" y=\"\(Int(y + 17))\" text-anchor=\"end\">\(HTMLReporter.chartLabel(thread, width: 22))</text>"
            svg += "<line x1=\"\(Int(left))\" y1=\"\(Int(y + 13))\" x2=\"\(Int(left + width))\" y2=\"\(Int(y + 13))\" stroke=\"#e5e5ea\"/>"
            for bar in bars[thread]! {
                // A bar is at least a pixel wide: a 2 µs lookup is still seen.
                let w = max(1, width * bar.milliseconds / end)
                svg +=
                    "<rect x=\"\(HTMLReporter.fixed(x(bar.start)))\" y=\"\(Int(y + 4))\" width=\"\(HTMLReporter.fixed(w))\" height=\"18\" "
                    + "fill=\"\(bar.decode ? "#7fb8f0" : "#0071e3")\"><title>\(HTMLReporter.h(bar.label)): "
                    + "\(ImageTime.milliseconds(Int(bar.milliseconds * 1000))) at \(HTMLReporter.fixed(bar.start - origin)) ms</title></rect>"
            }
        }
        svg += "<line x1=\"\(Int(left))\" y1=\"\(Int(plotBottom))\" x2=\"\(Int(left + width))\" y2=\"\(Int(plotBottom))\" stroke=\"#8e8e93\"/>"
        let step = HTMLReporter.tickStep(Int(end.rounded(.up)))
        for tick in stride(from: 0, through: Int(end), by: step) {
            let tx = Int(left + width * Double(tick) / end)
            svg += "<line x1=\"\(tx)\" y1=\"\(Int(plotBottom))\" x2=\"\(tx)\" y2=\"\(Int(plotBottom + 5))\" stroke=\"#8e8e93\"/>"
            svg += "<text x=\"\(tx)\" y=\"\(Int(plotBottom + 17))\" text-anchor=\"middle\">\(tick)</text>"
        }
        svg += "<text x=\"\(Int(left - 8))\" y=\"\(Int(plotBottom + 17))\" text-anchor=\"end\">ms</text>"
        if let launchEnd {
            let ex = Int(left + width * launchEnd / end)
            svg += "<line x1=\"\(ex)\" y1=\"\(Int(top))\" x2=\"\(ex)\" y2=\"\(Int(plotBottom))\" stroke=\"#5b3fa0\" stroke-dasharray=\"4 3\"/>"
            svg += "<text x=\"\(ex - 4)\" y=\"\(Int(plotBottom + 31))\" text-anchor=\"end\">launch ends (\(Int(launchEnd)) ms)</text>"
        }
        svg += "</svg>"
        let origin0 = log.summary.recordingStart == nil ? "from the first timed request" : "from the program's start"
        svg += "<div class=\"sub\">Dark = lookup, light = decode at first use; \(origin0); first log only.</div>"
        return svg
    }
}
