import AuditModel
import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format gitlab`: a GitLab Code Quality report (`artifacts: reports: codequality`).
public struct GitLabReporter: FindingsReporter {
    public let id = "gitlab"
    public let fileExtension = "json"
    public let consumer = OutputConsumer.json
    public let summary = "A GitLab Code Quality report."

    public init() {}

    public func renderFindings<Result: CommandResult>(_ input: ReportInput<Result>, to sink: ByteSink) {
        Self.write(input.result, baseline: input.baseline, bundlePath: input.bundlePath, logPaths: input.logPaths, to: sink)
    }

    /// Written in 64 KiB pieces as the issues are made. A finding the baseline accepts is `info`:
    /// the merge request's widget then ranks what this change did above what it inherited.
    static func write<Result: CommandResult>(
        _ result: Result, baseline: BaselineComparison? = nil, bundlePath: BundleRoots, logPaths: [String], to sink: ByteSink
    ) {
        let states = FindingStates(result, baseline: baseline)
        var w = JSONText()
        w.beginArray()
        var used = Set<String>()
        for (index, finding) in result.findings.enumerated() {
            // GitLab shows only the first of findings that share a fingerprint: keep them unique.
            var fingerprint = finding.fingerprint
            var n = 1
            while !used.insert(fingerprint).inserted {
                n += 1
                fingerprint = "\(finding.fingerprint)-\(n)"
            }
            let location = FindingLocation(finding, bundlePath: bundlePath, logPaths: logPaths, sourceRoot: result.sourceRoot)
            w.beginObject()
            w.field("description", FindingText.withFix(finding))
            w.field("check_name", finding.rule)
            w.field("fingerprint", fingerprint)
            w.field("severity", states.isAccepted(index) ? "info" : severity(finding.severity))
            w.key("location")
            w.beginObject()
            w.field("path", location.path)
            w.key("lines")
            w.beginObject()
            w.field("begin", location.line ?? 1)
            w.endObject()
            w.endObject()
            w.endObject()
            if w.byteCount >= 1 << 16 { sink.write(w.takeBytes()) }
        }
        // Input warnings as informational issues on the file they are about.
        for warning in result.warnings {
            var fingerprint = Finding.fingerprint(rule: "imgtrace-input-warning", identity: warning.text, device: "")
            while !used.insert(fingerprint).inserted { fingerprint += "+" }
            w.beginObject()
            w.field("description", "input warning: " + warning.message)
            w.field("check_name", "imgtrace-input-warning")
            w.field("fingerprint", fingerprint)
            w.field("severity", "info")
            w.key("location")
            w.beginObject()
            w.field("path", warning.origin.file(bundlePath: bundlePath.primary))
            w.key("lines")
            w.beginObject()
            w.field("begin", warning.line ?? 1)
            w.endObject()
            w.endObject()
            w.endObject()
        }
        w.endArray()
        var bytes = w.takeBytes()
        bytes.append(0x0A)
        sink.write(bytes)
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: return "critical"
        case .warning: return "major"
        case .note: return "info"
        }
    }
}
