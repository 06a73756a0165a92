import LaunchAudit

/// Where a finding is shown in tools that want one file and one line: the asset inside the
/// bundle when there is one, else the first log line, else the bundle.
public struct FindingLocation: Equatable {
    public var path: String
    public var line: Int?

    public init(_ finding: Finding, bundlePath: String, logPaths: [String]) {
        var base = bundlePath
        while base.hasSuffix("/") { base.removeLast() }
        if let asset = finding.paths.first {
            path = base.isEmpty ? asset : base + "/" + asset
            line = nil
        } else if let first = finding.lines.first, first.log < logPaths.count {
            path = logPaths[first.log]
            line = first.line
        } else {
            path = base
            line = nil
        }
    }
}

/// XML text and attribute escaping; characters XML 1.0 cannot hold become U+FFFD.
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
            if v < 0x20 || v == 0xFFFE || v == 0xFFFF { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
        }
    }
    return out
}
