import Foundation
import TestSupport
import XCTest

/// The command line against hostile input: every file of `../shared/corpus/hostile` with the
/// command its MANIFEST names, odd output paths, a full disk, named pipes, absurd figures.
/// Each must end with 0, 1 or 2 — one line on stderr when the input is at fault — and never
/// hang (a run is stopped after 60 s, far above the 1 s these take).
final class HostileCommandTests: XCTestCase {
    private var temp: URL!
    private let example = Corpus.packageRoot.appendingPathComponent("Examples")

    override func setUpWithError() throws { temp = try BinaryRunner.temporaryDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: temp) }

    private func run(_ arguments: [String], in directory: URL? = nil) throws -> BinaryRunner.Result {
        let result = try BinaryRunner.run(arguments, in: directory, timeout: 60)
        XCTAssertFalse(result.timedOut, "hung: imgtrace \(arguments.joined(separator: " "))")
        XCTAssertTrue([0, 1, 2].contains(result.status), "imgtrace \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr.prefix(300))")
        if result.status == 2 {
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
        }
        return result
    }

    func testEveryCorpusHostileInputEndsCleanly() throws {
        guard let corpus = Corpus.root?.appendingPathComponent("hostile"),
            FileManager.default.fileExists(atPath: corpus.path)
        else { throw XCTSkip(Corpus.missingMessage) }
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus.path).sorted()
        XCTAssertFalse(names.isEmpty)
        for name in names where name != "MANIFEST.md" {
            let path = corpus.appendingPathComponent(name).path
            if name.hasSuffix(".log") {
                _ = try run(["trace", path])
                _ = try run(["trace", path, "--format", "json"])
                _ = try run(["analyze", path, "--bundle", example.appendingPathComponent("SampleApp.app").path, "--format", "html"])
            } else if name.hasSuffix(".xcassets") {
                _ = try run(["catalog", path])
                let log = corpus.appendingPathComponent("hero.log").path
                for format in ["text", "json", "html", "sarif"] {
                    _ = try run(["analyze", log, "--bundle", path, "--format", format])
                }
            } else {
                _ = try run(["catalog", path])
                _ = try run(["catalog", path, "--format", "json"])
            }
        }
    }

    func testOneCharacterAndDashOutputPaths() throws {
        let log = example.appendingPathComponent("launch.log").path
        let app = example.appendingPathComponent("SampleApp.app").path
        for output in ["a", "-"] {
            let result = try run(["analyze", log, "--bundle", app, "--output", output, "--fail-on", "never"], in: temp)
            XCTAssertEqual(result.status, 0)
            if output == "-" {
                XCTAssertTrue(result.stdoutText.hasPrefix("imgtrace launch audit"), "`-` is standard output")
            } else {
                XCTAssertTrue(FileManager.default.fileExists(atPath: temp.appendingPathComponent(output).path))
            }
        }
        let report = try run(["analyze", log, "--bundle", app, "--report", "json:b", "--fail-on", "never"], in: temp)
        XCTAssertEqual(report.status, 0)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(contentsOf: temp.appendingPathComponent("b"))))
        let dash = try BinaryRunner.run(["analyze", log, "--bundle", app, "--report", "json:-"], in: temp)
        XCTAssertEqual(dash.status, 64, "a report needs a file")
    }

    func testAFullDiskIsAnErrorNotASuccess() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { throw XCTSkip("no /dev/full here") }
        let log = example.appendingPathComponent("launch.log").path
        let app = example.appendingPathComponent("SampleApp.app").path
        let commands: [[String]] = [
            ["analyze", log, "--bundle", app, "--fail-on", "never"], ["analyze", log, "--bundle", app, "--format", "json"],
            ["trace", log], ["catalog", app], ["car", example.appendingPathComponent("SampleApp.app/Assets.car").path], ["devices"],
        ]
        for command in commands {
            let script = "exec \"$0\" \"$@\" > /dev/full"
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, BinaryRunner.executable.path] + command
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 2, "\(command): \(message)")
            XCTAssertTrue(message.contains("standard output: cannot write: No space left on device"), message)
        }
    }

    func testNamedPipesAreRefusedAtOnce() throws {
        let fifo = temp.appendingPathComponent("pipe").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let log = example.appendingPathComponent("launch.log").path
        let app = example.appendingPathComponent("SampleApp.app").path
        let commands: [[String]] = [
            ["trace", fifo], ["car", fifo], ["catalog", fifo], ["analyze", fifo, "--bundle", app], ["analyze", log, "--bundle", fifo],
            ["analyze", log, "--bundle", app, "--config", fifo], ["analyze", log, "--bundle", app, "--baseline", fifo],
        ]
        for command in commands {
            let result = try run(command)
            XCTAssertEqual(result.status, 2, "\(command)")
            XCTAssertTrue(result.stderr.contains("named pipe"), result.stderr)
        }
    }

    func testAbsurdPixelCountsReachEveryReport() throws {
        // An app whose images claim the largest sizes their formats allow.
        let app = temp.appendingPathComponent("Huge.app")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try Data(ImageWriter.png(width: UInt32(Int32.max), height: UInt32(Int32.max), bitDepth: 16)).write(to: app.appendingPathComponent("huge@3x.png"))
        try Data(ImageWriter.png(width: .max, height: .max)).write(to: app.appendingPathComponent("bigger.png"))
        try Data(ImageWriter.heic(width: .max, height: .max)).write(to: app.appendingPathComponent("photo.heic"))
        try Data(#"<svg width="999999" height="999999"/>"#.utf8).write(to: app.appendingPathComponent("vector.svg"))
        let log = temp.appendingPathComponent("launch.log")
        try Data("(lldb)  po $arg3\nhuge\n(lldb)  po $arg3\nbigger\n(lldb)  po $arg3\nphoto.heic\n(lldb)  po $arg3\nvector.svg\n".utf8).write(to: log)
        for format in ["text", "json", "markdown", "html", "sarif", "github", "gitlab", "junit", "checkstyle"] {
            let result = try run(["analyze", log.path, "--bundle", app.path, "--format", format])
            XCTAssertNotEqual(result.status, 2, "\(format): \(result.stderr)")
            XCTAssertFalse(result.stdout.isEmpty, format)
        }
        let catalog = try run(["catalog", app.path])
        XCTAssertTrue(catalog.stdoutText.contains("2147483647×2147483647"), catalog.stdoutText)
    }

    func testBaselineFiguresOutOfRangeAreInputErrors() throws {
        let log = example.appendingPathComponent("launch.log").path
        let app = example.appendingPathComponent("SampleApp.app").path
        for figure in ["-9e18", "-1", "1e300", "\"many\""] {
            let baseline = temp.appendingPathComponent("baseline.json")
            try Data(
                """
                {"schemaVersion":1,"kind":"imgtrace-baseline","device":"iphone-17-pro-max",
                 "launch":{"loads":\(figure),"names":1,"images":1,"decodedBytes":1,"bytesOnDisk":1,"missing":0,"repeated":0,"unreadable":0,"largestImageDecodedBytes":1},
                 "findings":[]}
                """.utf8
            ).write(to: baseline)
            let result = try run(["analyze", log, "--bundle", app, "--baseline", baseline.path])
            XCTAssertEqual(result.status, 2, "loads \(figure)")
            XCTAssertTrue(result.stderr.contains("launch.loads"), result.stderr)
        }
        // The largest figure a baseline can hold still compares without overflow.
        let big = temp.appendingPathComponent("big.json")
        try Data(
            """
            {"schemaVersion":1,"kind":"imgtrace-baseline","device":"iphone-17-pro-max",
             "launch":{"loads":9223372036854775807,"names":1,"images":9223372036854775807,"decodedBytes":9223372036854775807,"bytesOnDisk":9223372036854775807,"missing":0,"repeated":0,"unreadable":0,"largestImageDecodedBytes":1},
             "findings":[]}
            """.utf8
        ).write(to: big)
        _ = try run(["analyze", log, "--bundle", app, "--baseline", big.path, "--fail-on", "never"])
    }
}
