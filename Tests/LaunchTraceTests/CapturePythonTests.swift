import Foundation
import TestSupport
import XCTest

@testable import LaunchTrace

/// The debugger callback's Python lives in `Sources/LaunchTrace/Python/*.py` (issue 62): each
/// file and each whole script the captures write must be Python its own parser accepts, so a
/// slip in a resource fails here, not in a debugger at a user's breakpoint.
final class CapturePythonTests: XCTestCase {
    private let python = "/usr/bin/python3"

    func testEveryResourceFileIsPython() throws {
        let folder = Corpus.packageRoot.appendingPathComponent("Sources/LaunchTrace/Python")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".py") }.sorted()
        XCTAssertEqual(files.count, 8, "every part of the callback is a file: \(files)")
        try assertParses(files.map { (name: $0, text: try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)) })
    }

    func testEveryScriptTheCapturesWriteIsPython() throws {
        let options = [CaptureOptions(), CaptureOptions(backtraceFrames: 8, timestamps: true), CaptureOptions(arch: .x86_64, symbols: ["load_icon"], launchEndSymbol: nil)]
        var scripts: [(name: String, text: String)] = []
        for (index, option) in options.enumerated() {
            scripts.append(("lldb-\(index)", CaptureCallback.lldb(option)))
            scripts.append(("gdb-\(index)", CaptureCallback.gdb(option)))
        }
        scripts.append(("lldb-launch-end", CaptureCallback.lldbLaunchEnd))
        scripts.append(("gdb-launch-end", CaptureCallback.gdbLaunchEnd))
        XCTAssertTrue(CaptureCallback.lldbLaunchEnd.contains("print('\(LaunchMarker.text)')"), "the marker is put in its place")
        XCTAssertFalse(CaptureCallback.gdbLaunchEnd.contains("@IMGTRACE"))
        try assertParses(scripts)
    }

    /// Hands every text to `ast.parse`; a syntax error names its part, line and message.
    private func assertParses(_ parts: [(name: String, text: String)]) throws {
        guard FileManager.default.isExecutableFile(atPath: python) else { throw XCTSkip("needs python3 at \(python)") }
        let scratch = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var paths: [String] = []
        for part in parts {
            let url = scratch.appendingPathComponent(part.name.replacingOccurrences(of: "/", with: "_"))
            try Data(part.text.utf8).write(to: url)
            paths.append(url.path)
        }
        let checker = """
            import ast, sys
            bad = 0
            for path in sys.argv[1:]:
                try:
                    ast.parse(open(path).read(), path)
                except SyntaxError as error:
                    print('%s:%s: %s' % (path, error.lineno, error.msg))
                    bad += 1
            sys.exit(1 if bad else 0)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", checker] + paths
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, said)
    }
}
