import AuditModel
import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format checkstyle`: `checkstyle/file[@name]/error[@line,@severity,@message,@source]`,
/// for Jenkins warnings-ng and Danger. Files sorted by name, errors in report order.
public struct CheckstyleReporter: FindingsReporter {
    public let id = "checkstyle"
    public let fileExtension = "xml"
    public let consumer = OutputConsumer.xml
    public let summary = "Checkstyle XML for Jenkins warnings-ng and Danger."

    public init() {}

    public func renderFindings<Result: CommandResult>(_ input: ReportInput<Result>, to sink: ByteSink) {
        Self.write(input.result, baseline: input.baseline, bundlePath: input.bundlePath, logPaths: input.logPaths) { sink.write($0) }
    }

    /// The document in pieces: findings are grouped by file as positions, each built again when
    /// its line is written, so a million findings are never held as text. A finding the baseline
    /// accepts is `info`, and says so.
    static func write<Result: CommandResult>(
        _ result: Result, baseline: BaselineComparison? = nil, bundlePath: BundleRoots, logPaths: [String], emit: (String) -> Void
    ) {
        let states = FindingStates(result, baseline: baseline)
        let findings = result.findings
        func location(_ finding: Finding) -> FindingLocation {
            FindingLocation(finding, bundlePath: bundlePath, logPaths: logPaths, sourceRoot: result.sourceRoot)
        }
        // Per file, the positions of its findings (>= 0) and of the input warnings about it (< 0).
        var byFile: [String: [Int]] = [:]
        for index in findings.indices { byFile[location(findings[index]).path, default: []].append(index) }
        for (index, warning) in result.warnings.enumerated() {
            byFile[warning.origin.file(bundlePath: bundlePath.primary), default: []].append(-1 - index)
        }
        emit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n")
        for path in byFile.keys.sorted() {
            var out = "  <file name=\"\(xmlEscaped(path))\">\n"
            for position in byFile[path]! {
                let severity: String, line: Int?, column: Int?, message: String, source: String
                if position >= 0 {
                    let finding = findings[position]
                    let place = location(finding)
                    let accepted = states.isAccepted(position)
                    (severity, line, column) = (finding.severity == .note || accepted ? "info" : finding.severity.rawValue, place.line, place.column)
                    (message, source) = ((accepted ? "accepted by the baseline: " : "") + FindingText.withFix(finding), "imgtrace." + finding.rule)
                } else {
                    let warning = result.warnings[-1 - position]
                    (severity, line, column, message, source) = ("warning", warning.line, nil, warning.message, "imgtrace.input")
                }
                let columnText = column.map { " column=\"\($0)\"" } ?? ""
                out +=
                    "    <error line=\"\(line ?? 1)\"\(columnText) severity=\"\(severity)\" message=\"\(xmlEscaped(message))\" source=\"\(xmlEscaped(source))\"/>\n"
                if out.utf8.count >= 1 << 16 {
                    emit(out)
                    out = ""
                }
            }
            emit(out + "  </file>\n")
        }
        emit("</checkstyle>\n")
    }
}
