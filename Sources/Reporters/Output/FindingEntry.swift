import AppBundle
import AuditModel
import ImgtraceSupport
import LaunchAudit

/// A finding as the reports for people (text, Markdown, HTML) show it — or, once a rule has
/// `groupedNotes` notes with the same fix, all of them as one entry: nine loose files are one
/// thing to do, not nine. A group prints its fix once, so only findings that share it join:
/// a toolkit's repeated lookups ("nothing to change") never hide the app's own ("look the image
/// up once"). Machine formats keep one finding each.
struct FindingEntry {
    var findings: [Finding]
    /// Their positions in the list they came from.
    var indices: [Int] = []

    /// A rule with at least this many notes shows them as one entry.
    static let groupedNotes = 3

    var first: Finding { findings[0] }

    /// Notes join a group when their rule and their kind of fix (with its figures) are the same.
    private struct GroupKey: Hashable {
        var rule: String
        var fix: FixKind
    }

    /// Findings in report order, a rule's notes grouped where the first of them stood.
    static func forReading(_ findings: FindingList) -> [FindingEntry] {
        var entries: [FindingEntry] = []
        forEach(in: findings) { entries.append($0) }
        return entries
    }

    /// Whose lookups a finding is about: the app's own, or the toolkit's (which never gate and
    /// ask nothing of the app, so reports list them apart, after the app's).
    enum Part {
        case app, toolkit

        func holds(_ findings: FindingList, at index: Int) -> Bool { findings.gates(at: index) == (self == .app) }
    }

    /// How many findings of `part` each severity has.
    static func severityCounts(_ findings: FindingList, part: Part) -> [Severity: Int] {
        var counts: [Severity: Int] = [:]
        for index in findings.indices where part.holds(findings, at: index) { counts[findings.severity(at: index), default: 0] += 1 }
        return counts
    }

    /// How many findings `part` has.
    static func count(_ findings: FindingList, part: Part) -> Int { findings.indices.count { part.holds(findings, at: $0) } }

    /// Each entry in report order (of one severity and one part, when given), its findings built
    /// as it is reached: a list of a million findings is read one at a time.
    static func forEach(in findings: FindingList, severity: Severity? = nil, part: Part? = nil, _ body: (FindingEntry) -> Void) {
        func wanted(_ index: Int) -> Bool { part?.holds(findings, at: index) ?? true }
        var notesByRule: [String: Int] = [:]
        if severity == nil || severity == .note {
            for index in findings.indices where findings.severity(at: index) == .note && wanted(index) {
                notesByRule[findings.rule(at: index), default: 0] += 1
            }
        }
        // Notes of a rule with enough of them go by (rule, fix kind): a group per kind of fix, as a
        // small id per finding (only those notes' findings are built here to read their fix).
        var groupOf = [Int32](repeating: -1, count: notesByRule.values.contains { $0 >= groupedNotes } ? findings.count : 0)
        var groupIDs: [GroupKey: Int32] = [:]
        var groupSizes: [Int] = []
        for index in findings.indices where !groupOf.isEmpty && findings.severity(at: index) == .note && wanted(index) {
            let rule = findings.rule(at: index)
            guard notesByRule[rule, default: 0] >= groupedNotes else { continue }
            let key = GroupKey(rule: rule, fix: findings[index].fixKind)
            let id = groupIDs[key] ?? Int32(groupSizes.count)
            if id == groupSizes.count {
                groupIDs[key] = id
                groupSizes.append(0)
            }
            groupSizes[Int(id)] += 1
            groupOf[index] = id
        }
        var emitted = Set<Int32>()
        for index in findings.indices {
            let level = findings.severity(at: index)
            guard severity == nil || level == severity, wanted(index) else { continue }
            let group = groupOf.isEmpty ? -1 : groupOf[index]
            if group < 0 || groupSizes[Int(group)] < groupedNotes {
                body(FindingEntry(findings: [findings[index]], indices: [index]))
            } else if emitted.insert(group).inserted {
                let members = findings.indices.filter { groupOf[$0] == group }
                body(FindingEntry(findings: members.map { findings[$0] }, indices: members))
            }
        }
    }

    /// What the baseline says of the entry: `new` when any member is, `worse` for a figure, else `accepted`; nil without one.
    func baselineWord(_ states: FindingStates) -> String? {
        let seen = indices.compactMap(states.state)
        guard !seen.isEmpty else { return nil }
        if seen.contains(.updated) { return "worse" }
        return seen.contains(.new) ? "new" : "accepted"
    }

    /// For a group, `9 findings: ` and each one's subject as `quote` writes it; nil for one finding.
    func groupSummary(_ quote: (String) -> String) -> String? {
        guard findings.count > 1 else { return nil }
        return "\(findings.count) findings: " + findings.map { quote($0.subject) }.joined(separator: ", ")
    }

    /// The fix, said for each member of a group (a rule's fix speaks of one image: "Move it …").
    var fix: Phrase {
        let own = first.fixKind.phrase
        guard findings.count > 1 else { return own }
        guard case .words(let words)? = own.parts.first, let initial = words.first else { return "For each: \(own)" }
        return Phrase(parts: [.words("For each: " + initial.lowercased() + words.dropFirst())] + own.parts.dropFirst())
    }

    /// Where to edit a single finding (`path:line` under the source root), when it has a place.
    func editPlace(_ result: some CommandResult) -> String? {
        guard findings.count == 1, let root = result.sourceRoot else { return nil }
        func place(_ location: SourceLocation) -> String {
            PathText.resolve(location.path, against: root) + (location.position.map { ":\($0.line)" } ?? "")
        }
        // Other code that names it, relative to the source root (`alsoNamedAt`), follows.
        let also: String
        if case .string(let others)? = first.values["alsoNamedAt"] { also = "; also named at " + others } else { also = "" }
        switch (first.code, first.source) {
        case let (code?, source?): return place(code) + " (asset: " + place(source) + ")" + also
        case let (code?, nil): return place(code) + also
        case let (nil, source?): return place(source)
        case (nil, nil): return nil
        }
    }

    /// Every log line of the entry, sorted.
    var lines: [LogLine] { findings.count == 1 ? first.lines : Array(findings.flatMap(\.lines).sorted().prefix(Finding.maxLines)) }

    /// Loads involved, over the whole entry.
    var occurrences: Int { findings.map(\.occurrences).reduce(0, +) }
}
