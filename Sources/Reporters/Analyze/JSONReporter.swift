import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
import ImgtraceSupport
import LaunchAudit
import LaunchTrace

/// `imgtrace analyze --format json`: `{"schemaVersion":2,"device":{…},"inputs":{…},"metrics":{…},
/// "verdict":{…},"names":[…],"loads":[…],"findings":[…]}`, the contract in the README. The loads
/// come from `ReportInput.loads` (an empty list when the caller kept none).
public struct JSONReporter: AuditReporter {
    public let id = "json"
    public let fileExtension = "json"
    public let consumer = OutputConsumer.json
    public let summary = "The JSON contract: figures, verdict, names, every load with its resolution, findings."
    public let needsLoadRecords = true

    /// Schema 2: a launch is the unit. `metrics.launch` and `metrics.afterLaunch` hold the
    /// median launch's figures with their range (`median`, `min`, `max`) and `launches`; schema
    /// 1 gave one object of figures summed over the logs.
    public static let schemaVersion = 2

    public init() {}

    public func render(_ input: ReportInput<AuditResult>, to sink: ByteSink) {
        let result = input.result
        var w = Self.head(result, budgets: result.budgetBreaches, baseline: input.baseline) { w in
            w.key("metrics")
            Self.writeMetrics(result.metrics, &w)
        }
        // Names and findings grow with the log: they go out in 64 KiB pieces, never held whole.
        w.key("names")
        w.beginArray()
        for use in result.uses {
            Self.writeUse(use, &w)
            if w.byteCount >= 1 << 16 { sink.write(w.takeBytes()) }
        }
        w.endArray()
        w.key("loads")
        var head = w.takeBytes()
        head.append(UInt8(ascii: "["))
        sink.write(head)
        input.loads?.replay(into: sink)
        var tail = JSONText()
        tail.beginArray()
        sink.write(Array("],\"findings\":".utf8))
        for finding in result.findings {
            Self.writeFinding(finding, &tail)
            if tail.byteCount >= 1 << 16 { sink.write(tail.takeBytes()) }
        }
        tail.endArray()
        sink.write(tail.takeBytes())
        sink.write(Array("}\n".utf8))
    }

    public func render(_ input: ReportInput<UnusedResult>, to sink: ByteSink) {
        let result = input.result, unused = result.summary
        var w = Self.head(result, budgets: [], baseline: input.baseline) { _ in }
        // What was searched and every shipped image, in place of names and loads.
        w.key("unused")
        w.beginObject()
        w.field("bytesToSave", unused.bytesToSave)
        w.field("swiftFiles", unused.swiftFiles)
        w.field("objcFiles", unused.objcFiles)
        w.field("dataFiles", unused.dataFiles)
        w.field("references", unused.references)
        w.field("launches", result.logs.count)
        w.endObject()
        UnusedReport.writeImages(unused, &w)
        w.key("findings")
        w.beginArray()
        for finding in result.findings { Self.writeFinding(finding, &w) }
        w.endArray()
        w.endObject()
        sink.write(w.bytes + [0x0A])
    }

    /// The object's fields every command writes, opened and left open: the device, the inputs,
    /// the warnings, the command's `figures`, the verdict with its `budgets`, the baseline's news.
    private static func head(
        _ result: some CommandResult, budgets: [BudgetBreach], baseline: BaselineComparison?, figures: (inout JSONText) -> Void
    ) -> JSONText {
        var w = JSONText()
        w.beginObject()
        w.field("schemaVersion", schemaVersion)
        w.key("device")
        writeDevice(result.device, &w)
        w.field("deviceReason", result.deviceReason)
        writeInputs(result, &w)
        w.objects("warnings", result.warnings) { w, warning in
            w.field("source", warning.origin.label)
            w.field("line", warning.line)
            w.field("message", warning.message)
        }
        figures(&w)
        w.key("verdict")
        w.beginObject()
        w.field("fails", result.fails)
        w.field("failOn", result.failOn?.rawValue ?? "never")
        w.key("findings")
        w.beginObject()
        // One pass over the findings for every severity: a run can hold a million of them.
        let counts = result.severityCounts
        for severity in Severity.allCases { w.field(severity.rawValue, counts[severity] ?? 0) }
        w.endObject()
        w.objects("budgets", budgets) { w, breach in
            w.field("budget", breach.budget)
            w.field("limit", breach.limit)
            w.field("actual", breach.actual)
            w.field("launches", breach.launches)
            w.field("min", breach.lowest)
            w.field("max", breach.highest)
        }
        w.endObject()
        if let baseline {
            w.key("baseline")
            w.beginObject()
            w.field("fails", baseline.fails)
            w.field("newFindings", strings: baseline.newFindings.map(\.fingerprint))
            w.field("fixedFindings", strings: baseline.fixed.map(\.fingerprint))
            w.objects("regressions", baseline.regressions) { w, regression in
                w.field("metric", regression.metric)
                w.field("before", regression.before)
                w.field("after", regression.after)
                w.field("allowed", regression.allowed)
            }
            w.endObject()
        }
        return w
    }

