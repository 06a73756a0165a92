import ImgtraceSupport
import LaunchAudit

/// Everything a report of either command can be made from: `ReportInput<AuditResult>` for
/// `analyze`, `ReportInput<UnusedResult>` for `unused`. Each format takes what it needs.
public struct ReportInput<Result: CommandResult> {
    /// The command's result.
    public var result: Result
    /// The audit measured against a baseline, when one was given.
    public var baseline: BaselineComparison?
    /// The bundles the result was read from, as given: locations of bundle findings start here.
    public var bundlePath: BundleRoots { BundleRoots(result.bundlePaths) }
    /// The logs the result was read from, as given: locations of log findings point into them.
    public var logPaths: [String] { result.logPaths }
    /// The version the tool reports (SARIF's `driver.version`).
    public var toolVersion: String
    /// ANSI colour, for formats that have it (the text report on a terminal).
    public var color: Bool
    /// `analyze`: every load with its resolution, for formats that list loads (`needsLoadRecords`).
    public var loads: LoadRecords?
    /// Where relative input paths are relative to, for formats that need absolute paths (`xcode`).
    public var workingDirectory: String
    /// `imgtrace unused --all`: list every shipped image, the used ones too, not only the others.
    public var allImages = false
    /// The columns a listing in the text report fits (`COLUMNS`, else 120; `.max` with `--wide`).
    public var listingWidth = 120

    public init(
        result: Result, baseline: BaselineComparison? = nil,
        toolVersion: String = "", color: Bool = false, loads: LoadRecords? = nil, workingDirectory: String = "/"
    ) {
        self.result = result
        self.baseline = baseline
        self.toolVersion = toolVersion
        self.color = color
        self.loads = loads
        self.workingDirectory = workingDirectory
    }
}

/// One output format of `imgtrace analyze` and `imgtrace unused`. Every format is one type
/// behind this protocol and listed once in `AuditReporters.all`, which `--format`, `--report`,
/// shell completion, `imgtrace help` and the README's table all read. A format lays out each
/// command's result in its own method; one that shows any result's findings alike is a
/// `FindingsReporter` and writes one.
public protocol AuditReporter: Sendable {
    /// The name users type: `--format ID`, `--report ID:PATH`.
    var id: String { get }
    /// The extension a file of this format usually has (`sarif`, `xml`), without the dot.
    var fileExtension: String { get }
    /// One line for help and the README: what the format is for.
    var summary: String { get }
    /// The format lists every load, so the audit must keep them as they stream by.
    var needsLoadRecords: Bool { get }
    /// The format shows the first loads as table rows (`LoadRecords.rows`), not only the encoded list.
    var showsLoadRows: Bool { get }
    /// Who reads this format: the guard every byte of it passes (docs/output-safety.md).
    var consumer: OutputConsumer { get }
    /// Writes `analyze`'s report. Write errors are the sink's to record (`ByteSink.finish()` throws them).
    func render(_ input: ReportInput<AuditResult>, to sink: ByteSink)
    /// Writes `unused`'s report.
    func render(_ input: ReportInput<UnusedResult>, to sink: ByteSink)
}

/// A format that shows the findings of either command the same way (SARIF, a CI tool's
/// annotations): one method renders both results.
public protocol FindingsReporter: AuditReporter {
    /// Writes the report of `input`'s findings, whichever command made them.
    func renderFindings<Result: CommandResult>(_ input: ReportInput<Result>, to sink: ByteSink)
}

extension FindingsReporter {
    public func render(_ input: ReportInput<AuditResult>, to sink: ByteSink) { renderFindings(input, to: sink) }
    public func render(_ input: ReportInput<UnusedResult>, to sink: ByteSink) { renderFindings(input, to: sink) }
}

/// A command's result any format can render: code generic over the command (writing every
/// `--report`, the job summary) reaches the format's method for this result through it.
public protocol ReportableResult: CommandResult {
    /// Renders `input` in `reporter`'s format.
    static func render(_ input: ReportInput<Self>, in reporter: any AuditReporter, to sink: ByteSink)
}

extension AuditResult: ReportableResult {
    public static func render(_ input: ReportInput<Self>, in reporter: any AuditReporter, to sink: ByteSink) { reporter.render(input, to: sink) }
}

extension UnusedResult: ReportableResult {
    public static func render(_ input: ReportInput<Self>, in reporter: any AuditReporter, to sink: ByteSink) { reporter.render(input, to: sink) }
}

extension ReportInput where Result: ReportableResult {
    /// Writes this input's report in `reporter`'s format.
    public func render(in reporter: any AuditReporter, to sink: ByteSink) { Result.render(self, in: reporter, to: sink) }
}

extension AuditReporter {
    public var needsLoadRecords: Bool { false }
    public var showsLoadRows: Bool { false }
}

/// The registry of report formats, in the order help lists them.
public enum AuditReporters {
    public static let all: [any AuditReporter] = [
        TextReporter(), JSONReporter(), MarkdownReporter(), HTMLReporter(), SARIFReporter(),
        GitHubReporter(), GitLabReporter(), JUnitReporter(), CheckstyleReporter(), XcodeReporter(),
    ]

    /// The format with this id.
    public static func named(_ id: String) -> (any AuditReporter)? {
        all.first { $0.id == id }
    }

    /// Every id, in order: what completion offers and what help lists.
    public static var ids: [String] { all.map(\.id) }
}
