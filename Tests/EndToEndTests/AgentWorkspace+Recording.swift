#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// What the recording suites add to the agent's workspace: model programs compiled in it, and the
    /// events and stacks `trace` reads back from a log.
    extension AgentWorkspaceTestCase {
        /// Compiles Objective-C against GNUstep Base (gobjc); skips without it.
        func compileObjC(_ source: String, to name: String, level: String = "-O1") throws -> URL {
            guard let flags = Shell.output("gnustep-config --objc-flags"), let libraries = Shell.output("gnustep-config --base-libs") else {
                throw XCTSkip("needs gobjc and libgnustep-base-dev (gnustep-config)")
            }
            let file = work.appendingPathComponent(name + ".m"), output = work.appendingPathComponent(name)
            try source.write(to: file, atomically: true, encoding: .utf8)
            let cleaned = flags.replacingOccurrences(of: "-MMD -MP", with: "")
            guard Shell.output("cc -x objective-c -std=gnu99 \(cleaned) \(level) -o \(output.path) \(file.path) \(libraries) 2>&1 >/dev/null") != nil else {
                throw XCTSkip("gobjc could not build \(name).m")
            }
            return output
        }

        /// Compiles C with `libraries` after the source (the linker drops a library named before it).
        func compileC(_ source: String, to name: String, flags: [String], libraries: [String] = []) throws -> URL {
            let file = work.appendingPathComponent(name + ".c"), output = work.appendingPathComponent(name)
            try source.write(to: file, atomically: true, encoding: .utf8)
            let command = (["cc"] + flags + ["-o", output.path, file.path] + libraries).joined(separator: " ")
            guard Shell.output(command + " 2>&1 >/dev/null") != nil else { throw XCTSkip("cc could not build \(name).c") }
            return output
        }

        /// The events `trace` reads from a log, as `kind<TAB>api<TAB>name` (nil as `(nil)`).
        func events(_ log: URL) throws -> [String] {
            let trace = try BinaryRunner.run(["trace", log.path, "--format", "json"])
            XCTAssertEqual(trace.status, 0, trace.stderr)
            let json = try XCTUnwrap(JSONSerialization.jsonObject(with: trace.stdout) as? [String: Any])
            return (json["events"] as? [[String: Any]] ?? []).map { event in
                let name = event["status"] as? String == "nil" ? "(nil)" : (event["name"] as? String ?? "?")
                return "\(event["kind"] as? String ?? "-")\t\(event["api"] as? String ?? "-")\t\(name)"
            }
        }

        /// The lines a model program wrote as its own record of what it asked for.
        func truthLines(_ file: URL) throws -> [String] {
            try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        /// The names of a log's events, from `trace`.
        func events(file log: Data) throws -> [String] {
            let logURL = work.appendingPathComponent("events-\(UUID().uuidString).log")
            try log.write(to: logURL)
            return try events(logURL).map { String($0.split(separator: "\t").last!) }
        }

        /// Each hit of a recording with its frames (up to the launch end, or all), without what
        /// differs between two runs: the time, the thread's id and the addresses.
        func stacks(_ log: URL, launchOnly: Bool = false) throws -> [String] {
            var hits: [String] = []
            for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
                if launchOnly, line == "imgtrace-launch-end" { break }
                if line.hasPrefix("    frame #"), !hits.isEmpty {
                    hits[hits.count - 1] += "\n" + line.replacing(#/0x[0-9a-f]+ /#, with: "")
                } else if let request = Self.request(line) {
                    hits.append(String(request.dropFirst(24)).replacing(#/ [0-9]+\]/#, with: "]"))
                }
            }
            return hits
        }

        /// A request's line as ptrace writes it: the agent's duration taken off; nil for what is
        /// no request line (a decode the agent timed, a marker, frames).
        static func request(_ line: Substring) -> Substring? {
            guard line.hasPrefix("20"), !line.contains("] (decode) ") else { return nil }
            guard let duration = line.firstMatch(of: #/ [0-9]+\.[0-9]{3} ms(, [0-9]+\.[0-9]{3} ms own)?$/#) else { return line }
            return line[..<duration.range.lowerBound]
        }
    }
#endif
