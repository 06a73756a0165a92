import LaunchAudit

/// `imgtrace analyze --format checkstyle`: `checkstyle/file[@name]/error[@line,@severity,@message,@source]`,
/// for Jenkins warnings-ng and Danger. Files sorted by name, errors in report order.
public enum AnalyzeCheckstyleReport {
    public static func render(_ result: AuditResult, bundlePath: String, logPaths: [String]) -> String {
        var byFile: [String: [(Finding, Int?)]] = [:]
        for finding in result.findings {
            let location = FindingLocation(finding, bundlePath: bundlePath, logPaths: logPaths)
            byFile[location.path, default: []].append((finding, location.line))
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<checkstyle version=\"4.3\">\n"
        for path in byFile.keys.sorted() {
            out += "  <file name=\"\(xmlEscaped(path))\">\n"
            for (finding, line) in byFile[path]! {
                let severity = finding.severity == .note ? "info" : finding.severity.rawValue
                out += "    <error line=\"\(line ?? 1)\" severity=\"\(severity)\" message=\"\(xmlEscaped(finding.message + " — fix: " + finding.fix))\" source=\"imgtrace.\(xmlEscaped(finding.rule))\"/>\n"
            }
            out += "  </file>\n"
        }
        return out + "</checkstyle>\n"
    }
}
