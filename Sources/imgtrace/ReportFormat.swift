import ArgumentParser

/// The formats `imgtrace analyze` writes, to stdout (`--format`) or files (`--report FORMAT:PATH`).
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, markdown, html, sarif, github, gitlab, junit, checkstyle
}

/// One `--report FORMAT:PATH`.
struct ReportDestination: ExpressibleByArgument {
    var format: ReportFormat
    var path: String

    init?(argument: String) {
        guard let colon = argument.firstIndex(of: ":"),
              let format = ReportFormat(rawValue: String(argument[..<colon])) else { return nil }
        let path = String(argument[argument.index(after: colon)...])
        // `-` is standard output, which belongs to --format/--output; a report needs a file.
        guard !path.isEmpty, path != "-" else { return nil }
        self.format = format
        self.path = path
    }

    static var defaultCompletionKind: CompletionKind { .file() }
}
