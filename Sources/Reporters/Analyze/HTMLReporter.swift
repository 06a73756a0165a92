import AuditModel
import ImgtraceSupport
import LaunchAudit
import UnusedAudit

/// `imgtrace analyze --format html`: one self-contained page (inline CSS, inline SVG charts drawn
/// here, a few lines of inline script to sort the table; nothing fetched from the network).
/// Charts scroll sideways on a narrow screen rather than shrink their text past reading.
public struct HTMLReporter: AuditReporter {
    public let id = "html"
    public let fileExtension = "html"
    public let consumer = OutputConsumer.html
    public let summary = "One self-contained page with charts, the findings and a sortable table of every load."
    public var needsLoadRecords: Bool { true }
    public var showsLoadRows: Bool { true }

    public init() {}

    public func render(_ input: ReportInput<AuditResult>, to sink: ByteSink) {
        Self.write(input.result, baseline: input.baseline, loads: input.loads) { sink.write($0) }
    }

    public func render(_ input: ReportInput<UnusedResult>, to sink: ByteSink) {
        Self.write(input.result, baseline: input.baseline, allImages: input.allImages) { sink.write($0) }
    }

    static let chartRows = 25
    static let timelineRows = 30

    /// The page's top, either command's: the heading and the verdict card up to its figures,
    /// `verdictLines` (what else judged the run) and the baseline's block before the warnings
    /// and `notes` after them.
    static func top(_ result: some CommandResult, baseline: BaselineComparison?, verdictLines: String, notes: String) -> String {
        let d = result.device
        // The logs after a `·`, when there are any (`unused` may have none).
        let logs = result.logs.isEmpty ? "" : " · " + result.logs.map { "<code>\(h($0.path))</code>" }.joined(separator: ", ")
        var out =
            head(title: result.reportTitle + ": " + (result.bundleNames.first ?? "")) + """
                <h1>\(result.reportTitle)</h1>
                <div class="sub"><code>\(h(result.bundleNames.first ?? "?"))</code> on <b>\(h(d.id))</b> \
                (\(dimensions(d.pointWidth, d.pointHeight)) pt @\(d.scale)x, \(h(d.idiom.name)))\(logs)</div>

                """
        let verdict = Verdict(result, baseline: baseline)
        let badgeClass = verdict.outcome == .fail ? "fail" : verdict.outcome == .pass ? "pass" : "notgating"
        out += "<div class=\"card\" style=\"margin-top:16px\"><span class=\"verdict \(badgeClass)\">\(h(verdict.badge))</span> "
        out += h(verdict.countsText) + (verdict.acceptedText.map { " · " + h($0) } ?? "")
        out += result.failOn.map { " · fails at \($0.rawValue)" } ?? " · never fails on findings"
        out += verdictLines
        if let baseline { out += baselineBlock(baseline) }
        let first = StartHere.items(result.findings)
        if !first.isEmpty {
            out += "<div class=\"start\"><b>Start here</b> (what fixing each saves, most first):<ol>"
            for item in first {
                out += "<li><code class=\"rule\">\(h(item.finding.rule))</code>: <code>\(name(item.finding.subject))</code> saves up to \(h(item.saves))</li>"
            }
            out += "</ol></div>"
        }
        for warning in result.warnings { out += "<div class=\"warning\">warning: \(prose(warning.text))</div>" }
        return out + notes
    }

    /// The figures of a card, each a value over its label.
    private static func figures(_ figures: [(value: String, label: String)]) -> String {
        "<div class=\"figures\">" + figures.map { "<div class=\"figure\"><b>\(h($0.value))</b><span>\(h($0.label))</span></div>" }.joined() + "</div>"
    }

