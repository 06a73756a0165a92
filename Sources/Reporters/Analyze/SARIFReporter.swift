import AuditModel
import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format sarif`: SARIF 2.1.0 for code scanning (GitHub, Azure DevOps, IDEs).
///
/// One run; every rule in `tool.driver.rules` with stable ids; one result per finding with its
/// place in the source tree first when a source root was given (relative to the `SRCROOT` base
/// in `originalUriBaseIds`), then the asset (its path inside the bundle as given on the command
/// line, so it is relative when the bundle path is), then the first log line; the fingerprint in
/// `partialFingerprints`, the measured values in `properties`.
public struct SARIFReporter: FindingsReporter {
    public let id = "sarif"
    public let fileExtension = "sarif"
    public let consumer = OutputConsumer.json
    public let summary = "SARIF 2.1.0 for GitHub code scanning and other static-analysis viewers."

    public init() {}

    public func renderFindings<Result: CommandResult>(_ input: ReportInput<Result>, to sink: ByteSink) {
        Self.write(
            input.result, baseline: input.baseline, bundlePath: input.bundlePath, logPaths: input.logPaths, version: input.toolVersion,
            workingDirectory: input.workingDirectory, to: sink)
    }

    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    /// `bundlePath` and `logPaths` are the inputs as given, used to build location URIs.
    /// The `originalUriBaseIds` key source locations are relative to.
    static let sourceRootBase = "SRCROOT"

    /// Written in 64 KiB pieces as the results are made: a run of a million findings is never held
    /// as text. Against a baseline every result has its `baselineState` (`new`, `unchanged`,
    /// `updated` for a worse figure), and each finding the baseline had that is gone is a result
    /// of kind `pass`, `absent`.
    static func write(
        _ result: some CommandResult, baseline: BaselineComparison? = nil, bundlePath: BundleRoots, logPaths: [String], version: String,
        workingDirectory: String = "/", to sink: ByteSink
    ) {
        var w = JSONText()
        w.beginObject()
        w.field("$schema", schema)
        w.field("version", "2.1.0")
        w.key("runs")
        w.beginArray()
        w.beginObject()
        writeTool(result, version: version, &w)
        if let root = result.sourceRoot {
            // SARIF wants an absolute URI here; relative source locations then resolve against it.
            w.key("originalUriBaseIds")
            w.beginObject()
            w.key(sourceRootBase)
            w.beginObject()
            var absolute = XcodeReporter.absolute(root, in: workingDirectory)
            if !absolute.hasSuffix("/") { absolute += "/" }
            w.field("uri", "file://" + uriEscaped(absolute))
            w.endObject()
            w.endObject()
        }
        writeInvocations(result, bundlePath: bundlePath, &w)
        if type(of: result).baselineScope == .launch {
            // The launch's figures beside the results: the median launch's, with their range.
            w.key("properties")
            w.beginObject()
            w.key("launch")
            JSONReporter.writeSpread(result.launchFigures, &w)
            w.endObject()
        }
        w.key("results")
        w.beginArray()
        let ruleIndex = Dictionary(uniqueKeysWithValues: result.reportedRules.enumerated().map { ($1.id, $0) })
        let states = FindingStates(result, baseline: baseline)
        for (index, finding) in result.findings.enumerated() {
            writeResult(finding, of: result, state: states.state(index), ruleIndex: ruleIndex, bundlePath: bundlePath, logPaths: logPaths, &w)
            if w.byteCount >= 1 << 16 { sink.write(w.takeBytes()) }
        }
        for entry in baseline?.fixed ?? [] {
            writeAbsent(entry, ruleIndex: ruleIndex, bundlePath: bundlePath, &w)
            if w.byteCount >= 1 << 16 { sink.write(w.takeBytes()) }
        }
        w.endArray()
        w.endObject()
        w.endArray()
        w.endObject()
        var bytes = w.takeBytes()
        bytes.append(0x0A)
        sink.write(bytes)
    }

    /// The `tool` object: imgtrace and every rule this kind of result reports.
    private static func writeTool(_ result: some CommandResult, version: String, _ w: inout JSONText) {
        w.key("tool")
        w.beginObject()
        w.key("driver")
        w.beginObject()
        w.field("name", "imgtrace")
        w.field("version", version)
        w.objects("rules", result.reportedRules) { w, rule in
            w.field("id", rule.id)
            w.key("shortDescription")
            w.beginObject()
            w.field("text", rule.summary)
            w.endObject()
            w.key("fullDescription")
            w.beginObject()
            w.field("text", "\(rule.summary) Parameters: \(rule.parameters).")
            w.endObject()
            w.key("defaultConfiguration")
            w.beginObject()
            w.field("level", rule.defaultSeverity.rawValue)
            w.endObject()
        }
        w.endObject()
        w.endObject()
    }

    /// The run's one invocation, the input warnings as its notifications.
    private static func writeInvocations(_ result: some CommandResult, bundlePath: BundleRoots, _ w: inout JSONText) {
        // Input warnings are notifications of the run, not results: SARIF's place for what the
        // tool met while reading (a file it could not read, a link it did not follow).
        w.key("invocations")
        w.beginArray()
        w.beginObject()
        w.field("executionSuccessful", true)
        w.objects("toolExecutionNotifications", result.warnings) { w, warning in
            w.field("level", "warning")
            w.key("message")
            w.beginObject()
            w.field("text", warning.message)
            w.endObject()
            w.key("locations")
            w.beginArray()
            location(uri: warning.origin.file(bundlePath: bundlePath.primary), line: warning.line, &w)
            w.endArray()
        }
        w.endObject()
        w.endArray()
    }

    /// One finding as a SARIF result: its rule, level, message with the fix, locations (the code,
    /// the asset in the source tree, the bundle, the log line), fingerprint and figures.
    private static func writeResult(
        _ finding: Finding, of result: some CommandResult, state: BaselineComparison.State?, ruleIndex: [String: Int], bundlePath: BundleRoots,
        logPaths: [String], _ w: inout JSONText
    ) {
        w.beginObject()
        w.field("ruleId", finding.rule)
        w.field("ruleIndex", ruleIndex[finding.rule])
        w.field("level", finding.severity.rawValue)
        if let state { w.field("baselineState", state.rawValue) }
        w.key("message")
        w.beginObject()
        w.field("text", FindingText.withFix(finding))
        w.endObject()
        w.key("locations")
        w.beginArray()
        if let code = finding.code, result.sourceRoot != nil {
            location(uri: code.path, base: sourceRootBase, line: code.position?.line, column: code.position?.column, &w)
        }
        if let source = finding.source, result.sourceRoot != nil {
            location(uri: source.path, base: sourceRootBase, line: source.position?.line, column: source.position?.column, &w)
        }
        if let path = finding.paths.first {
            location(uri: bundlePath.file(of: path), line: nil, &w)
        }
        if let line = finding.lines.first, line.log < logPaths.count {
            location(uri: logPaths[line.log], line: line.line, &w)
        }
        if finding.paths.isEmpty && finding.lines.isEmpty { location(uri: bundlePath.primary, line: nil, &w) }
        w.endArray()
        w.key("partialFingerprints")
        w.beginObject()
        w.field("imgtraceFingerprint/v1", finding.fingerprint)
        w.endObject()
        w.key("properties")
        w.beginObject()
        w.field("device", result.device.id)
        w.field("names", strings: finding.names)
        w.field("assets", strings: finding.assets)
        w.fields(finding.values)
        w.field("costBytes", finding.cost)
        w.field("occurrences", finding.occurrences)
        w.endObject()
        w.endObject()
    }

    /// A finding of the baseline that is gone: fixed by this change.
    private static func writeAbsent(_ entry: Baseline.Entry, ruleIndex: [String: Int], bundlePath: BundleRoots, _ w: inout JSONText) {
        w.beginObject()
        w.field("ruleId", entry.rule)
        w.field("ruleIndex", ruleIndex[entry.rule])
        w.field("kind", "pass")
        w.field("level", "none")
        w.field("baselineState", BaselineComparison.State.absent.rawValue)
        w.key("message")
        w.beginObject()
        w.field("text", "fixed: " + entry.message)
        w.endObject()
        w.key("locations")
        w.beginArray()
        location(uri: bundlePath.primary, line: nil, &w)
        w.endArray()
        w.key("partialFingerprints")
        w.beginObject()
        w.field("imgtraceFingerprint/v1", entry.fingerprint)
        w.endObject()
        w.endObject()
    }

    private static func location(uri: String, base: String? = nil, line: Int?, column: Int? = nil, _ w: inout JSONText) {
        w.beginObject()
        w.key("physicalLocation")
        w.beginObject()
        w.key("artifactLocation")
        w.beginObject()
        w.field("uri", uriEscaped(uri))
        if let base { w.field("uriBaseId", base) }
        w.endObject()
        if let line {
            w.key("region")
            w.beginObject()
            w.field("startLine", line)
            if let column { w.field("startColumn", column) }
            w.endObject()
        }
        w.endObject()
        w.endObject()
    }

    /// Percent-encodes what a URI reference cannot hold (spaces, `#`, `%`, non-ASCII), keeping `/`.
    static func uriEscaped(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            let c = Character(UnicodeScalar(byte))
            if byte < 0x80, c.isLetter || c.isNumber || "-._~/!$&'()*+,;=:@".contains(c) {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
            }
        }
        return out
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
