import AuditModel
import LaunchAudit
@testable import Reporters
import XCTest

/// Notes group by their rule and their kind of fix with its figures, never by comparing sentences.
final class FindingEntryTests: XCTestCase {
    private func note(_ name: String, _ fix: FixKind) -> Finding {
        var finding = Finding(rule: "missing-image", severity: .note, identity: name, device: "d", subject: name, message: "`\(name)` loads nothing", fix: fix)
        finding.gates = false
        return finding
    }

    func testNotesWithOneKindOfFixGroupAndAnotherKindStandsApart() {
        let list = FindingList([
            note("a", .addIdiomVariant(idiom: "pad")), note("b", .addIdiomVariant(idiom: "pad")), note("c", .addIdiomVariant(idiom: "phone")),
            note("d", .addIdiomVariant(idiom: "pad")),
        ])
        let entries = FindingEntry.forReading(list)
        XCTAssertEqual(entries.map { $0.findings.map(\.subject) }, [["a", "b", "d"], ["c"]])
        XCTAssertEqual(entries[0].fix, "For each: add a universal or pad variant.")
        XCTAssertEqual(entries[1].fix, "Add a universal or phone variant.")
    }

    func testTooFewNotesOfAKindStayOneEach() {
        let list = FindingList([note("a", .matchCase), note("b", .matchCase), note("c", .passExtension)])
        XCTAssertEqual(FindingEntry.forReading(list).map(\.findings.count), [1, 1, 1])
    }

    func testEveryFormatWithOneTextFieldSaysMessageThenFix() {
        let finding = note("a", .matchCase)
        XCTAssertEqual(FindingText.withFix(finding), "`a` loads nothing — fix: Match the name's case to the asset's exactly.")
    }
}
