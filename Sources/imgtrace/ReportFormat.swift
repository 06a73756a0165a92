import ArgumentParser
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

    static var allValueStrings: [String] { AuditReporters.ids }
    static var defaultCompletionKind: CompletionKind { .list(AuditReporters.ids) }
    var defaultValueDescription: String { reporter.id }
}

/// One `--report FORMAT:PATH`.
struct ReportDestination: ExpressibleByArgument {
    var format: ReportFormat
    var path: String

    init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":"),
            let format = ReportFormat(argument: String(argument[..<colon]))
        else { return nil }
        let path = String(argument[argument.index(after: colon)...])
        // `-` is standard output, which belongs to --format/--output; a report needs a file.
        guard !path.isEmpty, path != "-" else { return nil }
        self.format = format
        self.path = path
    }

    static var defaultCompletionKind: CompletionKind { .file() }
}
