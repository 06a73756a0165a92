import AppBundle
import Crypto

/// How bad a finding is. Ordered from most to least severe.
public enum Severity: String, Sendable, CaseIterable, Comparable {
    case error, warning, note

    public static func < (a: Severity, b: Severity) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A place in one of the analysed logs.
package struct LogLine: Sendable, Equatable, Comparable, Hashable {
    /// Index of the log among the inputs, in the order given.
    package var log: Int
    /// 1-based line.
    package var line: Int

    package init(log: Int, line: Int) {
        self.log = log
        self.line = line
    }

    package static func < (a: LogLine, b: LogLine) -> Bool { (a.log, a.line) < (b.log, b.line) }
}

/// A measured value attached to a finding.
package enum FindingValue: Sendable, Equatable {
    case int(Int)
    case number(Double)
    case string(String)
}

/// A finding's measured values by name, in key order. A finding holds two or three; an audit of
/// many names holds hundreds of thousands of findings, and a dictionary each costs twice the bytes.
package struct FindingValues: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    package typealias Element = (key: String, value: FindingValue)
    private var entries: [Element]

    package init(dictionaryLiteral elements: (String, FindingValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }

    /// The pairs; a later key replaces an earlier one.
    package init(_ pairs: [(key: String, value: FindingValue)]) {
        var sorted: [Element] = []
        sorted.reserveCapacity(pairs.count)
        for pair in pairs {
            if let at = sorted.firstIndex(where: { $0.key == pair.key }) { sorted[at] = pair } else { sorted.append(pair) }
        }
        sorted.sort { $0.key < $1.key }
        entries = sorted
    }

    package subscript(key: String) -> FindingValue? {
        get { entries.first { $0.key == key }?.value }
        set {
            let at = entries.firstIndex { $0.key == key }
            switch (at, newValue) {
            case let (at?, value?): entries[at].value = value
            case let (at?, nil): entries.remove(at: at)
            case let (nil, value?):
                entries.append((key, value))
                entries.sort { $0.key < $1.key }
            case (nil, nil): break
            }
        }
    }

    package var keys: [String] { entries.map(\.key) }
    package var isEmpty: Bool { entries.isEmpty }
    package var count: Int { entries.count }
    package func makeIterator() -> IndexingIterator<[Element]> { entries.makeIterator() }

    package static func == (a: FindingValues, b: FindingValues) -> Bool {
        a.entries.count == b.entries.count && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// One problem a rule found.
public struct Finding: Sendable, Equatable {
    /// The rule's stable id, e.g. `missing-image`.
    public package(set) var rule: String
    public package(set) var severity: Severity
    /// Stable across runs for the same problem: rule + normalised asset identity + device.
    public package(set) var fingerprint: String
    /// What it is about, as its message names it first: a name, an image, a file, a figure.
    /// Reports that list several findings in one line show this, never a part of the sentence.
    public package(set) var subject: String
    /// One sentence that names what and how much.
    package var message: Phrase
    /// The message as plain words (reporters quote its names by format; this is the sentence).
    public var messageText: String { message.description }
    /// What to do about it, as data (`fix` is its sentence).
    package var fixKind: FixKind
    /// What to do about it, in words.
    public var fix: String { fixKind.sentence }
    /// The names the app asked for, sorted.
    public package(set) var names: [String]
    /// Ids of the images involved, sorted.
    public package(set) var assets: [String]
    /// Bundle-relative paths of those images (a `.car` for renditions), sorted, without repeats.
    public package(set) var paths: [String]
    /// Log lines involved, sorted; at most `Finding.maxLines`.
    package var lines: [LogLine]
    /// Measured values by name.
    package var values: FindingValues
    /// Bytes this problem wastes (decoded or on disk); findings of one severity are ranked by it.
    public package(set) var cost: Int
    /// Loads involved; the tie-breaker after cost.
    public package(set) var occurrences: Int
    /// Where the developer fixes it in the app's sources (relative to the source root), when
    /// a source root was given and holds the asset or the interface document that names it.
    package var source: SourceLocation?
    /// The line of code that asks for one of its names (relative to the source root), when a
    /// source root was given and its Swift or Objective-C names it: where a missing or repeated
    /// name is fixed. `source` (the asset) stays a further location.
    package var code: SourceLocation?
    /// Whether the finding can fail the run. The toolkit's own lookups (`NameUse.isToolkits`)
    /// are reported as notes that never do, at any `--fail-on`.
    public package(set) var gates = true
    /// What the message says of its subject, without naming it (`decodes to 46.5 MiB …`): how
    /// another finding about the same image quotes this one as evidence. Set by image rules.
    package var claim: Phrase?
    /// Further facts about the same image from other rules of its family, folded into this one
    /// finding (`ImageFindings`): each rule's claim, severity and fix, most severe first.
    package var evidence: [Evidence] = []
    /// The fingerprints this problem had in baselines of schema 1, before one finding per image:
    /// a baseline that holds any of them holds this finding.
    public package(set) var formerFingerprints: [String] = []

    /// A fact another rule established about the same image, carried by the finding that folds it in.
    package struct Evidence: Sendable, Equatable {
        package var rule: String
        package var severity: Severity
        package var claim: Phrase
        package var fixKind: FixKind
        package var fix: String { fixKind.sentence }

        package init(rule: String, severity: Severity, claim: Phrase, fix: FixKind) {
            self.rule = rule
            self.severity = severity
            self.claim = claim
            self.fixKind = fix
        }
    }

    /// Whether `rule` found this problem: it is the finding's rule, or the finding carries its
    /// claim as evidence.
    package func isFound(by rule: String) -> Bool { self.rule == rule || evidence.contains { $0.rule == rule } }

    /// For a finding that folds an image's rules (`formerFingerprints` set): every rule that
    /// fired, sorted; a baseline accepts the image for these and no others. Empty otherwise.
    package var foldedRules: [String] { formerFingerprints.isEmpty ? [] : ([rule] + evidence.map(\.rule)).sorted() }

    /// More log lines than this are counted, not listed.
    package static let maxLines = 100

    package init(
        rule: String, severity: Severity, identity: String, device: String, subject: String? = nil, message: Phrase, fix: FixKind,
        names: [String] = [], assets: [String] = [], paths: [String] = [], lines: [LogLine] = [],
        values: FindingValues = [:], cost: Int = 0, occurrences: Int = 0
    ) {
        self.rule = rule
        self.severity = severity
        self.fingerprint = Finding.fingerprint(rule: rule, identity: identity, device: device)
        self.message = message
        self.fixKind = fix
        // Already in order (the usual case: one name, a use's lines): keep the caller's storage,
        // shared rather than copied, for an audit can hold a finding per name.
        self.names = Finding.ordered(names, strictly: false)
        self.assets = Finding.ordered(assets, strictly: false)
        self.paths = Finding.ordered(paths, strictly: true)
        let sortedLines = Finding.ordered(lines, strictly: false)
        self.lines = sortedLines.count <= Finding.maxLines ? sortedLines : Array(sortedLines.prefix(Finding.maxLines))
        self.values = values
        self.cost = cost
        self.occurrences = occurrences
        self.subject = subject ?? self.names.first ?? self.assets.first ?? rule
    }

    /// `values` sorted (without repeats when `strictly`), as they are when already so.
    private static func ordered<T: Comparable & Hashable>(_ values: [T], strictly: Bool) -> [T] {
        let inOrder = zip(values, values.dropFirst()).allSatisfy { strictly ? $0 < $1 : $0 <= $1 }
        if inOrder { return values }
        return strictly ? Array(Set(values)).sorted() : values.sorted()
    }

    /// The first 16 hex digits of SHA-256 over `rule`, `identity` and `device`, separated by NUL.
    package static func fingerprint(rule: String, identity: String, device: String) -> String {
        var hasher = SHA256()
        for (index, part) in [rule, identity, device].enumerated() {
            if index > 0 { hasher.update(data: [UInt8(0)]) }
            var part = part
            part.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        let digest = hasher.finalize()
        return hexDigits(digest.withUnsafeBytes { bytes in bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } })
    }

    /// `value` as 16 lowercase hex digits, the form of a fingerprint.
    package static func hexDigits(_ value: UInt64) -> String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            let digits: StaticString = "0123456789abcdef"
            for k in 0..<16 { buffer[k] = digits.utf8Start[Int((value >> (60 - 4 * UInt64(k))) & 0xF)] }
            return 16
        }
    }

    /// Report order: most severe first, then the costliest, then the most loads, then by rule and fingerprint.
    package static func reportOrder(_ a: Finding, _ b: Finding) -> Bool {
        if a.severity != b.severity { return a.severity < b.severity }
        if a.cost != b.cost { return a.cost > b.cost }
        if a.occurrences != b.occurrences { return a.occurrences > b.occurrences }
        if a.rule != b.rule { return a.rule < b.rule }
        return a.fingerprint < b.fingerprint
    }
}
