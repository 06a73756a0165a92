import LaunchAudit

/// `imgtrace analyze --format gitlab`: a GitLab Code Quality report (`artifacts: reports: codequality`).
public enum AnalyzeGitLabReport {
    public static func render(_ result: AuditResult, bundlePath: String, logPaths: [String]) -> [UInt8] {
        var w = JSONText()
        w.beginArray()
        var used = Set<String>()
        for finding in result.findings {
            // GitLab shows only the first of findings that share a fingerprint: keep them unique.
            var fingerprint = finding.fingerprint
            var n = 1
            while !used.insert(fingerprint).inserted {
                n += 1
                fingerprint = "\(finding.fingerprint)-\(n)"
            }
            let location = FindingLocation(finding, bundlePath: bundlePath, logPaths: logPaths)
            w.beginObject()
            w.field("description", finding.message + " — fix: " + finding.fix)
            w.field("check_name", finding.rule)
            w.field("fingerprint", fingerprint)
            w.field("severity", severity(finding.severity))
            w.key("location")
            w.beginObject()
            w.field("path", location.path)
            w.key("lines")
            w.beginObject()
            w.field("begin", location.line ?? 1)
            w.endObject()
            w.endObject()
            w.endObject()
        }
        w.endArray()
        var bytes = w.bytes
        bytes.append(0x0A)
        return bytes
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "critical"
        case .warning: return "major"
        case .note: return "info"
        }
    }
}
