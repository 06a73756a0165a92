import Foundation
import LaunchTrace
import XCTest

/// One request is one load: the hits of the image APIs one call passes through are merged into
/// it, on logs built in code in the shape `record` and `lldb-script --timestamps` write
/// (`TIME [thread] api: "name"`, docs/trace-logs.md §9).
final class RequestMergeTests: XCTestCase {
    private func read(_ hits: [(thread: String, api: String, name: String?)]) throws -> (events: [ImageLoad], summary: TraceSummary) {
        var text = ""
        for (i, hit) in hits.enumerated() {
            let value = hit.name.map { "\"\($0)\"" } ?? "None"
            text += "2026-11-23 10:00:00.\(100 + i) [\(hit.thread)] \(hit.api): \(value)\n"
        }
        return try TraceReader.read(Array(text.utf8))
    }

    private let named = "+[UIImage imageNamed:]"
    private let funnel = "+[UIImage imageNamed:inBundle:withConfiguration:]"
    private let manager = "-[_UIAssetManager imageNamed:configuration:]"
    private let lookup = "-[_UIAssetManager imageNamed:configuration:cachingOptions:attachCatalogImage:]"
    private let coreUI =
        "-[CUICatalog namedLookupWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]"
    private let swiftUI =
        "-[CUICatalog imageWithName:scaleFactor:deviceIdiom:deviceSubtype:displayGamut:layoutDirection:sizeClassHorizontal:sizeClassVertical:appearanceName:locale:]"

    func testNestedCallsOfOneRequestAreOneLoadAndRepeatsStayRepeats() throws {
        let (events, summary) = try read([
            ("main", named, "AppIcon"), ("main", funnel, "AppIcon"), ("main", manager, "AppIcon"), ("main", lookup, "AppIcon"), ("main", coreUI, "AppIcon"),
            // A cell asks on every row: the same API again is a request of its own (cache hits stop at the funnel).
            ("main", named, "Placeholder"), ("main", funnel, "Placeholder"),
            ("main", named, "Placeholder"), ("main", funnel, "Placeholder"),
            // A direct call of the funnel is its own request, even for a name just loaded.
            ("main", funnel, "Placeholder"),
            // A trait change: the image asset shows no name, CoreUI does.
            ("main", "-[UIImageAsset imageWithConfiguration:]", nil), ("main", swiftUI, "header"),
            // SwiftUI re-evaluating a body asks twice.
            ("main", swiftUI, "promo"), ("main", swiftUI, "promo"),
            // A data asset: the catalog is handed back, then the data is looked up.
            ("main", "-[NSDataAsset initWithName:bundle:]", "config"), ("main", "+[CUICatalog defaultUICatalogForBundle:]", nil),
            ("main", "-[CUICatalog dataWithName:]", "config"),
        ])
        XCTAssertEqual(events.map(\.name), ["AppIcon", "Placeholder", "Placeholder", "Placeholder", "header", "promo", "promo", "config"])
        XCTAssertEqual(events.map { $0.kind?.rawValue ?? "?" }, ["code", "code", "code", "code", "trait", "swiftui", "swiftui", "data"])
        XCTAssertEqual(events.map(\.hits), [5, 2, 2, 1, 2, 1, 1, 3])
        XCTAssertEqual(events.map(\.api), [named, named, named, funnel, "-[UIImageAsset imageWithConfiguration:]", swiftUI, swiftUI, "-[NSDataAsset initWithName:bundle:]"])
        XCTAssertEqual(events.map(\.seq), Array(1...8))
        XCTAssertEqual(summary.hits, 8)
        XCTAssertEqual(summary.mergedHits, 9)
        XCTAssertEqual(summary.kinds, [.code: 4, .trait: 1, .swiftui: 2, .data: 1])
        XCTAssertEqual(summary.names.first { $0.name == "Placeholder" }?.count, 3)
    }

    /// Two threads interleave: each thread's nested hits join its own request, never the other's.
    func testInterleavedThreadsMergeWithinTheirOwnThread() throws {
        let (events, _) = try read([
            ("main", named, "tab_home"), ("worker 2", named, "tab_home"), ("main", funnel, "tab_home"),
            ("worker 2", funnel, "tab_home"), ("main", manager, "tab_home"), ("worker 2", named, "thumb"),
        ])
        XCTAssertEqual(events.map(\.name), ["tab_home", "tab_home", "thumb"])
        XCTAssertEqual(events.map(\.thread), ["main", "worker 2", "worker 2"])
        XCTAssertEqual(events.map(\.hits), [3, 2, 1])
    }

    /// Hits whose API the log does not tell are never merged: the classic `po $arg3` capture.
    func testHitsWithoutAnAPIAreNeverMerged() throws {
        let text = "(lldb)  po $arg3\nAppIcon\n(lldb)  po $arg3\nAppIcon\n"
        let (events, summary) = try TraceReader.read(Array(text.utf8))
        XCTAssertEqual(events.map(\.name), ["AppIcon", "AppIcon"])
        XCTAssertEqual(events.map(\.kind), [nil, nil])
        XCTAssertEqual(summary.mergedHits, 0)
    }

    /// imgtrace's callback prints each request once, with its kind (`[thread] (kind) api: "name"`):
    /// such a line is a whole request, never merged, even next to another of the same name.
    func testCallbackLinesAreWholeRequestsWithTheirKind() throws {
        let log = """
            [main] (nib) -[UIImageNibPlaceholder initWithCoder:]: "header_logo"
            [main] (trait) -[UIImageAsset imageWithConfiguration:]: "header_logo"
            [main] (code) +[UIImage imageNamed:]: "AppIcon"
            [main] (code) +[UIImage imageNamed:inBundle:withConfiguration:]: "AppIcon"
            [worker] (symbol) +[UIImage systemImageNamed:]: None
            2026-11-23 10:00:00.100 [main] (data) -[NSDataAsset initWithName:bundle:]: "config"
            [main] (code) +[UIImage imageNamed:]: <unread: no memory at 0x10>
            [INFO] loader: "not a request"

            """
        let (events, summary) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.map(\.kind), [.nib, .trait, .code, .code, .symbol, .data, .code])
        XCTAssertEqual(events.map(\.name), ["header_logo", "header_logo", "AppIcon", "AppIcon", nil, "config", nil])
        XCTAssertEqual(events.map(\.status), [.ok, .ok, .ok, .ok, .nil, .ok, .error])
        XCTAssertEqual(events[6].detail, "the capture could not read the name: no memory at 0x10")
        XCTAssertEqual(events[4].thread, "worker")
        XCTAssertEqual(events[5].timestamp, "2026-11-23 10:00:00.100")
        XCTAssertEqual(summary.mergedHits, 0)
    }

    /// lldb skips the commands of threads that stopped together with the one whose callback ran
    /// an expression; the callback read them and says so first. Warnings it did not announce are
    /// lost hits, counted.
    func testAnnouncedSkipsLoseNothingAndOthersAreCounted() throws {
        let warning = "warning: hit breakpoint while running function, skipping commands and conditions to prevent recursion"
        let log = """
            imgtrace-covered 2
            [main] (code) +[UIImage imageNamed:]: "AppIcon"
            [worker] (code) +[UIImage imageNamed:]: "icon"
            [render] (code) +[UIImage imageNamed:]: "icon"
            \(warning)
            \(warning)
            [main] (code) +[UIImage imageNamed:]: "tab"
            \(warning)

            """
        let (events, summary) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.filter { $0.status == .ok }.count, 4)
        XCTAssertEqual(summary.statusCounts[.skipped], 1, "the third warning was announced by no callback")
    }
}
