import Foundation
import TestSupport
import XCTest

/// Captures of an app on a model of modern UIKit (`Tests/Models/ModernUIKit`: iOS 18's image
/// call graph as C functions carrying the real method names, built by clang without debug
/// information; ../shared/docs/apple-image-paths.md), made by a real lldb and read by
/// `imgtrace trace`, checked against the app's own record of its requests.
///
/// It stands in for a device launch: lldb finds the methods by name as it finds UIKit's, and
/// evaluates `[(id)$arg3 UTF8String]` through the model's `objc_msgSend`. What it cannot show is
/// lldb's NSString formatter, which exists on Apple platforms only.
final class ModernUIKitCaptureTests: XCTestCase {
    private var work: URL!
    private var app: URL!

    /// A clang that can build the model (the asm labels hold `+[…]` names), and lldb-16 or another.
    private static let clang = ["/opt/swift/usr/bin/clang", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
    private static let lldb = ["/usr/bin/lldb-16", "/usr/bin/lldb"].first { FileManager.default.isExecutableFile(atPath: $0) }

    override func setUpWithError() throws {
        guard let clang = Self.clang, Self.lldb != nil else { throw XCTSkip("the model needs clang and lldb (CI installs lldb-16)") }
        work = try BinaryRunner.temporaryDirectory()
        let models = Corpus.packageRoot.appendingPathComponent("Tests/Models/ModernUIKit")
        let library = work.appendingPathComponent("libModernUIKit.so")
        app = work.appendingPathComponent("ModernApp")
        try run(clang, ["-O1", "-fPIC", "-shared", "-o", library.path, models.appendingPathComponent("ModernUIKit.c").path])
        try run(
            clang,
            [
                "-O1", "-pthread", "-o", app.path, models.appendingPathComponent("ModernApp.c").path, "-L", work.path, "-lModernUIKit",
                "-Wl,-rpath," + work.path,
            ])
    }

    override func tearDownWithError() throws {
        if let work { try? FileManager.default.removeItem(at: work) }
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments.joined(separator: " "))")
    }

    /// Runs the app under lldb with `commands` sourced; returns the console and the app's record.
    private func capture(_ commands: String, arguments: [String] = []) throws -> (log: URL, record: [(kind: String, entry: String, name: String)]) {
        let script = work.appendingPathComponent("capture.lldb"), log = work.appendingPathComponent("launch.log")
        let record = work.appendingPathComponent("record.tsv")
        try commands.write(to: script, atomically: true, encoding: .utf8)
        let lldb = Process()
        lldb.executableURL = URL(fileURLWithPath: Self.lldb!)
        lldb.arguments = ["-b", "-s", script.path, "-o", "run", "--", app.path, record.path] + arguments
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        lldb.standardOutput = handle
        lldb.standardError = handle
        lldb.standardInput = FileHandle.nullDevice
        try lldb.run()
        lldb.waitUntilExit()
        try handle.close()
        let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
        return (
            log,
            lines.map { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return (fields[0], fields[1], fields[2])
            }
        )
    }

    /// What `imgtrace trace` reads: loads per name, and per kind and name.
    private func read(_ log: URL) throws -> (names: [String: Int], kinds: [String: Int]) {
        let result = try BinaryRunner.run(["trace", log.path, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any])
        let events = try XCTUnwrap(document["events"] as? [[String: Any]])
        var names: [String: Int] = [:], kinds: [String: Int] = [:]
        for event in events {
            let name = event["name"] as? String ?? "(none)"
            names[name, default: 0] += 1
            kinds["\(event["kind"] as? String ?? "?") \(name)", default: 0] += 1
        }
        return (names, kinds)
    }

    private func namesRead(_ log: URL) throws -> [String: Int] { try read(log).names }

    /// Every Objective-C method the model library defines, as `nm` lists them.
    private func modelMethods() throws -> [String] {
        let nm = Process(), pipe = Pipe()
        nm.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        nm.arguments = ["nm", "-D", "--defined-only", work.appendingPathComponent("libModernUIKit.so").path]
        nm.standardOutput = pipe
        try nm.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        nm.waitUntilExit()
        return text.split(separator: "\n").compactMap { line in
            guard let start = line.range(of: " T ")?.upperBound else { return nil }
            let symbol = String(line[start...])
            return symbol.hasPrefix("+[") || symbol.hasPrefix("-[") ? symbol : nil
        }
    }

    /// A capture that breaks on every image method (what a thorough user, or an older script,
    /// sets), each action told apart by a comment: a storyboard image passes five asset-manager
    /// methods and CoreUI, a code request the public methods that call each other. Each request
    /// reads as one load of its kind, exactly the app's record.
    func testABreakpointOnEveryMethodCountsEachRequestOnceWithItsKind() throws {
        let methods = try modelMethods()
        XCTAssertGreaterThan(methods.count, 20)
        let commands = methods.map { #"breakpoint set -n "\#($0)" -G true -C "p (const char *)[(id)$arg3 UTF8String] /* \#($0) */""# }
        let (log, record) = try capture(commands.joined(separator: "\n") + "\n")
        var expected: [String: Int] = [:]
        for request in record { expected["\(request.kind) \(request.name)", default: 0] += 1 }
        let console = try String(contentsOf: log, encoding: .utf8)
        XCTAssertEqual(try read(log).kinds, expected, console)
    }

    /// The model app makes every kind of request, and runs to its end under the debugger.
    func testTheModelAppRecordsEveryKindOfRequest() throws {
        let (_, record) = try capture("")
        XCTAssertEqual(Set(record.map(\.kind)), ["code", "nib", "swiftui", "symbol", "trait", "data", "file"])
        XCTAssertEqual(record.count, 17)
    }

    /// Seed 003's technique — one symbolic breakpoint on the selector `imageNamed:` — sees each
    /// request made through `+[UIImage imageNamed:]` and each storyboard or nib image (whose
    /// placeholder calls `-[_UIAssetManager imageNamed:]`) exactly once, and nothing else.
    func testTheSeedTechniqueSeesCodeAndNibRequestsExactlyOnce() throws {
        let (log, record) = try capture(#"breakpoint set -n imageNamed: -G true -C "p (const char *)[(id)$arg3 UTF8String]""# + "\n")
        var expected: [String: Int] = [:]
        for request in record where request.entry == "+[UIImage imageNamed:]" || request.kind == "nib" { expected[request.name, default: 0] += 1 }
        XCTAssertEqual(expected, ["AppIcon": 1, "tab_home": 2, "Placeholder": 5, "header_logo": 1], "the model's record")
        let console = try String(contentsOf: log, encoding: .utf8)
        XCTAssertEqual(try namesRead(log), expected, console)
    }
}