    /// `analyze`'s page in pieces, the findings table row by row: a million findings are never held as text.
    static func write(_ result: AuditResult, baseline: BaselineComparison? = nil, loads: LoadRecords? = nil, emit: (String) -> Void) {
        // Launch-window names come first in `uses`.
        let launch = result.uses.prefix { $0.launchLoads > 0 }
        var breaches = result.budgetBreaches.map {
            "<div class=\"error\">budget <code>\(h($0.budget))</code> exceeded: \(h($0.figures))</div>"
        }
        breaches += result.budgetFigures.filter { !$0.isExceeded }.map { "<div class=\"sub\">within budget <code>\(h($0.budget))</code>: \(h($0.headroom))</div>" }
        let wholeLog =
            result.logs.contains(where: { $0.summary.launchEnd == nil }) ? "<div class=\"sub\">No launch-end marker: the whole log is the launch.</div>" : ""
        let spread = result.metrics.launchSpread
        let perLaunch = LaunchFigureText.heading(spread).map { "<div class=\"sub\">Each figure is \(h($0)).</div>" } ?? ""
        var out = top(result, baseline: baseline, verdictLines: breaches.joined(), notes: wholeLog + perLaunch)
        func value(_ figure: KeyPath<PhaseMetrics, Int>, _ unit: FigureUnit = .count) -> String {
            LaunchFigureText.value(spread, figure, unit)
        }
        var launchFigures = [
            (value(\.loads), "loads at launch"), (value(\.images), "distinct images"), (value(\.decodedBytes, .bytes), "decoded"),
            (value(\.bytesOnDisk, .bytes), "on disk"), (value(\.missing), "missing names"), (value(\.repeated), "repeated lookups"),
        ]
        if let time = LaunchFigureText.mainThreadTime(spread) { launchFigures.append((time, LaunchFigureText.mainThreadTimeLabel)) }
        out += figures(launchFigures) + "</div>\n"
        out += "<h2>Timeline of loads (launch order)</h2><div class=\"card scroll\">\(timeline(launch, result))</div>\n"
        if let lanes = TimeLanes.svg(result, loads: loads) { out += "<h2>Image time per thread (milliseconds)</h2><div class=\"card scroll\">\(lanes)</div>\n" }
        out += "<h2>Decoded memory per image</h2><div class=\"card scroll\">\(memoryChart(launch))</div>\n"
        out += "<h2>Findings</h2>"
        if result.findings.isEmpty {
            out += "<div class=\"card\">No findings.</div>"
        } else {
            emit(out)
            out = ""
            findingsTable(result, baseline: baseline, emit: emit)
        }
        out += loadsTable(result, loads)
        out += tail(result, readCode: result.sourceRoot != nil)
        emit(out)
    }

    /// `unused`'s page: the figures and what was searched, the findings, then the images not
    /// plainly used (every image with `allImages`) in a sortable table.
    static func write(_ result: UnusedResult, baseline: BaselineComparison? = nil, allImages: Bool = false, emit: (String) -> Void) {
        let unused = result.summary
        // A passing run that found unused images says why it passes, as the text report does.
        let notGating = UnusedReport.notGatingLine(result, passes: Verdict(result, baseline: baseline).outcome == .pass)
        var out = top(result, baseline: baseline, verdictLines: notGating.map { "<div class=\"sub\">\(prose($0))</div>" } ?? "", notes: "")
        out += figures(UnusedReport.figures(unused, device: result.device))
        out += "<div class=\"sub\">\(prose(UnusedReport.searched(unused, launches: result.logs.count)))</div>"
        if let shipping = UnusedReport.shipping(unused) { out += "<div class=\"sub\">\(prose(shipping))</div>" }
        out += "</div>\n<h2>Findings</h2>"
        if result.findings.isEmpty { out += "<div class=\"card\">No findings.</div>" }
        emit(out)
        if !result.findings.isEmpty { findingsTable(result, baseline: baseline, emit: emit) }
        emit(unusedTable(unused, all: allImages) + tail(result, readCode: result.sourceRoot != nil || unused.swiftFiles != nil))
    }

