import AppBundle
import AuditModel
import AuditRules

/// What ranks and identifies a finding.
public struct FindingRank: Sendable, Equatable {
    public var rule: String
    public var severity: Severity
    public var fingerprint: String
    /// Whether it can fail the run (`Finding.gates`).
    public var gates = true
    /// What schema-1 baselines called it (`Finding.formerFingerprints`).
    public var formerFingerprints: [String] = []
    /// The image's rules that fired (`Finding.foldedRules`).
    public var foldedRules: [String] = []
}

/// Findings in report order.
///
/// A finding of a `NameRule` is held as what ranks it (severity, cost, loads, rule, fingerprint)
/// and the place of its name in the audit's uses, 56 bytes, and built again when read; other
/// findings are held whole. Reading gives the same `Finding` either way.
public struct FindingList: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral, Sendable, Equatable {
    struct Entry: Sendable {
        var rule: String
        var severity: Severity
        var gates: Bool
        var cost: Int
        var occurrences: Int
        var fingerprint: UInt64
        /// Index into `built`, or -1 for a name finding built from `uses[use]`.
        var built: Int32
        var use: Int32
    }

    private var entries: [Entry] = []
    private var built: [Finding] = []
    private var uses: [NameUse] = []
    private var nameContext: NameRuleContext?
    /// Where in the source tree name findings are fixed (`--source-root`), by position: kept
    /// beside their ranks, so mapping a million names does not build a million findings.
    private var namePlaces: [Int32: SourcePlaces] = [:]

    /// Where a finding is fixed in the source tree.
    package struct SourcePlaces: Sendable {
        var source: SourceLocation?
        var code: SourceLocation?
        /// Further lines of code that name it, as `alsoNamedAt` says them.
        var alsoNamedAt: String?

        func apply(to finding: inout Finding) {
            if let source { finding.source = source }
            if let code { finding.code = code }
            if let alsoNamedAt { finding.values["alsoNamedAt"] = .string(alsoNamedAt) }
        }
    }

    /// How many findings are held whole (the others are ranks built again when read).
    package var wholeCount: Int { built.count }

    /// Gives the finding at `position` its places in the source tree, without building it when
    /// it is a name finding.
    package mutating func locate(at position: Int, source: SourceLocation?, code: SourceLocation?, alsoNamedAt: String?) {
        let places = SourcePlaces(source: source, code: code, alsoNamedAt: alsoNamedAt)
        let entry = entries[position]
        if entry.built >= 0 {
            places.apply(to: &built[Int(entry.built)])
        } else if source != nil || code != nil || alsoNamedAt != nil {
            namePlaces[Int32(position)] = places
        }
    }

    public init(arrayLiteral findings: Finding...) { self.init(findings) }

    /// These findings, in the order given.
    public init(_ findings: [Finding]) {
        built = findings
        entries = findings.indices.map { Self.entry(findings[$0], built: $0, use: -1) }
    }

