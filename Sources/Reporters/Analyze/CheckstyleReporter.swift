import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format checkstyle`: `checkstyle/file[@name]/error[@line,@severity,@message,@source]`,
/// for Jenkins warnings-ng and Danger. Files sorted by name, errors in report order.
public struct CheckstyleReporter: AuditReporter {
    public let id = "checkstyle"
    public let fileExtension = "xml"
    public let consumer = OutputConsumer.xml
    public let summary = "Checkstyle XML for Jenkins warnings-ng and Danger."

    public init() {}

    public func render(_ input: ReportInput, to sink: ByteSink) {
        sink.write(Self.document(input.result, bundlePath: input.bundlePath, logPaths: input.logPaths))
    }

    static func document(_ result: AuditResult, bundlePath: String, logPaths: [String]) -> String {
        var byFile: [String: [(severity: String, line: Int?, column: Int?, message: String, source: String)]] = [:]
        for finding in result.findings {
            let location = FindingLocation(finding, bundlePath: bundlePath, logPaths: logPaths, sourceRoot: result.sourceRoot)
            byFile[location.path, default: []].append(
                (
                    finding.severity == .note ? "info" : finding.severity.rawValue, location.line, location.column,
                    finding.message + " — fix: " + finding.fix, "imgtrace." + finding.rule
                ))
        }
        for warning in result.warnings {
            byFile[warning.source == "bundle" ? bundlePath : warning.source, default: []]
                .append(("warning", warning.line, nil, warning.message, "imgtrace.input"))
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        for path in byFile.keys.sorted() {
            out += "  <file name=\"\(xmlEscaped(path))\">\n"
            for entry in byFile[path]! {
                let column = entry.column.map { " column=\"\($0)\"" } ?? ""
                out +=
                    "    <error line=\"\(entry.line ?? 1)\"\(column) severity=\"\(entry.severity)\" message=\"\(xmlEscaped(entry.message))\" source=\"\(xmlEscaped(entry.source))\"/>\n"
            }
            out += "  </file>\n"
        }
        return out + "</checkstyle>\n"
    }
}