    /// The `inputs` field: the bundles, the source root and each log with its own figures.
    private static func writeInputs(_ result: some CommandResult, _ w: inout JSONText) {
        w.key("inputs")
        w.beginObject()
        w.field("bundles", strings: result.bundleNames)
        w.field("inventoryImages", result.inventoryImages)
        w.field("sourceRoot", result.sourceRoot)
        w.objects("logs", result.logs) { w, log in
            w.field("path", log.path)
            w.field("debugger", log.summary.debugger.rawValue)
            w.field("lines", log.summary.lines)
            w.field("bytes", log.summary.bytes)
            w.field("hits", log.summary.hits)
            writeLaunchEnd(log.summary.launchEnd, &w)
            // Bare lines not taken as names: the app's output, and lines that could be either.
            w.key("setAside")
            w.beginObject()
            w.field("output", log.setAside.output)
            w.field("firstOutputLine", log.setAside.firstOutputLine)
            w.field("unsure", log.setAside.unsureCount)
            w.endObject()
            // One log is one launch: its own figures, no median or range.
            w.key("metrics")
            w.beginObject()
            w.key("launch")
            writePhase(log.metrics.launch, &w)
            w.key("afterLaunch")
            if let after = log.metrics.afterLaunch { writePhase(after, &w) } else { w.null() }
            w.endObject()
            w.field("warnings", strings: log.summary.warnings.map { ($0.line.map { "line \($0): " } ?? "") + $0.message })
        }
        w.endObject()
    }

    /// `"launchEnd": {"line", "source"}`, or null when the whole log is the launch.
    static func writeLaunchEnd(_ end: LaunchEnd?, _ w: inout JSONText) {
        w.key("launchEnd")
        guard let end else { return w.null() }
        w.beginObject()
        w.field("line", end.line)
        w.field("source", end.source.rawValue)
        w.endObject()
    }

    /// A device profile as the contract writes it; `more` adds fields (`imgtrace devices`).
    package static func writeDevice(_ device: DeviceProfile, _ w: inout JSONText, more: (inout JSONText) -> Void = { _ in }) {
        w.beginObject()
        w.field("id", device.id)
        w.field("models", strings: device.models)
        w.field("pointWidth", device.pointWidth)
        w.field("pointHeight", device.pointHeight)
        w.field("scale", device.scale)
        w.field("idiom", device.idiom.name)
        more(&w)
        w.endObject()
    }

    /// `{"launches", "launch": {"launches", "median", "min", "max"}, "afterLaunch": {…}|null}`:
    /// each figure the median launch's (`LaunchMedian`) and the least and most over the launches.
    static func writeMetrics(_ metrics: AuditMetrics, _ w: inout JSONText) {
        w.beginObject()
        w.field("launches", metrics.launches)
        w.key("launch")
        writeSpread(metrics.launchSpread, &w)
        w.key("afterLaunch")
        if let after = metrics.afterLaunchSpread { writeSpread(after, &w) } else { w.null() }
        w.endObject()
    }

    static func writeSpread(_ spread: PhaseSpread, _ w: inout JSONText) {
        w.beginObject()
        w.field("launches", spread.launches)
        w.key("median")
        writePhase(spread.median, &w)
        w.key("min")
        writePhase(spread.range.min, &w)
        w.key("max")
        writePhase(spread.range.max, &w)
        w.endObject()
    }

    static func writePhase(_ m: PhaseMetrics, _ w: inout JSONText) {
        w.beginObject()
        w.field("loads", m.loads)
        w.field("names", m.names)
        w.field("images", m.images)
        w.field("decodedBytes", m.decodedBytes)
        w.field("bytesOnDisk", m.bytesOnDisk)
        w.field("missing", m.missing)
        w.field("repeated", m.repeated)
        w.field("unreadable", m.unreadable)
        w.field("largestImageDecodedBytes", m.largestImageDecodedBytes)
        w.field("systemImages", m.systemImages)
        w.field("systemDecodedBytes", m.systemDecodedBytes)
        w.field("symbols", m.symbols)
        w.field("dataLoads", m.dataLoads)
        // Only timed captures have it: an untimed log's JSON stays as it was.
        if m.time.isTimed {
            w.key("time")
            writeTime(m.time, &w)
        }
        if let main = m.typicalMainThreadImageMicroseconds { w.field("mainThreadImageMicroseconds", main) }
        if let length = m.lengthMilliseconds { w.field("lengthMilliseconds", length) }
        w.endObject()
    }

