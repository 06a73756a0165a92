import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format junit`: one test suite per rule, one test case per finding (a
/// `failure` when it fails the policy, passing with its text otherwise), a passing case for a
/// rule without findings. Jenkins, GitLab, Bitrise and CircleCI read it.
public struct JUnitReporter: AuditReporter {
    public let id = "junit"
    public let fileExtension = "xml"
    public let consumer = OutputConsumer.xml
    public let summary = "JUnit XML: a test suite per rule, a test case per finding (Jenkins, GitLab, Bitrise, CircleCI)."

    public init() {}

    public func render(_ input: ReportInput, to sink: ByteSink) {
        sink.write(Self.document(input.result, bundlePath: input.bundlePath, logPaths: input.logPaths))
    }

    static func document(_ result: AuditResult, bundlePath: String, logPaths: [String]) -> String {
        let failing = Set(result.failingFindings.map(\.fingerprint))
        var suites = ""
        var total = 0, failures = 0
        for rule in Rules.all {
            let findings = result.findings.filter { $0.rule == rule.id }
            let cases = max(findings.count, 1)
            let failed = findings.filter { failing.contains($0.fingerprint) }.count
            total += cases
            failures += failed
            suites += "  <testsuite name=\"\(xmlEscaped(rule.id))\" tests=\"\(cases)\" failures=\"\(failed)\" errors=\"0\" skipped=\"0\">\n"
            if findings.isEmpty {
                suites += "    <testcase classname=\"imgtrace.\(xmlEscaped(rule.id))\" name=\"no findings\"/>\n"
            }
            for finding in findings {
                let location = FindingLocation(finding, bundlePath: bundlePath, logPaths: logPaths, sourceRoot: result.sourceRoot)
                let name = location.path + (location.line.map { ":\($0)" } ?? "")
                suites += "    <testcase classname=\"imgtrace.\(xmlEscaped(rule.id))\" name=\"\(xmlEscaped(name)) (\(finding.fingerprint))\">\n"
                if failing.contains(finding.fingerprint) {
                    suites += "      <failure type=\"\(finding.severity.rawValue)\" message=\"\(xmlEscaped(finding.message))\">\(xmlEscaped("fix: " + finding.fix))</failure>\n"
                } else {
                    suites += "      <system-out>\(xmlEscaped("\(finding.severity.rawValue): \(finding.message) — fix: \(finding.fix)"))</system-out>\n"
                }
                suites += "    </testcase>\n"
            }
            suites += "  </testsuite>\n"
        }
        if !result.warnings.isEmpty {
            // Not tests: what reading the inputs met, where JUnit readers show a suite's output.
            suites += "  <testsuite name=\"imgtrace.input-warnings\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"
            suites += "    <system-err>\(xmlEscaped(result.warnings.map(\.text).joined(separator: "\n")))</system-err>\n  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"imgtrace launch audit\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"0\">\n"
            + suites + "</testsuites>\n"
    }
}
