import Foundation
import TestSupport
import XCTest

/// The HTML report read on a phone: laid out by a real browser at 390 CSS pixels (an iPhone's
/// width), nothing is wider than the screen, so nothing needs sideways scrolling (issue 45).
final class HTMLLayoutTests: XCTestCase {
    private func chromium() throws -> String {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] where FileManager.default.isExecutableFile(atPath: path) { return path }
        throw XCTSkip("chromium is not installed (scripts/setup.sh test installs it): the HTML layout is not checked")
    }

    /// The right edge of the page's widest box in CSS pixels (inside a scrolling card too), as
    /// headless Chromium lays the page out `width` pixels wide.
    private func layoutWidth(ofPage html: String, width: Int) throws -> Int {
        let browser = try chromium()
        let work = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        // Headless Chromium's window is 500 px at least: narrower pages are laid out in a root
        // of that width (the phone media rules apply from 640 px down). The measurement is written
        // into the title, which `--dump-dom` prints after the scripts ran.
        let probe = """
            <script>
            document.documentElement.style.width='\(width)px';
            var right=0;
            document.querySelectorAll('body *').forEach(function(e){var b=e.getBoundingClientRect();if(b.width>0)right=Math.max(right,b.right);});
            document.title='width:'+Math.ceil(right);
            </script></html>
            """
        let page = work.appendingPathComponent("report.html")
        try html.replacingOccurrences(of: "</html>", with: probe).write(to: page, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: browser)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + work.appendingPathComponent("profile").path,
            "--window-size=\(max(width, 500)),900", "--dump-dom", page.absoluteString,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let range = dom.range(of: #"<title>width:(\d+)</title>"#, options: .regularExpression) else {
            XCTFail("no measurement in Chromium's page: \(dom.prefix(300))")
            return .max
        }
        return Int(dom[range].dropFirst("<title>width:".count).prefix { $0.isNumber }) ?? .max
    }

    private func report(_ arguments: [String]) throws -> String {
        let result = try BinaryRunner.run(arguments + ["--format", "html", "--fail-on", "never"], in: Corpus.packageRoot)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdoutText
    }

    func testTheAnalyzeReportFitsAPhonesWidth() throws {
        _ = try chromium()
        let html = try report(["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app"])
        XCTAssertTrue(html.contains("<svg"), "the charts are in the page")
        XCTAssertLessThanOrEqual(try layoutWidth(ofPage: html, width: 390), 390)
        XCTAssertLessThanOrEqual(try layoutWidth(ofPage: html, width: 1280), 1280)
    }

    /// A timed recording (`record --agent`): the lanes of image time, one per thread with the main
    /// thread first, lookups and decodes in two shades, the launch end placed from the program's
    /// start; laid out at 1280 and 390 px without sideways scrolling.
    func testTheTimeLanesShowEachThreadAndFitAPhonesWidth() throws {
        _ = try chromium()
        let work = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let log = work.appendingPathComponent("timed.log")
        try """
        imgtrace-recording-start 2026-11-26 10:30:25.223
        2026-11-26 10:30:25.389 [SampleApp] (code) +[UIImage imageNamed:]: "hero_banner" 17.591 ms
        2026-11-26 10:30:25.410 [loader 4242] (code) +[UIImage imageNamed:]: "tab_home" 2.250 ms
        2026-11-26 10:30:25.420 [SampleApp] (decode) -[NSImage _loadFromFile:]: "hero_banner" 4.624 ms
        2026-11-26 10:30:25.500 [SampleApp] (code) +[UIImage imageNamed:]: "tab_search" 0.004 ms
        imgtrace-launch-end
        imgtrace-recording-end hits=3 launch-end=reached program=exit:0 launch-ms=400

        """.write(to: log, atomically: true, encoding: .utf8)
        let html = try report(["analyze", log.path, "--bundle", "Examples/SampleApp.app"])
        let start = try XCTUnwrap(html.range(of: "Image time per thread (milliseconds)"), "the lanes are in the page")
        let lanes = String(html[start.upperBound...].prefix(6000))
        let main = try XCTUnwrap(lanes.range(of: ">SampleApp</text>")), loader = try XCTUnwrap(lanes.range(of: ">loader 4242</text>"))
        XCTAssertLessThan(main.lowerBound, loader.lowerBound, "the main thread's lane first")
        XCTAssertTrue(lanes.contains("hero_banner (decode): 4.624 ms"), "the decode in its own shade, named")
        XCTAssertTrue(lanes.contains("launch ends (400 ms)"))
        XCTAssertTrue(html.contains("image time on the main thread"))
        XCTAssertLessThanOrEqual(try layoutWidth(ofPage: html, width: 390), 390)
        XCTAssertLessThanOrEqual(try layoutWidth(ofPage: html, width: 1280), 1280)
        // An untimed log draws no lanes.
        XCTAssertFalse(try report(["analyze", "Examples/launch.log", "--bundle", "Examples/SampleApp.app"]).contains("Image time per thread"))
    }

    func testTheUnusedReportFitsAPhonesWidthAndSaysWhatItWasMadeFrom() throws {
        _ = try chromium()
        let html = try report(["unused", "--bundle", "Examples/SampleApp.app", "--source-root", "Examples/SampleSource"])
        XCTAssertTrue(html.contains("Generated by imgtrace from the app and its source code"), "no log was given")
        XCTAssertFalse(html.contains("·</div>"), "no dangling separator where the logs would be")
        XCTAssertLessThanOrEqual(try layoutWidth(ofPage: html, width: 390), 390)
    }
}