    static func writeTime(_ time: ImageTime, _ w: inout JSONText) {
        w.beginObject()
        w.field("timedLoads", time.timedLoads)
        w.field("microseconds", time.microseconds)
        w.field("ownMicroseconds", time.ownMicroseconds)
        w.field("mainThreadMicroseconds", time.mainThreadMicroseconds)
        w.field("longestMainThreadMicroseconds", time.longestMainThreadMicroseconds)
        w.field("decodes", time.decodes)
        w.field("decodeMicroseconds", time.decodeMicroseconds)
        w.field("mainThreadDecodeMicroseconds", time.mainThreadDecodeMicroseconds)
        w.field("unattributedDecodes", time.unattributedDecodes)
        w.endObject()
    }

    static func writeUse(_ use: NameUse, _ w: inout JSONText) {
        w.beginObject()
        w.field("name", use.name)
        w.field("status", use.status.rawValue)
        w.field("kind", use.kind.rawValue)
        w.field("apis", strings: use.apis)
        w.field("launchLoads", use.launchLoads)
        w.field("afterLaunchLoads", use.afterLaunchLoads)
        w.field("maxLaunchLoadsPerLog", use.maxLaunchLoadsPerLog)
        if use.launchTime.isTimed {
            w.key("launchTime")
            writeTime(use.launchTime, &w)
            w.key("mainThreadMicrosecondsPerLaunch")
            w.beginArray()
            for microseconds in use.mainThreadMicrosecondsPerLaunch { w.int(microseconds) }
            w.endArray()
            w.field("mainThreadMicroseconds", use.typicalMainThreadMicroseconds)
            w.field("firstRequest", use.includesFirstRequest)
        }
        w.key("firstLine")
        writeLine(use.firstLine, &w)
        w.key("resolved")
        if let image = use.resolution.image {
            CatalogJSONReport.writeImage(image, &w)
        } else {
            w.null()
        }
        w.field("how", use.resolution.how.text)
        w.field("missingCause", use.resolution.cause?.rawValue)
        w.endObject()
    }

    static func writeLine(_ line: LogLine, _ w: inout JSONText) {
        w.beginObject()
        w.field("log", line.log)
        w.field("line", line.line)
        w.endObject()
    }

    /// A place in the source tree as `{"path", "line", "column"}`, or null.
    static func writeLocation(_ key: String, _ location: SourceLocation?, _ w: inout JSONText) {
        w.key(key)
        guard let location else { return w.null() }
        w.beginObject()
        w.field("path", location.path)
        w.field("line", location.position?.line)
        w.field("column", location.position?.column)
        w.endObject()
    }

    static func writeFinding(_ f: Finding, _ w: inout JSONText) {
        w.beginObject()
        w.field("rule", f.rule)
        w.field("severity", f.severity.rawValue)
        w.field("fingerprint", f.fingerprint)
        w.field("message", f.message.text)
        w.field("fix", f.fix)
        w.field("names", strings: f.names)
        w.field("assets", strings: f.assets)
        w.field("paths", strings: f.paths)
        writeLocation("source", f.source, &w)
        writeLocation("code", f.code, &w)
        w.key("lines")
        w.beginArray()
        for line in f.lines { writeLine(line, &w) }
        w.endArray()
        w.key("values")
        w.beginObject()
        w.fields(f.values)
        w.endObject()
        w.field("costBytes", f.cost)
        w.field("occurrences", f.occurrences)
        // Only an image's finding carries these: the facts other rules found about it, and the
        // fingerprints schema-1 baselines knew it by.
        if !f.evidence.isEmpty {
            w.key("evidence")
            w.beginArray()
            for fact in f.evidence {
                w.beginObject()
                w.field("rule", fact.rule)
                w.field("severity", fact.severity.rawValue)
                w.field("claim", fact.claim.text)
                w.field("fix", fact.fix)
                w.endObject()
            }
            w.endArray()
        }
        if !f.formerFingerprints.isEmpty { w.field("formerFingerprints", strings: f.formerFingerprints) }
        // The toolkit's own lookups: reported, never failing.
        if !f.gates { w.field("gates", false) }
        w.endObject()
    }
}
