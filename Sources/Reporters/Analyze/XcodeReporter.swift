import AuditModel
import ImgtraceSupport
import LaunchAudit

/// `imgtrace analyze --format xcode`: the lines Xcode turns into Issue navigator entries when a
/// Run Script build phase prints them — `/absolute/path:LINE:COLUMN: error|warning|note: message
/// [rule-id]`, one per finding, most severe first — then one summary line. Xcode needs absolute
/// paths, so relative inputs are made absolute against the working directory.
public struct XcodeReporter: FindingsReporter {
    public let id = "xcode"
    public let fileExtension = "txt"
    public let consumer = OutputConsumer.terminal
    public let summary = "Xcode build-log lines (path:line:column: severity: message), for a Run Script phase."

    public init() {}

    public func renderFindings<Result: CommandResult>(_ input: ReportInput<Result>, to sink: ByteSink) {
        let result = input.result
        for finding in result.findings {
            let location = FindingLocation(finding, bundlePath: input.bundlePath, logPaths: input.logPaths, sourceRoot: result.sourceRoot)
            let path = Self.oneLine(Self.absolute(location.path, in: input.workingDirectory))
            sink.write(
                "\(path):\(max(1, location.line ?? 1)):\(max(1, location.column ?? 1)): \(finding.severity.rawValue): \(Self.oneLine(finding.message.text)) [\(finding.rule)]\n")
        }
        sink.write(VerdictLine.text(result) + "\n")
    }

    /// `path` made absolute against `directory`, with `./` steps removed.
    static func absolute(_ path: String, in directory: String) -> String {
        let joined = path.hasPrefix("/") ? path : (directory.hasSuffix("/") ? directory : directory + "/") + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) where part != "." { parts.append(part) }
        return "/" + parts.joined(separator: "/")
    }

    /// A message or path on one line that reads as no issue of its own: Xcode reads one issue
    /// per line, so every line break a name may hold (LF, CR, CR LF, NEL, U+2028/2029) is shown
    /// escaped, and a colon after a digit too (`a.png:1:1: error: x` in a name would otherwise
    /// be a second `path:line:column:` for a parser whose path is greedy).
    static func oneLine(_ text: String) -> String {
        var out = ""
        var afterDigit = false
        for character in SafeText.visible(text) {
            if character == ":" && afterDigit { out += SafeText.escaped(0x3A) } else { out.append(character) }
            afterDigit = character.isASCII && character.isNumber
        }
        return out
    }
}

/// One line that says how an audit went: `imgtrace: 3 errors, 10 warnings, 11 notes — FAIL`.
public enum VerdictLine {
    public static func text<Result: CommandResult>(_ result: Result, failing: Bool? = nil) -> String {
        let counts = result.severityCounts
        let parts = [Severity.error, .warning, .note].map { severity -> String in
            let n = counts[severity] ?? 0
            return counted(n, severity.rawValue)
        }
        let fails = failing ?? result.fails
        let verdict = result.failOn == nil ? "never fails on findings" : (fails ? "FAIL" : "PASS")
        return "imgtrace: \(parts.joined(separator: ", ")) — \(verdict)"
    }
}
