import Foundation
import TestSupport
import XCTest

/// The front door from outside: a program that is not part of this package (compiled without its
/// package name, so `package` declarations are closed to it) runs an audit, reads each finding
/// and the launch figures, and renders a report, through the public API alone. Type-checked
/// against the modules the build made.
final class EmbedderTests: XCTestCase {
    static let embedder = """
        import LaunchAudit
        import Reporters

        let request = AuditRequest(logs: ["Examples/launch.log"], bundles: ["Examples/SampleApp.app"])
        let outcome = try AuditSession.run(request)
        for finding in outcome.result.findings {
            print(finding.rule, finding.severity.rawValue, finding.names, finding.messageText, finding.gates)
        }
        let launch = outcome.result.metrics.launch
        print(launch.loads, launch.decodedBytes, outcome.result.device.id, outcome.fails)
        let sink = ByteSink(collecting: .terminal)
        let input = ReportInput(result: outcome.result)
        input.render(in: AuditReporters.all[0], to: sink)
        print(sink.collected.count)
        """

    func testAnEmbedderRunsReadsAndRendersThroughThePublicAPI() throws {
        let said = try typecheck(Self.embedder)
        XCTAssertEqual(said.status, 0, said.output)
    }

    /// The same program reaching for plumbing (a finding's `Phrase`, the rules' registry) is refused:
    /// the boundary the first test relies on is real.
    func testPlumbingIsClosedToAnEmbedder() throws {
        let said = try typecheck(Self.embedder + "\nprint(outcome.result.findings[0].message)\n")
        XCTAssertNotEqual(said.status, 0)
        XCTAssertTrue(said.output.contains("'message' is inaccessible due to 'package' protection level"), said.output)
    }

    private func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let build = BinaryRunner.executable.deletingLastPathComponent()
        let modules = build.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.path) else { throw XCTSkip("no built modules at \(modules.path)") }
        let swiftc = ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"].first(where: FileManager.default.isExecutableFile(atPath:))
        guard let swiftc else { throw XCTSkip("needs swiftc") }
        let scratch = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = scratch.appendingPathComponent("main.swift")
        try Data(source.utf8).write(to: file)
        var arguments = ["-typecheck", "-I", modules.path]
        // The C modules the Swift ones import (SwiftPM passes these to its own targets); a Swift
        // target's own generated map (beside its .swiftmodule) would define its module twice.
        let swiftModules = Set(((try? FileManager.default.contentsOfDirectory(atPath: modules.path)) ?? []).filter { $0.hasSuffix(".swiftmodule") }.map { String($0.dropLast(12)) })
        let builtC = moduleMaps(under: build, depth: 3).filter { map in
            !map.split(separator: "/").contains { $0.hasSuffix(".build") && swiftModules.contains(String($0.dropLast(6))) }
        }
        for map in builtC + moduleMaps(under: Corpus.packageRoot.appendingPathComponent(".build/checkouts"), depth: 8)
            + moduleMaps(under: Corpus.packageRoot.appendingPathComponent("Sources"), depth: 2)
        {
            arguments += ["-Xcc", "-fmodule-map-file=" + map]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: swiftc)
        process.arguments = arguments + [file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Every `module.modulemap` under `folder`, at most `depth` folders down, tests' own left out.
    private func moduleMaps(under folder: URL, depth: Int) -> [String] {
        guard let paths = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found: [String] = []
        for case let path as String in paths where path.hasSuffix("module.modulemap") {
            let components = path.split(separator: "/")
            guard components.count <= depth + 1, !components.contains(where: { $0.lowercased().contains("test") }) else { continue }
            found.append(folder.appendingPathComponent(path).path)
        }
        return found.sorted()
    }
}
