import Foundation
import TestSupport
import XCTest

/// A group of notes prints one fix: only findings that share it are grouped. On Debian's Gridlock
/// the toolkit's repeated lookups ("nothing to change") and the app's own ("look the image up
/// once") are two groups, each with its own fix.
final class NoteGroupTests: XCTestCase {
    func testEachGroupOfNotesSharesOneFix() throws {
        guard let corpus = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        let gridlock = corpus.appendingPathComponent("e2e/gridlock")
        let arguments = [
            "analyze", gridlock.appendingPathComponent("b-gridlock-lldb-nsprint.txt").path,
            "--bundle", gridlock.appendingPathComponent("Gridlock.app").path,
            "--system-images", gridlock.appendingPathComponent("system-images").path, "--fail-on", "never",
        ]
        let json = try BinaryRunner.run(arguments + ["--format", "json"])
        let findings = try XCTUnwrap((JSONSerialization.jsonObject(with: json.stdout) as? [String: Any])?["findings"] as? [[String: Any]])
        var fixOf: [String: String] = [:]  // rule + name → fix
        for finding in findings {
            for name in finding["names"] as? [String] ?? [] { fixOf["\(finding["rule"]!) \(name)"] = finding["fix"] as? String }
        }
        let text = try BinaryRunner.run(arguments).stdoutText.replacingOccurrences(of: "\n      `", with: " `")
        var groups = 0
        for line in text.split(separator: "\n") where line.contains(" findings: `") {
            let rule = line.trimmingCharacters(in: .whitespaces).split(separator: ":")[0]
            let names = line.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            let fixes = Set(names.compactMap { fixOf["\(rule) \($0)"] })
            XCTAssertEqual(fixes.count, 1, "\(line): \(fixes)")
            groups += 1
        }
        XCTAssertGreaterThanOrEqual(groups, 2, "the toolkit's and the app's repeated lookups are groups of their own")
        XCTAssertTrue(text.contains("`blue.tiff`"), text)
    }
}
