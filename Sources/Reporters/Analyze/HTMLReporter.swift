import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format html`: one self-contained page (inline CSS, inline SVG charts drawn
/// here, a few lines of inline script to sort the table; nothing fetched from the network).
public struct HTMLReporter: AuditReporter {
    public let id = "html"
    public let fileExtension = "html"
    public let summary = "One self-contained page with charts and a sortable table of every launch image."

    public init() {}

    public func render(_ input: ReportInput, to sink: ByteSink) {
        sink.write(Self.document(input.result))
    }

    static let chartRows = 25
    static let timelineRows = 30

    static func document(_ result: AuditResult) -> String {
        let launch = result.uses.filter { $0.launchLoads > 0 }
        let d = result.device
        var out = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>imgtrace launch audit: \(h(result.bundleNames.first ?? ""))</title>
            <style>
            body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#1d1d1f;background:#f5f5f7}
            main{max-width:1100px;margin:0 auto;padding:24px}
            h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px}
            .sub{color:#6e6e73}.card{background:#fff;border-radius:10px;padding:16px 18px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
            .verdict{display:inline-block;padding:4px 12px;border-radius:14px;font-weight:600;color:#fff}
            .fail{background:#d70015}.pass{background:#248a3d}
            .figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin-top:14px}
            .figure b{display:block;font-size:22px}.figure span{color:#6e6e73;font-size:12px}
            table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e5ea;vertical-align:top;overflow-wrap:anywhere}
            th{cursor:pointer;user-select:none;background:#fafafa;position:sticky;top:0}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
            td.n,th.n,.sev,th{white-space:nowrap;overflow-wrap:normal}
            .sev{font-weight:600;text-transform:uppercase;font-size:11px}.error{color:#d70015}.warning{color:#b25000}.note{color:#0071a4}
            code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f2f2f7;padding:1px 4px;border-radius:4px}
            .fix{color:#3a3a3c}svg text{font:11px -apple-system,Helvetica,Arial,sans-serif;fill:#3a3a3c}
            </style></head><body><main>
            <h1>imgtrace launch audit</h1>
            <div class="sub"><code>\(h(result.bundleNames.first ?? "?"))</code> on <b>\(h(d.id))</b> (\(d.pointWidth)×\(d.pointHeight) pt @\(d.scale)x, \(h(d.idiom)))
            · \(result.logs.map { "<code>\(h($0.path))</code>" }.joined(separator: ", "))</div>

            """
        let c = result.severityCounts
        out += "<div class=\"card\" style=\"margin-top:16px\"><span class=\"verdict \(result.fails ? "fail" : "pass")\">\(result.fails ? "FAIL" : "PASS")</span> "
        out += "\(c[.error] ?? 0) errors, \(c[.warning] ?? 0) warnings, \(c[.note] ?? 0) notes"
        out += result.failOn.map { " · fails at \($0.rawValue)" } ?? " · never fails on findings"
        for breach in result.budgetBreaches { out += "<div class=\"error\">budget <code>\(h(breach.budget))</code> exceeded: \(breach.actual) &gt; \(breach.limit)</div>" }
        for warning in result.warnings { out += "<div class=\"warning\">warning: \(prose(warning.text))</div>" }
        if result.logs.contains(where: { $0.summary.launchEnd == nil }) {
            out += "<div class=\"sub\">No launch-end marker: the whole log is the launch.</div>"
        }
        let m = result.metrics.launch
        out += "<div class=\"figures\">"
        for (value, label) in [
            ("\(m.loads)", "loads at launch"), ("\(m.images)", "distinct images"), (kibibytes(m.decodedBytes), "decoded"),
            (kibibytes(m.bytesOnDisk), "on disk"), ("\(m.missing)", "missing names"), ("\(m.repeated)", "repeated lookups"),
        ] {
            out += "<div class=\"figure\"><b>\(h(value))</b><span>\(h(label))</span></div>"
        }
        out += "</div></div>\n"
        out += "<h2>Timeline of loads (launch order)</h2><div class=\"card\">\(timeline(launch, result))</div>\n"
        out += "<h2>Decoded memory per image</h2><div class=\"card\">\(memoryChart(launch))</div>\n"
        out += "<h2>Findings</h2>"
        if result.findings.isEmpty {
            out += "<div class=\"card\">No findings.</div>"
        } else {
            out += "<table><thead><tr><th>severity</th><th>rule</th><th>finding and fix</th><th class=\"n\">cost</th></tr></thead><tbody>"
            for finding in result.findings {
                out += "<tr><td class=\"sev \(finding.severity.rawValue)\">\(finding.severity.rawValue)</td><td><code>\(h(finding.rule))</code></td>"
                out += "<td>\(prose(finding.message))<div class=\"fix\">Fix: \(prose(finding.fix))</div></td>"
                out += "<td class=\"n\">\(finding.cost > 0 ? kibibytes(finding.cost) : "")</td></tr>"
            }
            out += "</tbody></table>"
        }
        out += "\n<h2>Every load at launch</h2><table id=\"loads\"><thead><tr>"
        out +=
            "<th>name</th><th>resolved to</th><th>how</th><th class=\"n\">pixels</th><th class=\"n\">decoded</th><th class=\"n\">on disk</th><th class=\"n\">loads</th><th class=\"n\">first line</th>"
        out += "</tr></thead><tbody>"
        for use in launch {
            let image = use.resolution.image
            let pixels = image.flatMap { i in i.pixelWidth.flatMap { w in i.pixelHeight.map { (w * $0, "\(w)×\($0)") } } }
            out += "<tr><td><code>\(h(use.displayName))</code></td><td>\(h(image?.id ?? "—"))</td><td class=\"sub\">\(prose(use.resolution.how))</td>"
            out += "<td class=\"n\" data-v=\"\(pixels?.0 ?? 0)\">\(pixels?.1 ?? "—")</td>"
            out += "<td class=\"n\" data-v=\"\(image?.decodedBytes ?? 0)\">\(image?.decodedBytes.map(kibibytes) ?? "—")</td>"
            out += "<td class=\"n\" data-v=\"\(image?.bytesOnDisk ?? 0)\">\(image.map { kibibytes($0.bytesOnDisk) } ?? "—")</td>"
            out += "<td class=\"n\" data-v=\"\(use.launchLoads)\">\(use.launchLoads)</td>"
            out += "<td class=\"n\" data-v=\"\(use.firstLine.log * 1_000_000_000 + use.firstLine.line)\">\(lineText(use.firstLine, result))</td></tr>"
        }
        out += "</tbody></table>\n"
        out += """
            <p class="sub">Click a column to sort. Generated by imgtrace from the log and the bundle; no data leaves this file.</p>
            </main><script>
            document.querySelectorAll('#loads th').forEach(function(th,i){th.addEventListener('click',function(){
            var body=th.closest('table').tBodies[0],rows=Array.from(body.rows),dir=th.dataset.dir==='asc'?-1:1;th.dataset.dir=dir===1?'asc':'desc';
            rows.sort(function(a,b){var x=a.cells[i],y=b.cells[i];var p=x.dataset.v,q=y.dataset.v;
            if(p!==undefined){return dir*(Number(p)-Number(q));}return dir*x.textContent.localeCompare(y.textContent);});
            rows.forEach(function(r){body.appendChild(r);});});});
            </script></body></html>

            """
        return out
    }

    /// Each of the costliest names on a row, a tick at every launch load, x = log line.
    static func timeline(_ uses: [NameUse], _ result: AuditResult) -> String {
        let rows = Array(uses.prefix(timelineRows))
        guard !rows.isEmpty else { return "No loads." }
        let lastLine = max(1, result.logs.first.map { $0.summary.launchEnd?.line ?? $0.summary.lines } ?? 1)
        let left = 190.0, width = 860.0, rowHeight = 18.0
        let height = Double(rows.count) * rowHeight + 30
        var svg = "<svg role=\"img\" aria-label=\"timeline of image loads\" viewBox=\"0 0 \(Int(left + width + 20)) \(Int(height))\" width=\"100%\">"
        for (i, use) in rows.enumerated() {
            let y = Double(i) * rowHeight + 12
            svg += "<text x=\"\(Int(left - 8))\" y=\"\(Int(y + 4))\" text-anchor=\"end\">\(h(clip(use.displayName)))</text>"
            svg += "<line x1=\"\(Int(left))\" y1=\"\(Int(y))\" x2=\"\(Int(left + width))\" y2=\"\(Int(y))\" stroke=\"#e5e5ea\"/>"
            let colour = use.resolution.image == nil ? "#d70015" : "#0071e3"
            for line in use.launchLines where line.log == 0 {
                let x = left + width * Double(line.line) / Double(lastLine)
                svg +=
                    "<rect x=\"\(fixed(x - 1.5))\" y=\"\(Int(y - 6))\" width=\"3\" height=\"12\" fill=\"\(colour)\"><title>\(h(use.displayName)) · line \(line.line)</title></rect>"
            }
        }
        let axisY = Int(height - 8)
        svg += "<text x=\"\(Int(left))\" y=\"\(axisY)\">line 1</text><text x=\"\(Int(left + width))\" y=\"\(axisY)\" text-anchor=\"end\">line \(lastLine)</text>"
        svg += "</svg>"
        if uses.count > timelineRows { svg += "<div class=\"sub\">The \(timelineRows) costliest of \(uses.count) names; red = missing. First log only.</div>" }
        return svg
    }

    /// Horizontal bars of decoded bytes for the costliest images.
    static func memoryChart(_ uses: [NameUse]) -> String {
        var seen = Set<String>()
        let images = uses.compactMap { $0.resolution.image }.filter { ($0.decodedBytes ?? 0) > 0 && seen.insert($0.id).inserted }.prefix(chartRows)
        guard let largest = images.first?.decodedBytes, largest > 0 else { return "No decoded sizes." }
        let left = 260.0, width = 690.0, rowHeight = 20.0
        var svg =
            "<svg role=\"img\" aria-label=\"decoded memory per image\" viewBox=\"0 0 \(Int(left + width + 110)) \(Int(Double(images.count) * rowHeight + 6))\" width=\"100%\">"
        for (i, image) in images.enumerated() {
            let y = Double(i) * rowHeight + 3
            let w = max(1, width * Double(image.decodedBytes!) / Double(largest))
            svg += "<text x=\"\(Int(left - 8))\" y=\"\(Int(y + 13))\" text-anchor=\"end\">\(h(clip(image.id, 40)))</text>"
            svg +=
                "<rect x=\"\(Int(left))\" y=\"\(Int(y + 2))\" width=\"\(fixed(w))\" height=\"14\" rx=\"2\" fill=\"#0071e3\"><title>\(h(image.id)): \(kibibytes(image.decodedBytes!))</title></rect>"
            svg += "<text x=\"\(fixed(left + w + 6))\" y=\"\(Int(y + 13))\">\(kibibytes(image.decodedBytes!))</text>"
        }
        return svg + "</svg>"
    }

    static func lineText(_ line: LogLine, _ result: AuditResult) -> String {
        result.logs.count > 1 ? "#\(line.log + 1):\(line.line)" : "\(line.line)"
    }

    static func clip(_ text: String, _ limit: Int = 28) -> String {
        text.count <= limit ? text : "…" + String(text.suffix(limit - 1))
    }

    static func fixed(_ value: Double) -> String { TextReporter.fixed(value, 1) }

    /// Escaped text whose `backtick` spans become `<code>`, as in the text report's wording.
    static func prose(_ text: String) -> String {
        let parts = h(text).split(separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.count % 2 == 1 else { return h(text) }
        return parts.enumerated().map { $0.offset % 2 == 1 ? "<code>\($0.element)</code>" : String($0.element) }.joined()
    }

    /// HTML text and attribute escaping.
    static func h(_ text: String) -> String {
        var out = ""
        for scalar in TextTable.escapeName(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