    /// The page up to its heading: the document, its styles and the opened `main`.
    static func head(title: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(h(title))</title>
        <style>
        body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;margin:0;color:#1d1d1f;background:#f5f5f7}
        main{max-width:1100px;margin:0 auto;padding:24px}
        h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 10px}
        .sub{color:#6e6e73}.card{background:#fff;border-radius:10px;padding:16px 18px;box-shadow:0 1px 2px rgba(0,0,0,.08)}
        .verdict{display:inline-block;padding:4px 12px;border-radius:14px;font-weight:600;color:#fff}
        .fail{background:#d70015}.pass{background:#248a3d}.notgating{background:#b25000}
        .figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(110px,1fr));gap:12px;margin-top:14px}
        .figure b{display:block;font-size:22px}.figure span{color:#6e6e73;font-size:12px}
        table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #e5e5ea;vertical-align:top;overflow-wrap:normal}
        th{background:#fafafa;position:sticky;top:0}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
        #loads th{cursor:pointer;user-select:none}#loads th::after{content:"\\2195";opacity:.35;margin-left:4px}
        #loads th[aria-sort=ascending]::after{content:"\\25B2";opacity:1}#loads th[aria-sort=descending]::after{content:"\\25BC";opacity:1}
        .scroll{overflow-x:auto}.scroll svg{min-width:860px}.scroll table{min-width:900px}
        tr.after td{background:#f6f3fc}.tag{display:inline-block;font-size:11px;padding:0 6px;border-radius:8px;background:#e9e3f7;color:#5b3fa0;white-space:nowrap}
        .edit{font-size:12px;color:#6e6e73}
        @media (max-width:640px){main{padding:12px}.findings thead,#loads thead{display:none}
        .findings tr,#loads tr{display:block;border-bottom:1px solid #e5e5ea;background:#fff}
        .findings td,#loads td{display:block;border:0;padding:2px 10px}.findings td.n,#loads td.n{text-align:left}.findings td.n:empty{display:none}
        .scroll svg,.scroll table{min-width:0}svg text{font-size:24px}}
        td.n,th.n,.sev,th,code.rule{white-space:nowrap;overflow-wrap:normal}
        .sev{font-weight:600;text-transform:uppercase;font-size:11px}.error{color:#d70015}.warning{color:#b25000}.note{color:#0071a4}
        code{font:12px ui-monospace,Menlo,Consolas,monospace;background:#f2f2f7;padding:1px 4px;border-radius:4px}
        .fix{color:#3a3a3c}svg text{font:11px -apple-system,Helvetica,Arial,sans-serif;fill:#3a3a3c}
        </style></head><body><main>

        """
    }

    /// The page after its last section: what it was made from, and the table-sorting script.
    static func tail(_ result: some CommandResult, readCode: Bool) -> String {
        var inputs = result.logs.isEmpty ? "the app" : result.logs.count == 1 ? "the log and the app" : "the logs and the app"
        if readCode { inputs += " and its source code" }
        return "<p class=\"sub\">Generated by imgtrace from \(inputs); no data leaves this file.</p>\n" + script
    }

    static let script = """
        </main><script>
        document.querySelectorAll('#loads th').forEach(function(th,i){th.addEventListener('click',function(){
        var body=th.closest('table').tBodies[0],rows=Array.from(body.rows),asc=th.getAttribute('aria-sort')!=='ascending',dir=asc?1:-1;
        th.closest('tr').querySelectorAll('th').forEach(function(o){o.removeAttribute('aria-sort');});
        th.setAttribute('aria-sort',asc?'ascending':'descending');
        rows.sort(function(a,b){var x=a.cells[i],y=b.cells[i];var p=x.dataset.v,q=y.dataset.v;
        if(p!==undefined){return dir*(Number(p)-Number(q));}return dir*x.textContent.localeCompare(y.textContent);});
        rows.forEach(function(r){body.appendChild(r);});});});
        </script></body></html>

        """

    /// `imgtrace unused`: the images not plainly used (every image with `all`), sortable.
    static func unusedTable(_ unused: UnusedSummary, all: Bool) -> String {
        let assets = UnusedReport.listed(unused, all: all)
        guard !assets.isEmpty else { return "\n<h2>Images</h2><div class=\"card\">Every shipped image is used.</div>\n" }
        var out = "\n<h2>\(all ? "Every shipped image" : "Images not plainly used") (\(assets.count))</h2><div class=\"scroll\"><table id=\"loads\"><thead><tr>"
        out += "<th>name</th><th>verdict</th><th class=\"n\">files</th><th class=\"n\">in app</th><th class=\"n\">downloaded</th><th>kept by</th></tr></thead><tbody>"
        for asset in assets {
            let cells = UnusedReport.cells(asset)
            out += "<tr><td><code>\(name(cells[0]))</code></td><td><code>\(h(cells[1]))</code></td><td class=\"n\" data-v=\"\(asset.paths.count)\">\(cells[2])</td>"
            out += "<td class=\"n\" data-v=\"\(asset.bytesOnDisk)\">\(h(cells[3]))</td><td class=\"n\" data-v=\"\(asset.deviceBytes)\">\(h(cells[4]))</td>"
            out += "<td class=\"sub\">\(prose(cells[5]))</td></tr>"
        }
        return out + "</tbody></table></div>\n<p class=\"sub\">Click a column to sort; click again to reverse.</p>\n"
    }

    /// finding and fixed one.
    private static func baselineBlock(_ baseline: BaselineComparison) -> String {
        var out = "<div class=\"baseline\"><b>Baseline:</b> \(prose(BaselineText.headline(baseline)))<ul>"
        if baseline.deviceChanged { out += "<li>note: the baseline was written for another device; fingerprints include the device</li>" }
        for regression in baseline.regressions { out += "<li>worse: \(prose("\(regression.metric) \(regression.change)"))</li>" }
        for change in baseline.imageChanges.prefix(BaselineComparison.listedImageChanges) { out += "<li>moved: \(prose(change.phrase))</li>" }
        for entry in baseline.newFindings { out += "<li>new \(h(entry.severity)) <code>\(h(entry.rule))</code>: \(prose(entry.message))</li>" }
        for entry in baseline.fixed { out += "<li>fixed <code>\(h(entry.rule))</code>: \(prose(entry.message))</li>" }
        return out + "</ul></div>"
    }

    /// The findings, a rule's many notes as one row, each with its fix and where to edit it;
    /// against a baseline, whether each is new or accepted.
    /// The app's own come first; the toolkit's notes, which never gate, follow under their own heading.
    static func findingsTable(_ result: some CommandResult, baseline: BaselineComparison? = nil, emit: (String) -> Void) {
        let states = FindingStates(result, baseline: baseline)
        if FindingEntry.count(result.findings, part: .app) > 0 {
            findingsTable(result, part: .app, states: states, baseline: baseline, emit: emit)
        } else {
            emit("<div class=\"card\">None in the app's own lookups.</div>")
        }
        let toolkit = FindingEntry.count(result.findings, part: .toolkit)
        guard toolkit > 0 else { return }
        emit("<h2>The toolkit's own lookups (\(counted(toolkit, "note")), never gating)</h2>")
        findingsTable(result, part: .toolkit, states: states, baseline: baseline, emit: emit)
    }

    private static func findingsTable(
        _ result: some CommandResult, part: FindingEntry.Part, states: FindingStates, baseline: BaselineComparison?, emit: (String) -> Void
    ) {
        let stateHeader = baseline == nil ? "" : "<th>baseline</th>"
        emit("<table class=\"findings\"><thead><tr><th>severity</th>\(stateHeader)<th>rule</th><th>finding and fix</th><th class=\"n\">cost</th></tr></thead><tbody>")
        FindingEntry.forEach(in: result.findings, part: part) { entry in
            var out = ""
            let finding = entry.first
            var text = entry.groupSummary { "<code>\(name($0))</code>" } ?? prose(finding.message)
            if let place = entry.editPlace(result) { text += "<div class=\"edit\">edit <code>\(name(place))</code></div>" }
            let cost = entry.findings.map(\.cost).reduce(0, +)
            out += "<tr><td class=\"sev \(finding.severity.rawValue)\">\(finding.severity.rawValue)</td>"
            if let word = entry.baselineWord(states) { out += "<td>\(word)</td>" }
            out += "<td><code class=\"rule\">\(h(finding.rule))</code></td>"
            out += "<td>\(text)<div class=\"fix\">Fix: \(prose(entry.fix))</div></td>"
            out += "<td class=\"n\">\(cost > 0 ? kibibytes(cost) : "")</td></tr>"
            emit(out)
        }
        emit("</tbody></table>")
    }

    /// Every load, in log order, after-launch loads marked; sortable by any column.
    static func loadsTable(_ result: AuditResult, _ loads: LoadRecords?) -> String {
        guard let loads else { return "\n<h2>Every load</h2><div class=\"card\">Not recorded in this run.</div>\n" }
        var out = "\n<h2>Every load (\(counted(loads.total, "load")))</h2><div class=\"scroll\"><table id=\"loads\"><thead><tr>"
        out += "<th class=\"n\" aria-sort=\"ascending\">#</th><th class=\"n\">line</th><th>when</th><th>name</th><th>resolved to</th><th>how</th>"
        out += "<th class=\"n\">pixels</th><th class=\"n\">decoded</th><th class=\"n\">on disk</th>"
        // A timed capture's loads show how long each ran (`record --agent`).
        let timed = loads.rows.contains { $0.microseconds != nil }
        out += (timed ? "<th class=\"n\">time</th>" : "") + "</tr></thead><tbody>"
        for (index, row) in loads.rows.enumerated() {
            let image = row.image
            let pixels = image.flatMap { i in i.pixelWidth.flatMap { w in i.pixelHeight.map { (w * $0, dimensions(w, $0)) } } }
            out += row.afterLaunch ? "<tr class=\"after\">" : "<tr>"
            out += "<td class=\"n\" data-v=\"\(index)\">\(index + 1)</td>"
            out += "<td class=\"n\" data-v=\"\(row.log * 1_000_000_000 + row.line)\">\(lineText(LogLine(log: row.log, line: row.line), result))</td>"
            out += "<td>\(row.afterLaunch ? "<span class=\"tag\">after launch</span>" : "launch")</td>"
            out += "<td><code>\(name(row.name))</code></td><td>\(name(image.map(ImageLabel.text) ?? "—"))</td><td class=\"sub\">\(prose(row.how))</td>"
            out += "<td class=\"n\" data-v=\"\(pixels?.0 ?? 0)\">\(pixels?.1 ?? "—")</td>"
            out += "<td class=\"n\" data-v=\"\(image?.decodedBytes ?? 0)\">\(image?.decodedBytes.map(kibibytes) ?? "—")</td>"
            out += "<td class=\"n\" data-v=\"\(image?.bytesOnDisk ?? 0)\">\(image.map { kibibytes($0.bytesOnDisk) } ?? "—")</td>"
            if timed { out += "<td class=\"n\" data-v=\"\(row.microseconds ?? -1)\">\(row.microseconds.map(ImageTime.milliseconds) ?? "—")</td>" }
            out += "</tr>"
        }
        out += "</tbody></table></div>\n"
        if loads.total > loads.rows.count {
            out += "<p class=\"sub\">The first \(loads.rows.count) of \(loads.total) loads; the JSON report lists them all.</p>\n"
        }
        return out + "<p class=\"sub\">Click a column to sort; click again to reverse.</p>\n"
    }

    static func lineText(_ line: LogLine, _ result: AuditResult) -> String {
        result.logs.count > 1 ? "#\(line.log + 1):\(line.line)" : "\(line.line)"
    }

    static func fixed(_ value: Double) -> String { TextReporter.fixed(value, 1) }

    /// One of our sentences, escaped, its quoted parts as `<code>`. A sentence longer than a page
    /// shows whole keeps its two ends, cut as text and read again for its marked names.
    static func prose(_ phrase: Phrase) -> String {
        let text = phrase.text
        guard text.utf8.count > maxShownCharacters else { return html(phrase.parts) }
        return html(Phrase(marked: TextTable.middleShortened(text, width: maxShownCharacters)).parts)
    }

    private static func html(_ parts: [Phrase.Part]) -> String {
        var out = ""
        for part in parts {
            switch part {
            case .words(let words): out += h(words)
            case .code(let shown): out += "<code>" + breakable(Substring(h(shown))) + "</code>"
            }
        }
        return out
    }

    /// A sentence that marks its names with backticks (`SafeText.quoted`), as warnings do.
    static func prose(_ text: String) -> String { prose(Phrase(marked: text)) }

    /// A name or path, escaped, that a browser may break only after `/`, `.`, `_` or `@`: the
    /// page's cells never break inside a word (`overflow-wrap: normal`), and a line break inside
    /// `AppIcon[phone,3x,any]` or `NSMenuArrow` would misquote it.
    static func name(_ text: String) -> String { breakable(Substring(h(text))) }

    /// Escaped text with `<wbr>` after each `/`, `.`, `_` and `@`.
    private static func breakable(_ escaped: Substring) -> String {
        var out = ""
        for character in escaped {
            out.append(character)
            if character == "/" || character == "." || character == "_" || character == "@" { out += "<wbr>" }
        }
        return out
    }

    /// The longest text a page shows whole: a longer one (a hostile name of megabytes, and the
    /// messages quoting it) keeps its two ends around `…`, so the page's work stays bounded (six
    /// 16 MiB names took a minute). The JSON report keeps every name whole.
    static let maxShownCharacters = 4096

    /// HTML text and attribute escaping.
    static func h(_ text: String) -> String {
        let shown = text.utf8.count > maxShownCharacters ? TextTable.middleShortened(text, width: maxShownCharacters) : text
        var out = ""
        for scalar in TextTable.escapeName(shown).unicodeScalars {
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
