import Foundation
import LaunchAudit
import Reporters
import XCTest

/// Each command's result is its own type, and every format reaches its own layout of it through
/// the one protocol: `analyze`'s report never shows `unused`'s sections, nor the reverse, and
/// code generic over the command (`ReportInput.render(in:to:)`, what `--report` and the job
/// summary use) writes the same bytes as the format's own method.
final class CommandResultTests: XCTestCase {
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func runs() throws -> (analyze: AuditResult, unused: UnusedResult) {
        let app = root.appendingPathComponent("Examples/SampleApp.app").path
        let log = root.appendingPathComponent("Examples/launch.log").path
        let analyze = try AuditSession.run(AuditRequest(logs: [log], bundles: [app])).result
        let unused = try AuditSession.unused(AuditRequest(logs: [], bundles: [app])).result
        return (analyze, unused)
    }

    /// The report through the generic path, and through the format's method for the concrete type.
    private func both<Result: ReportableResult>(
        _ reporter: any AuditReporter, _ result: Result, direct: (ReportInput<Result>, ByteSink) -> Void
    ) -> (generic: String, direct: String) {
        var result = result
        (result.bundlePaths, result.logPaths) = (["SampleApp.app"], ["launch.log"])
        let input = ReportInput(result: result, toolVersion: "test")
        let generic = ByteSink(collecting: reporter.consumer)
        input.render(in: reporter, to: generic)
        let own = ByteSink(collecting: reporter.consumer)
        direct(input, own)
        return (String(decoding: generic.collected, as: UTF8.self), String(decoding: own.collected, as: UTF8.self))
    }

    func testEveryFormatRendersEachCommandsResultInItsOwnLayout() throws {
        let (analyze, unused) = try runs()
        XCTAssertFalse(analyze.findings.isEmpty)
        XCTAssertFalse(unused.findings.isEmpty, "the example app ships images nothing names")
        for reporter in AuditReporters.all {
            let launch = both(reporter, analyze) { reporter.render($0, to: $1) }
            let shipped = both(reporter, unused) { reporter.render($0, to: $1) }
            XCTAssertEqual(launch.generic, launch.direct, "\(reporter.id): the generic path wrote another analyze report")
            XCTAssertEqual(shipped.generic, shipped.direct, "\(reporter.id): the generic path wrote another unused report")
            XCTAssertNotEqual(launch.generic, shipped.generic, reporter.id)
            // Each names its own rules: analyze's finds a missing name, unused's an unused image.
            XCTAssertTrue(launch.generic.contains("missing-image"), "\(reporter.id): \(launch.generic.prefix(300))")
            XCTAssertFalse(launch.generic.contains("unused-image"), reporter.id)
            XCTAssertTrue(shipped.generic.contains("unused-image"), "\(reporter.id): \(shipped.generic.prefix(300))")
            XCTAssertFalse(shipped.generic.contains("missing-image"), reporter.id)
        }
    }

    func testTheLaunchSectionsAndTheUnusedSectionsNeverMeet() throws {
        let (analyze, unused) = try runs()
        let text = try XCTUnwrap(AuditReporters.named("text"))
        let launch = both(text, analyze) { text.render($0, to: $1) }.generic
        let shipped = both(text, unused) { text.render($0, to: $1) }.generic
        XCTAssertTrue(launch.hasPrefix("imgtrace launch audit\n"))
        XCTAssertTrue(launch.contains("\nLAUNCH\n") && launch.contains("IMAGES LOADED AT LAUNCH"))
        XCTAssertFalse(launch.contains("\nUNUSED\n"))
        XCTAssertTrue(shipped.hasPrefix("imgtrace unused images\n"))
        XCTAssertTrue(shipped.contains("\nUNUSED\n") && shipped.contains("IMAGES ("))
        XCTAssertFalse(shipped.contains("\nLAUNCH\n") || shipped.contains("IMAGES LOADED AT LAUNCH"))

        let json = try XCTUnwrap(AuditReporters.named("json"))
        let launchObject = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(both(json, analyze) { json.render($0, to: $1) }.generic.utf8)) as? [String: Any])
        let unusedObject = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(both(json, unused) { json.render($0, to: $1) }.generic.utf8)) as? [String: Any])
        XCTAssertEqual(Set(launchObject.keys).intersection(["metrics", "names", "loads", "unused", "images"]), ["metrics", "names", "loads"])
        XCTAssertEqual(Set(unusedObject.keys).intersection(["metrics", "names", "loads", "unused", "images"]), ["unused", "images"])
    }

    func testABaselineTakesTheScopeOfTheCommandThatWroteIt() throws {
        let (analyze, unused) = try runs()
        XCTAssertEqual(Baseline(analyze).scope, .launch)
        XCTAssertEqual(Baseline(unused).scope, .unused)
        XCTAssertEqual(Baseline(analyze).launch, analyze.metrics.launch)
        XCTAssertEqual(Baseline(unused).launch.loads, 0, "unused measures no launch")
    }
}
