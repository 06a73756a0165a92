import Foundation

/// Models of what reads imgtrace's output and acts on it (docs/output-safety.md): a terminal,
/// Xcode's build-log parser, the GitHub Actions runner's two command parsers and a GitHub
/// Markdown renderer. Each returns the hazards it finds, described for a failure message.
public enum ConsumerModels {
    /// Characters no output may hold raw: C0 controls but TAB and LF, DEL, C1 controls, the line
    /// and paragraph separators and the bidirectional overrides and isolates.
    public static func rawControls(_ text: String) -> [String] {
        var found: [String] = []
        for scalar in text.unicodeScalars {
            let v = scalar.value
            let bad =
                (v < 0x20 && v != 0x09 && v != 0x0A) || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            if bad { found.append(String(format: "U+%04X", v)) }
        }
        return found
    }

    /// Lines the GitHub Actions runner would take as a command: `::name …::` after blanks (its
    /// current parser) or `##[name …]` anywhere in a line (its legacy parser). `allowed` says
    /// which command lines the format wrote on purpose.
    public static func runnerCommands(_ text: String, allowed: (Substring) -> Bool = { _ in false }) -> [String] {
        var found: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("::"), !allowed(line) { found.append("workflow command: \(line.prefix(120))") }
            if line.contains("##[") { found.append("legacy command: \(line.prefix(120))") }
        }
        return found
    }

    /// Whether a line is one of the workflow commands `--format github` writes: an annotation or
    /// notice with escaped properties and a message that holds no second command.
    public static func isAnnotation(_ line: Substring) -> Bool {
        guard let match = line.range(of: #"^::(error|warning|notice)( [^:]*)?::"#, options: .regularExpression) else { return false }
        return !line[match.upperBound...].contains("##[") && !line.contains("\r")
    }

    /// The issues Xcode's build-log parser reads from `text`: every `path:line:col: severity:`
    /// a line holds (its pattern matches anywhere a greedy path could end).
    public static func xcodeIssues(_ text: String) -> [(line: Substring, count: Int)] {
        let pattern = try! NSRegularExpression(pattern: #":[0-9]+:[0-9]+: (error|warning|note): "#)
        return text.split(separator: "\n").map { line in
            let range = NSRange(line.startIndex..., in: line)
            return (line, pattern.numberOfMatches(in: String(line), range: NSRange(location: 0, length: range.length)))
        }
    }

    /// A Python interpreter with `cmarkgfm` (GitHub's cmark-gfm; `.ci/run` installs it from PyPI).
    public static let markdownPython: String? = {
        for candidate in ["python3", "/usr/bin/python3"] {
            if let result = try? runPython(candidate, ["-c", "import cmarkgfm"], input: Data()), result.status == 0 { return candidate }
        }
        return nil
    }()

    /// What GitHub's renderer would make live in each Markdown document: images, links,
    /// autolinks, raw HTML beyond the tags the reports use, and `@mentions` outside code.
    public static func markdownHazards(_ documents: [String]) throws -> [[String]] {
        guard let python = markdownPython else { throw ModelError.unavailable("no python3 with cmarkgfm (pip install cmarkgfm)") }
        let script = #"""
            import json, re, sys, cmarkgfm
            from cmarkgfm.cmark import Options
            from html.parser import HTMLParser
            ALLOWED = {"p","code","pre","table","thead","tbody","tr","th","td","h1","h2","h3","h4","ul","ol","li","strong","em",
                       "br","details","summary","del","blockquote","hr"}
            MENTION = re.compile(r"(?:^|[^A-Za-z0-9_`/.\-])@[A-Za-z0-9][A-Za-z0-9-]*")
            class Check(HTMLParser):
                def __init__(self):
                    super().__init__(); self.code = 0; self.found = []
                def handle_starttag(self, tag, attrs):
                    if tag == "code": self.code += 1
                    if tag not in ALLOWED: self.found.append("<%s %s>" % (tag, attrs))
                    for k, v in attrs:
                        if k in ("href", "src") or k.startswith("on"): self.found.append("%s=%s" % (k, v))
                def handle_endtag(self, tag):
                    if tag == "code": self.code -= 1
                def handle_data(self, data):
                    if self.code == 0 and MENTION.search(data): self.found.append("mention: " + data[:80])
                def handle_comment(self, data):
                    self.found.append("raw HTML: " + data[:80])
            out = []
            for doc in json.load(sys.stdin):
                html = cmarkgfm.github_flavored_markdown_to_html(doc, options=Options.CMARK_OPT_UNSAFE)
                c = Check(); c.feed(html); out.append(c.found)
            print(json.dumps(out))
            """#
        let result = try runPython(python, ["-c", script], input: try JSONSerialization.data(withJSONObject: documents))
        guard result.status == 0, let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String]] else {
            throw ModelError.unavailable("the Markdown model failed: \(result.output.prefix(400))")
        }
        return parsed
    }

    public enum ModelError: Error, CustomStringConvertible {
        case unavailable(String)
        public var description: String {
            switch self {
            case let .unavailable(why): return why
            }
        }
    }

    private static func runPython(_ executable: String, _ arguments: [String], input: Data) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/env")
        process.arguments = executable.hasPrefix("/") ? arguments : [executable] + arguments
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