    private static func entry(_ finding: Finding, built: Int, use: Int) -> Entry {
        Entry(
            rule: finding.rule, severity: finding.severity, gates: finding.gates, cost: finding.cost, occurrences: finding.occurrences,
            fingerprint: UInt64(finding.fingerprint, radix: 16) ?? 0, built: Int32(built), use: Int32(use))
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    public subscript(position: Int) -> Finding {
        get {
            let entry = entries[position]
            if entry.built >= 0 { return built[Int(entry.built)] }
            guard let context = nameContext, let rule = Rules.named(entry.rule) as? any NameRule.Type,
                var finding = rule.finding(for: uses[Int(entry.use)], in: context)
            else { preconditionFailure("a name finding's rule no longer fires for its name") }
            finding.severity = entry.severity
            finding.gates = entry.gates
            if !namePlaces.isEmpty { namePlaces[Int32(position)]?.apply(to: &finding) }
            return finding
        }
        set {
            // A finding written back is held whole from then on.
            if entries[position].built < 0 {
                entries[position].built = Int32(built.count)
                built.append(newValue)
            } else {
                built[Int(entries[position].built)] = newValue
            }
        }
    }

    public static func == (a: FindingList, b: FindingList) -> Bool { a.elementsEqual(b) }

    /// Rule, severity and fingerprint of the finding at `position`, without building it.
    public func rank(at position: Int) -> FindingRank {
        let entry = entries[position]
        if entry.built >= 0 {
            let finding = built[Int(entry.built)]
            return FindingRank(
                rule: finding.rule, severity: finding.severity, fingerprint: finding.fingerprint, gates: finding.gates,
                formerFingerprints: finding.formerFingerprints, foldedRules: finding.foldedRules)
        }
        return FindingRank(rule: entry.rule, severity: entry.severity, fingerprint: Finding.hexDigits(entry.fingerprint), gates: entry.gates)
    }

    /// The severity of the finding at `position`, without building it.
    public func severity(at position: Int) -> Severity {
        let entry = entries[position]
        return entry.built >= 0 ? built[Int(entry.built)].severity : entry.severity
    }

    /// Whether the finding at `position` can fail the run, without building it.
    public func gates(at position: Int) -> Bool {
        let entry = entries[position]
        return entry.built >= 0 ? built[Int(entry.built)].gates : entry.gates
    }

    /// The rule of the finding at `position`, without building it.
    public func rule(at position: Int) -> String {
        let entry = entries[position]
        return entry.built >= 0 ? built[Int(entry.built)].rule : entry.rule
    }

    /// Every finding's rank, in order: what counting, failing and baselines need, without building findings.
    public var ranks: LazyMapCollection<Range<Int>, FindingRank> { indices.lazy.map { rank(at: $0) } }

    /// Collects the findings of one audit, then ranks them in report order.
    struct Builder {
        private var list = FindingList()

        /// `uses` are the audit's names in their final order; a name finding refers to one by index.
        init(uses: [NameUse], context: NameRuleContext) {
            list.uses = uses
            list.nameContext = context
        }

        mutating func add(_ finding: Finding) {
            list.entries.append(FindingList.entry(finding, built: list.built.count, use: -1))
            list.built.append(finding)
        }

        /// A finding `rule` builds from `uses[use]` alone; `finding` is that, with severity decided.
        mutating func add(nameFinding finding: Finding, use: Int) {
            list.entries.append(FindingList.entry(finding, built: -1, use: use))
        }

        /// Most severe first, then the costliest, the most loads, by rule and fingerprint.
        consuming func ranked() -> FindingList {
            var list = self.list
            let built = list.built
            // Sort positions (4 bytes each) rather than entries: the sort's scratch is the size of what it sorts.
            var order = Array(0..<Int32(list.entries.count))
            list.entries.withUnsafeBufferPointer { entries in
                order.sort { i, j in
                    let a = entries[Int(i)], b = entries[Int(j)]
                    if a.severity != b.severity { return a.severity < b.severity }
                    if a.cost != b.cost { return a.cost > b.cost }
                    if a.occurrences != b.occurrences { return a.occurrences > b.occurrences }
                    if a.rule != b.rule { return a.rule < b.rule }
                    if a.fingerprint != b.fingerprint { return a.fingerprint < b.fingerprint }
                    if a.built >= 0, b.built >= 0 { return built[Int(a.built)].fingerprint < built[Int(b.built)].fingerprint }
                    return false
                }
            }
            list.entries.permute(by: order)
            return list
        }
    }
}

extension Array {
    /// Puts `self[order[k]]` at `k` for every `k`, in place: cycles are followed, nothing is copied whole.
    mutating func permute(by order: [Int32]) {
        precondition(order.count == count)
        var placed = [Bool](repeating: false, count: count)
        for start in indices where !placed[start] {
            var k = start
            let first = self[start]
            while true {
                placed[k] = true
                let from = Int(order[k])
                if from == start { self[k] = first; break }
                self[k] = self[from]
                k = from
            }
        }
    }
}
