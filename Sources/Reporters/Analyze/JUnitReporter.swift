import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format junit`: one test suite per rule, one test case per finding (a
/// `failure` when it fails the policy, passing with its text otherwise), a passing case for a
/// rule without findings. Jenkins, GitLab, Bitrise and CircleCI read it.
public struct JUnitReporter: FindingsReporter {
    public let id = "junit"
    public let fileExtension = "xml"
    public let consumer = OutputConsumer.xml
    public let summary = "JUnit XML: a test suite per rule, a test case per finding (Jenkins, GitLab, Bitrise, CircleCI)."

    public init() {}

    public func renderFindings<Result: CommandResult>(_ input: ReportInput<Result>, to sink: ByteSink) {
        Self.write(input.result, baseline: input.baseline, bundlePath: input.bundlePath, logPaths: input.logPaths) { sink.write($0) }
    }

    /// The document in pieces: the totals come from the findings' ranks, then each suite's cases
    /// are written as they are made, so a million findings are never held as text. Against a
    /// baseline, a failure is what fails the run: an accepted finding passes and says so.
    static func write<Result: CommandResult>(
        _ result: Result, baseline: BaselineComparison? = nil, bundlePath: BundleRoots, logPaths: [String], emit: (String) -> Void
    ) {
        let states = FindingStates(result, baseline: baseline)
        let findings = result.findings
        var perRule: [String: (cases: Int, failed: Int)] = [:]
        for index in findings.indices {
            let rule = findings.rule(at: index)
            perRule[rule, default: (0, 0)].cases += 1
            if states.fails(index) { perRule[rule, default: (0, 0)].failed += 1 }
        }
        let total = result.reportedRules.reduce(0) { $0 + max(perRule[$1.id]?.cases ?? 0, 1) }
        let failures = result.reportedRules.reduce(0) { $0 + (perRule[$1.id]?.failed ?? 0) }
        emit("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"\(result.reportTitle)\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"0\">\n")
        for rule in result.reportedRules {
            let counts = perRule[rule.id] ?? (0, 0)
            var suite = "  <testsuite name=\"\(xmlEscaped(rule.id))\" tests=\"\(max(counts.cases, 1))\" failures=\"\(counts.failed)\" errors=\"0\" skipped=\"0\">\n"
            if counts.cases == 0 {
                suite += "    <testcase classname=\"imgtrace.\(xmlEscaped(rule.id))\" name=\"no findings\"/>\n"
            }
            for index in findings.indices where counts.cases > 0 && findings.rule(at: index) == rule.id {
                let finding = findings[index]
                let location = FindingLocation(finding, bundlePath: bundlePath, logPaths: logPaths, sourceRoot: result.sourceRoot)
                let name = location.path + (location.line.map { ":\($0)" } ?? "")
                suite += "    <testcase classname=\"imgtrace.\(xmlEscaped(rule.id))\" name=\"\(xmlEscaped(name)) (\(finding.fingerprint))\">\n"
                if states.fails(index) {
                    suite +=
                        "      <failure type=\"\(finding.severity.rawValue)\" message=\"\(xmlEscaped(finding.message.text))\">\(xmlEscaped(FindingText.fixOnly(finding)))</failure>\n"
                } else {
                    let accepted = states.isAccepted(index) ? "accepted by the baseline: " : ""
                    suite += "      <system-out>\(xmlEscaped(accepted + finding.severity.rawValue + ": " + FindingText.withFix(finding)))</system-out>\n"
                }
                suite += "    </testcase>\n"
                if suite.utf8.count >= 1 << 16 {
                    emit(suite)
                    suite = ""
                }
            }
            emit(suite + "  </testsuite>\n")
        }
        if Result.baselineScope == .launch {
            // Not tests: the launch's figures, the median launch's with their range, as properties.
            var figures = "  <testsuite name=\"imgtrace.launch-figures\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n    <properties>\n"
            figures += "      <property name=\"launches\" value=\"\(result.launchFigures.launches)\"/>\n"
            for figure in LaunchFigureText.keyedFigures(result.launchFigures) {
                figures += "      <property name=\"launch.\(figure.key)\" value=\"\(figure.median)\"/>\n"
                figures += "      <property name=\"launch.\(figure.key).min\" value=\"\(figure.min)\"/>\n"
                figures += "      <property name=\"launch.\(figure.key).max\" value=\"\(figure.max)\"/>\n"
            }
            emit(figures + "    </properties>\n  </testsuite>\n")
        }
        if !result.warnings.isEmpty {
            // Not tests: what reading the inputs met, where JUnit readers show a suite's output.
            var warnings = "  <testsuite name=\"imgtrace.input-warnings\" tests=\"0\" failures=\"0\" errors=\"0\" skipped=\"0\">\n"
            warnings += "    <system-err>\(xmlEscaped(result.warnings.map(\.text).joined(separator: "\n")))</system-err>\n  </testsuite>\n"
            emit(warnings)
        }
        emit("</testsuites>\n")
    }
}
