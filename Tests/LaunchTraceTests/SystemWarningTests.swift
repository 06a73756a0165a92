@testable import LaunchTrace
import XCTest

/// The system's own warnings of a missing image, read as loads in any console or debugger log:
/// SwiftUI's `No image named`/`No symbol named`, UIKit's nib warning, CoreUI's invalid name. A
/// warning just after a captured hit of the same name is that hit's request: one load.
final class SystemWarningTests: XCTestCase {
    private let stamp = "2026-11-21 09:14:02.218204+0100 App[4242:118204] "

    func testEachShapeIsALoadWithItsKindAndLine() throws {
        let log = [
            stamp + "application:didFinishLaunchingWithOptions:",
            stamp + "No image named 'brand_logo' found in asset catalog for /private/var/containers/Bundle/Application/5C3A/App.app",
            "No image named 'it's_quoted' found in asset catalog for main bundle",
            stamp + "No symbol named 'star.fill.nope' found in system symbol set",
            stamp + #"Could not load the "banner" image referenced from a nib in the bundle with identifier "com.example.App""#,
            stamp + "[framework] CUICatalog: Invalid asset name supplied: '(null)'",
            "CUICatalog: Invalid asset name supplied: ''",
            // Not the shapes: a colour, a sentence quoting a name, a truncated warning.
            stamp + "No color named 'brand' found in asset catalog for main bundle",
            "the banner said: No image named 'x'",
        ].joined(separator: "\n")
        let (events, summary) = try TraceReader.read(Array(log.utf8))
        XCTAssertEqual(events.map(\.name), ["brand_logo", "it's_quoted", "star.fill.nope", "banner", nil, nil])
        XCTAssertEqual(events.map(\.status), [.ok, .ok, .ok, .ok, .nil, .empty])
        XCTAssertEqual(events.map(\.kind), [.swiftui, .swiftui, .symbol, .nib, .code, .code])
        XCTAssertEqual(events.map(\.line), [2, 3, 4, 5, 6, 7])
        XCTAssertTrue(events.allSatisfy(\.fromSystemWarning))
        XCTAssertEqual(summary.systemWarningLoads, 6)
        XCTAssertEqual(summary.warnings.map(\.message).filter { $0.contains("a partial launch") }.count, 1, "only warnings: said")
    }

    /// The breakpoint caught the request and the system logged it failing: one load, in a console
    /// without echoes (`po $arg3`, Xcode) and in an lldb session with its echoes.
    func testAWarningAfterTheHitOfTheSameRequestIsThatLoad() throws {
        let bare = ["logo", stamp + "No image named 'logo' found in asset catalog for main bundle", "<nil>", stamp + "CUICatalog: Invalid asset name supplied: '(null)'"]
        let (events, summary) = try TraceReader.read(Array(bare.joined(separator: "\n").utf8), options: TraceOptions())
        XCTAssertEqual(events.map(\.name), ["logo", nil])
        XCTAssertFalse(events.contains(where: \.fromSystemWarning))
        XCTAssertEqual(summary.systemWarningLoads, 0)
        XCTAssertFalse(summary.warnings.contains { $0.message.contains("partial launch") })

        let echoed = [
            "(lldb)  po $arg3", "logo", stamp + "No image named 'logo' found in asset catalog for main bundle",
            "(lldb)  po $arg3", "hero", stamp + "No image named 'other' found in asset catalog for main bundle",
        ]
        let (echoedEvents, _) = try TraceReader.read(Array(echoed.joined(separator: "\n").utf8), options: TraceOptions())
        XCTAssertEqual(echoedEvents.map(\.name), ["logo", "hero", "other"], "a warning of another name is a request of its own")
        XCTAssertEqual(echoedEvents.map(\.fromSystemWarning), [false, false, true])
    }
}
