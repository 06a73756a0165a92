import AuditModel
import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format github`: GitHub Actions workflow commands. GitHub shows only 10
/// annotations of each type per step, so the most severe and costliest come first and the rest
/// are counted in one notice (the job summary and SARIF have them all); so are the toolkit's
/// own lookups, which ask nothing of the app.
public struct GitHubReporter: FindingsReporter {
    public let id = "github"
    public let fileExtension = "txt"
    public let consumer = OutputConsumer.githubCommands
    public let summary = "GitHub Actions annotations (workflow commands)."

    public init() {}

    /// Each workflow command is written as trusted (its values are escaped here); anything else
    /// passes the runner guard like every other format.
    public func renderFindings<Result: CommandResult>(_ input: ReportInput<Result>, to sink: ByteSink) {
        let document = Self.document(input.result, baseline: input.baseline, bundlePath: input.bundlePath, logPaths: input.logPaths)
        for line in document.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
            let text = String(decoding: line, as: UTF8.self) + "\n"
            if line.starts(with: "::".utf8) { sink.writeTrusted(text) } else { sink.write(text) }
        }
    }

    public static let annotationsPerType = 10

    /// Against a baseline, what it accepts is not annotated (one notice counts it): the
    /// annotations are what this change did, and a new one is never hidden behind old ones.
    static func document<Result: CommandResult>(_ result: Result, baseline: BaselineComparison? = nil, bundlePath: BundleRoots, logPaths: [String]) -> String {
        let states = FindingStates(result, baseline: baseline)
        var accepted = 0, toolkit = 0
        var out = ""
        var shown: [String: Int] = [:]
        var hidden: [String: Int] = [:]
        var inputWarningsShown = false
        // What reading the inputs met comes after the errors and before the warning findings:
        // it may explain them.
        func showInputWarnings() {
            guard !inputWarningsShown else { return }
            inputWarningsShown = true
            for warning in result.warnings {
                guard shown["warning", default: 0] < annotationsPerType else {
                    hidden["warning", default: 0] += 1
                    continue
                }
                shown["warning", default: 0] += 1
                var properties = "file=\(property(warning.origin.file(bundlePath: bundlePath.primary)))"
                if let line = warning.line { properties += ",line=\(line)" }
                out += "::warning \(properties),title=imgtrace input::\(message(warning.message))\n"
            }
        }
        for (index, finding) in result.findings.enumerated() {
            if states.isAccepted(index) {
                accepted += 1
                continue
            }
            // The toolkit's own lookups ask nothing of the app: one count, not annotations that
            // would take the app's notes' places under GitHub's limit.
            if !finding.gates {
                toolkit += 1
                continue
            }
            if finding.severity != .error { showInputWarnings() }
            let command = self.command(finding.severity)
            guard shown[command, default: 0] < annotationsPerType else {
                hidden[command, default: 0] += 1
                continue
            }
            shown[command, default: 0] += 1
            let location = FindingLocation(finding, bundlePath: bundlePath, logPaths: logPaths, sourceRoot: result.sourceRoot)
            var properties = "file=\(property(location.path))"
            if let line = location.line { properties += ",line=\(line)" }
            if let column = location.column { properties += ",col=\(column)" }
            properties += ",title=\(property("imgtrace \(finding.rule)"))"
            out += "::\(command) \(properties)::\(message(FindingText.withFix(finding)))\n"
        }
        showInputWarnings()
        out += countedNotices(accepted: accepted, toolkit: toolkit, hidden: hidden)
        let verdict = Verdict(result, baseline: baseline)
        out += "imgtrace: \(verdict.word): \(verdict.countsText)" + (verdict.acceptedText.map { " (\($0))" } ?? "") + "\n"
        return out
    }

    /// One notice each for what is not annotated: findings the baseline accepts, the toolkit's
    /// own lookups, and what GitHub's per-type limit leaves out.
    private static func countedNotices(accepted: Int, toolkit: Int, hidden: [String: Int]) -> String {
        var out = ""
        if accepted > 0 {
            out +=
                "::notice title=imgtrace baseline::"
                + message("\(counted(accepted, "finding")) the baseline accepts \(accepted == 1 ? "is" : "are") not annotated; see the job summary") + "\n"
        }
        if toolkit > 0 {
            let sentence = "\(counted(toolkit, "note")) on the toolkit's own lookups \(toolkit == 1 ? "is" : "are") not annotated (nothing to change in the app)"
            out += "::notice title=imgtrace toolkit::" + message(sentence + "; see the job summary") + "\n"
        }
        for command in ["error", "warning", "notice"] where hidden[command, default: 0] > 0 {
            out +=
                "::notice title=imgtrace::"
                + message(
                    "\(counted(hidden[command]!, "more \(command) finding")) \(hidden[command]! == 1 ? "is" : "are") not annotated "
                        + "(GitHub shows \(annotationsPerType) per type per step); see the job summary or the SARIF report") + "\n"
        }
        return out
    }

    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }

    /// Message escaping of workflow commands: `%`, CR and LF as the runner decodes them (by
    /// Unicode scalar: `"\r\n"` is one `Character`), every other control, separator or bidi
    /// character as a visible escape, and the `#` of `##[` (the legacy command parser).
    static func message(_ text: String) -> String { escaped(text, property: false) }

    /// Property values also escape `:` and `,`.
    static func property(_ text: String) -> String { escaped(text, property: true) }

    private static func escaped(_ text: String, property: Bool) -> String {
        var out = ""
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case ":" where property: out += "%3A"
            case "," where property: out += "%2C"
            case "#" where previous == "#":
                out += SafeText.escaped(0x23)
            default:
                if SafeText.needsEscape(scalar) { out += SafeText.escaped(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
            previous = scalar
        }
        return out
    }
}
