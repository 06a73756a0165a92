#if os(Linux)
    import Foundation
    import NativeTrace
    import XCTest

    /// The byte reader of `/proc/PID/maps` against this process's own maps, line by line.
    final class ProcessMapsTests: XCTestCase {
        func testThisProcesssMapsReadLineByLine() throws {
            let own = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
            let lines = own.split(separator: "\n")
            let read = MemoryMapping.parse(own)
            XCTAssertEqual(read.count, lines.count)
            for (line, mapping) in zip(lines, read) {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                let range = fields[0].split(separator: "-")
                XCTAssertEqual(UInt64(range[0], radix: 16), mapping.start, String(line))
                XCTAssertEqual(UInt64(range[1], radix: 16), mapping.end, String(line))
                XCTAssertEqual(UInt64(fields[2], radix: 16), mapping.offset, String(line))
                XCTAssertEqual(fields[1].contains("x"), mapping.executable, String(line))
                if fields.count >= 6, fields[5].hasPrefix("/"), !line.hasSuffix(" (deleted)") {
                    XCTAssertEqual(mapping.path, fields[5...].joined(separator: " "), String(line))
                }
            }
        }
    }
#endif
