import ArgumentParser
import ImgtraceSupport
import Reporters

/// A `--format` value: the id of a format in `AuditReporters`. Completion and help read the
/// registry, so a new format needs no change here.
struct ReportFormat: ExpressibleByArgument {
    let reporter: any AuditReporter

    init?(argument: String) {
        guard let reporter = AuditReporters.named(argument) else { return nil }
        self.reporter = reporter
    }

    init(_ reporter: any AuditReporter) { self.reporter = reporter }

    /// The format `name` names, or why none (with the nearest and every format), for argument-parser to print.
    static func parse(_ name: String) throws -> ReportFormat {
        guard let format = ReportFormat(argument: name) else {
            let near = UsageHints.nearest(name, among: AuditReporters.ids).map { "did you mean `\($0)`? " } ?? ""
            throw ValidationError("no format \(SafeText.quoted(name)); \(near)(formats: \(AuditReporters.ids.joined(separator: ", ")))")
        }
        return format
    }

    static var allValueStrings: [String] { AuditReporters.ids }
    static var defaultCompletionKind: CompletionKind { .list(AuditReporters.ids) }
    var defaultValueDescription: String { reporter.id }
}

/// One `--report FORMAT:PATH`.
struct ReportDestination {
    var format: ReportFormat
    var path: String

    /// The destination `argument` names, or why it names none (argument-parser prints the reason
    /// after the value).
    static func parse(_ argument: String) throws -> ReportDestination {
        let formats = AuditReporters.ids.joined(separator: ", ")
        guard let colon = argument.firstIndex(of: ":") else {
            throw ValidationError("give FORMAT:PATH, e.g. json:audit.json (formats: \(formats))")
        }
        let format = try ReportFormat.parse(String(argument[..<colon]))
        let path = String(argument[argument.index(after: colon)...])
        // `-` is standard output, which belongs to --format/--output; a report needs a file.
        guard !path.isEmpty, path != "-" else { throw ValidationError("a report goes to a file: standard output is --format's") }
        return ReportDestination(format: format, path: path)
    }
}
