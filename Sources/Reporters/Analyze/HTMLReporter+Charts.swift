import AuditModel
import ImgtraceSupport
import LaunchAudit

/// The page's charts, drawn here as inline SVG: the timeline of the costliest names and their memory.
extension HTMLReporter {
    /// Each of the costliest names on a row, a tick at every launch load, x = log line, with
    /// an axis of line numbers and the launch end marked.
    static func timeline(_ uses: ArraySlice<NameUse>, _ result: AuditResult) -> String {
        let rows = Array(uses.prefix(timelineRows))
        guard !rows.isEmpty else { return "No loads." }
        let lastLine = max(1, result.logs.first.map { $0.summary.launchEnd?.line ?? $0.summary.lines } ?? 1)
        let left = 190.0, width = 670.0, rowHeight = 18.0, top = 6.0
        let plotBottom = top + Double(rows.count) * rowHeight
        let height = plotBottom + 34
        func x(_ line: Int) -> Double { left + width * Double(line) / Double(lastLine) }
        var svg = "<svg role=\"img\" aria-label=\"timeline of image loads\" viewBox=\"0 0 \(Int(left + width + 30)) \(Int(height))\" width=\"100%\">"
        for (i, use) in rows.enumerated() {
            let y = top + Double(i) * rowHeight + 9
            svg += "<text x=\"\(Int(left - 8))\" y=\"\(Int(y + 4))\" text-anchor=\"end\">\(chartLabel(use.displayName, width: 30))</text>"
            svg += "<line x1=\"\(Int(left))\" y1=\"\(Int(y))\" x2=\"\(Int(left + width))\" y2=\"\(Int(y))\" stroke=\"#e5e5ea\"/>"
            let colour = use.resolution.image == nil ? "#d70015" : "#0071e3"
            for line in use.launchLines where line.log == 0 {
                svg +=
                    "<rect x=\"\(fixed(x(line.line) - 1.5))\" y=\"\(Int(y - 6))\" width=\"3\" height=\"12\" fill=\"\(colour)\"><title>\(h(use.displayName)) · line \(line.line)</title></rect>"
            }
        }
        // The axis: a tick at every round step of log lines, labelled.
        svg += "<line x1=\"\(Int(left))\" y1=\"\(Int(plotBottom))\" x2=\"\(Int(left + width))\" y2=\"\(Int(plotBottom))\" stroke=\"#8e8e93\"/>"
        let step = tickStep(lastLine)
        for tick in stride(from: 0, through: lastLine, by: step) {
            let tx = Int(x(tick))
            svg += "<line x1=\"\(tx)\" y1=\"\(Int(plotBottom))\" x2=\"\(tx)\" y2=\"\(Int(plotBottom + 5))\" stroke=\"#8e8e93\"/>"
            svg += "<text x=\"\(tx)\" y=\"\(Int(plotBottom + 17))\" text-anchor=\"middle\">\(tick)</text>"
        }
        svg += "<text x=\"\(Int(left - 8))\" y=\"\(Int(plotBottom + 17))\" text-anchor=\"end\">log line</text>"
        if let end = result.logs.first?.summary.launchEnd {
            let ex = Int(x(end.line))
            svg += "<line x1=\"\(ex)\" y1=\"\(Int(top))\" x2=\"\(ex)\" y2=\"\(Int(plotBottom))\" stroke=\"#5b3fa0\" stroke-dasharray=\"4 3\"/>"
            svg += "<text x=\"\(ex - 4)\" y=\"\(Int(plotBottom + 30))\" text-anchor=\"end\">launch ends (line \(end.line))</text>"
        }
        svg += "</svg>"
        let note = uses.count > timelineRows ? "The \(timelineRows) costliest of \(uses.count) names; " : ""
        svg += "<div class=\"sub\">\(note)blue = resolved, red = missing; first log only.</div>"
        return svg
    }

    /// A chart's row label: the name, or when it is wider than the chart leaves room for, a
    /// path's whole file name (`…/onboarding_step1@3x.png`), else its two ends; the whole name
    /// is the label's tooltip and is in the tables below.
    static func chartLabel(_ text: String, width: Int) -> String {
        guard TextTable.displayWidth(text, limit: width + 1) > width else { return h(text) }
        var short = TextTable.middleShortened(text, width: width)
        if let slash = text.utf8.lastIndex(of: UInt8(ascii: "/")) {
            let file = "…/" + String(text[text.utf8.index(after: slash)...])
            if TextTable.displayWidth(file, limit: width + 1) <= width { short = file }
        }
        return "<title>\(h(text))</title>" + h(short)
    }

    /// A round step (1, 2 or 5 × 10ⁿ) that puts about eight ticks on an axis up to `last`.
    static func tickStep(_ last: Int) -> Int {
        var magnitude = 1
        while magnitude * 10 <= max(1, last / 8) { magnitude *= 10 }
        for factor in [1, 2, 5, 10] where last / (factor * magnitude) <= 8 { return factor * magnitude }
        return 10 * magnitude
    }

    /// Horizontal bars of decoded bytes for the costliest images; the label sits inside a bar
    /// that leaves it no room outside, so no label runs off the chart.
    static func memoryChart(_ uses: ArraySlice<NameUse>) -> String {
        var seen = Set<String>()
        let images = uses.compactMap { $0.resolution.image }.filter { ($0.decodedBytes ?? 0) > 0 && seen.insert($0.id).inserted }.prefix(chartRows)
        guard let largest = images.first?.decodedBytes, largest > 0 else { return "No decoded sizes." }
        let left = 250.0, width = 600.0, rowHeight = 20.0, labelRoom = 80.0
        var svg =
            "<svg role=\"img\" aria-label=\"decoded memory per image\" viewBox=\"0 0 \(Int(left + width + 10)) \(Int(Double(images.count) * rowHeight + 6))\" width=\"100%\">"
        for (i, image) in images.enumerated() {
            let y = Double(i) * rowHeight + 3
            let w = max(1, (width - labelRoom) * Double(image.decodedBytes!) / Double(largest))
            svg += "<text x=\"\(Int(left - 8))\" y=\"\(Int(y + 13))\" text-anchor=\"end\">\(chartLabel(ImageLabel.text(image), width: 40))</text>"
            svg +=
                "<rect x=\"\(Int(left))\" y=\"\(Int(y + 2))\" width=\"\(fixed(w))\" height=\"14\" rx=\"2\" fill=\"#0071e3\"><title>\(h(image.id)): \(kibibytes(image.decodedBytes!))</title></rect>"
            // The value sits inside a long bar, at its start: on a phone the chart scrolls, and the
            // largest bars' values must not start off-screen.
            let value = kibibytes(image.decodedBytes!)
            svg +=
                w > 90
                ? "<text x=\"\(Int(left + 6))\" y=\"\(Int(y + 13))\" style=\"fill:#fff\">\(value)</text>"
                : "<text x=\"\(fixed(left + w + 6))\" y=\"\(Int(y + 13))\">\(value)</text>"
        }
        return svg + "</svg>"
    }

    /// What this change did against the baseline: its headline, then each worse figure, new
}
