import BuildHistory
import ImgtraceSupport

extension HistoryReports {
    /// One self-contained page: a line chart per figure (inline SVG, no script) and the names
    /// that came and went, per build. The charts scale to the page's width, a phone's too.
    public static func html(_ builds: [BuildRecord], location: String) -> String {
        let h = HTMLReporter.h
        var out = HTMLReporter.head(title: "imgtrace history")
        out += "<h1>imgtrace history</h1><div class=\"sub\" style=\"margin-bottom:14px\">\(h(location)): \(counted(builds.count, "build")), oldest first</div>\n"
        if builds.isEmpty { return out + "<div class=\"card\">No builds recorded.</div></main></body></html>\n" }
        out += "<style>.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:12px}.charts svg{width:100%;height:auto}</style>"
        out += "<div class=\"charts\">"
        for figure in figures {
            let values = builds.map { figure.value($0.launch) }
            guard values.contains(where: { $0 != nil }) else { continue }
            out += "<div class=\"card\"><h2 style=\"margin-top:0\">\(h(figure.label))</h2>" + chart(values, builds: builds, unit: figure.unit) + "</div>"
        }
        out += "</div>\n<h2>Names that came and went</h2><div class=\"card\"><table><thead><tr><th>build</th><th>added</th><th>gone</th></tr></thead><tbody>"
        var any = false
        for (build, move) in zip(builds, moves(builds)) where !move.added.isEmpty || !move.gone.isEmpty {
            any = true
            let list = { (names: [String]) in names.map { "<code>\(HTMLReporter.name($0))</code>" }.joined(separator: " ") }
            out += "<tr><td><code>\(h(build.identity.build))</code></td><td>\(list(move.added))</td><td>\(list(move.gone))</td></tr>"
        }
        if !any { out += "<tr><td colspan=\"3\">Every build asked for the same names.</td></tr>" }
        return out + "</tbody></table></div></main></body></html>\n"
    }

    /// A line over the builds, each point with its build and value as a tooltip; the least and
    /// most values on the left, the first and last build below.
    private static func chart(_ values: [Int?], builds: [BuildRecord], unit: Unit) -> String {
        let h = HTMLReporter.h
        let width = 320.0, height = 130.0, left = 56.0, bottom = 20.0, top = 12.0
        let known = values.compactMap { $0 }
        let low = known.min() ?? 0, high = known.max() ?? 0
        let span = Double(max(1, high - low))
        func x(_ index: Int) -> Double { left + (builds.count > 1 ? Double(index) / Double(builds.count - 1) : 0.5) * (width - left - 10) }
        // A figure that never moved is a line across the middle, not along the axis.
        func y(_ value: Int) -> Double { high == low ? (top + height - bottom) / 2 : top + (1 - Double(value - low) / span) * (height - top - bottom) }
        func label(_ value: Int) -> String { unit.shown(value) }
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"\(h(label(low))) to \(h(label(high))) over \(builds.count) builds\">"
        svg += "<line x1=\"\(left)\" y1=\"\(height - bottom)\" x2=\"\(width - 10)\" y2=\"\(height - bottom)\" stroke=\"#c7c7cc\"/>"
        svg += "<text x=\"\(left - 6)\" y=\"\(y(high) + 4)\" text-anchor=\"end\">\(h(label(high)))</text>"
        if high != low { svg += "<text x=\"\(left - 6)\" y=\"\(y(low) + 4)\" text-anchor=\"end\">\(h(label(low)))</text>" }
        let points = values.enumerated().compactMap { index, value in value.map { String(format: "%.1f,%.1f", x(index), y($0)) } }
        svg += "<polyline fill=\"none\" stroke=\"#0071e3\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>"
        for (index, value) in values.enumerated() {
            guard let value else { continue }
            svg += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"#0071e3\">", x(index), y(value))
            svg += "<title>\(h(builds[index].identity.build)): \(h(label(value)))</title></circle>"
        }
        svg += "<text x=\"\(left)\" y=\"\(height - 6)\">\(h(builds[0].identity.build))</text>"
        if builds.count > 1 { svg += "<text x=\"\(width - 10)\" y=\"\(height - 6)\" text-anchor=\"end\">\(h(builds[builds.count - 1].identity.build))</text>" }
        return svg + "</svg>"
    }
}
