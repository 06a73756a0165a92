import AuditModel
import ImgtraceSupport

/// Where a finding is shown in tools that want one file and one line: the place in the source
/// tree when a source root was given and holds it, else the asset inside the bundle, else the
/// first log line, else the bundle.
package struct FindingLocation: Equatable {
    package var path: String
    package var line: Int?
    package var column: Int?

    package init(_ finding: Finding, bundlePath: BundleRoots, logPaths: [String], sourceRoot: String? = nil) {
        // The line of code that asks for the name first: that is where it is fixed.
        if let source = finding.code ?? finding.source, let sourceRoot {
            // `--source-root .` (a CI job at the repository root) gives repository-relative paths.
            path = PathText.resolve(source.path, against: sourceRoot)
            line = source.position?.line
            column = source.position?.column
        } else if let asset = finding.paths.first {
            path = bundlePath.file(of: asset)
            line = nil
        } else if let first = finding.lines.first, first.log < logPaths.count {
            path = logPaths[first.log]
            line = first.line
        } else {
            path = bundlePath.file(of: "")
            line = nil
        }
    }
}

extension JSONText {
    /// A finding's measured values as fields, keys sorted, into an object the caller has opened.
    mutating func fields(_ values: FindingValues) {
        for (key, value) in values {
            switch value {
            case let .int(v): field(key, v)
            case let .number(v): field(key, number: v)
            case let .string(v): field(key, v)
            }
        }
    }
}

/// XML text and attribute escaping; characters XML 1.0 cannot hold are shown as visible escapes (`\u{1B}`).
func xmlEscaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        case "\n": out += "&#10;"
        case "\t", "\r": out += "&#\(scalar.value);"
        default:
            let v = scalar.value
            if v < 0x20 || v == 0xFFFE || v == 0xFFFF { out += SafeText.escaped(v) } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out
}
