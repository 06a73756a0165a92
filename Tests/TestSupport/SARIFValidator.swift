import Foundation

/// Validates SARIF documents against the official 2.1.0 schema in `../shared/schemas`, with
/// Python's `jsonschema` (Debian's `python3-jsonschema`, installed by `.ci/run`).
public enum SARIFValidator {
    public static let schema: URL? = {
        let url = Corpus.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/schemas/sarif-schema-2.1.0.json")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// A Python interpreter that can import `jsonschema`, if any.
    public static let python: String? = {
        for candidate in ["/usr/bin/python3", "python3"] {
            if let result = try? run(candidate, ["-c", "import jsonschema"]), result.status == 0 { return candidate }
        }
        return nil
    }()

    /// Schema violations in `document` (empty when valid).
    public static func errors(in document: Data) throws -> [String] {
        guard let schema, let python else { return ["no schema or no jsonschema"] }
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("doc.sarif")
        try document.write(to: file)
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            doc = json.load(open(sys.argv[2]))
            for e in jsonschema.Draft4Validator(schema).iter_errors(doc):
                print("/".join(str(p) for p in e.absolute_path) + ": " + e.message)
            """
        let result = try run(python, ["-c", script, schema.path, file.path])
        guard result.status == 0 else { return ["validator failed: \(result.output)"] }
        return result.output.split(separator: "\n").map(String.init)
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        if executable.hasPrefix("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
