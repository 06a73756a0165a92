import Foundation
import XCTest

/// Byte-for-byte comparison with a committed golden file.
///
/// With `IMGTRACE_UPDATE_GOLDEN=1` a golden file that differs is rewritten, and the test still
/// fails, naming it: an update is a change to review (`git diff`), never a silent pass. Run again
/// without the variable to see it pass.
enum Golden {
    static var updating: Bool { ProcessInfo.processInfo.environment["IMGTRACE_UPDATE_GOLDEN"] == "1" }

    static func check(_ actual: Data, against url: URL, file: StaticString = #filePath, line: UInt = #line) {
        let expected = try? Data(contentsOf: url)
        guard expected != actual else { return }
        if updating {
            do {
                try actual.write(to: url)
                XCTFail("rewrote \(url.lastPathComponent): review the diff, then run again without IMGTRACE_UPDATE_GOLDEN", file: file, line: line)
            } catch {
                XCTFail("cannot rewrite \(url.path): \(error)", file: file, line: line)
            }
            return
        }
        guard let expected else {
            XCTFail("no golden file \(url.path); create it with IMGTRACE_UPDATE_GOLDEN=1", file: file, line: line)
            return
        }
        XCTAssertEqual(
            String(decoding: actual, as: UTF8.self), String(decoding: expected, as: UTF8.self),
            "differs from \(url.lastPathComponent)", file: file, line: line)
    }
}
