import ImgtraceSupport

/// One image name a launch asked for, as a baseline remembers it: what it resolved to and what
/// it cost a launch. Two builds' records, compared by name, say which images moved a figure.
public struct ImageRecord: Sendable, Equatable {
    /// The name the app asked for (`(nil)` and `(empty)` for those).
    package var name: String
    /// What it resolved to (`Assets.car: empty_state`, `hero_banner.jpg`); nil when missing.
    package var image: String?
    /// Loads in the median launch (the loads of every launch over their number, rounded half up).
    package var loads: Int
    package var decodedBytes: Int
    package var bytesOnDisk: Int

    package init(name: String, image: String?, loads: Int, decodedBytes: Int, bytesOnDisk: Int) {
        self.name = name
        self.image = image
        self.loads = loads
        self.decodedBytes = decodedBytes
        self.bytesOnDisk = bytesOnDisk
    }

    /// The records of the names loaded at launch over `launches` launches, sorted by name.
    package static func of(_ uses: [NameUse], launches: Int) -> [ImageRecord] {
        let count = max(1, launches)
        var byName: [String: ImageRecord] = [:]
        for use in uses where use.launchLoads > 0 {
            let image = use.resolution.image
            let label = image.map { $0.path == "Assets.car" && $0.id.hasPrefix("Assets.car#") ? "Assets.car: " + $0.id.dropFirst(11) : $0.id }
            let record = ImageRecord(
                name: use.displayName, image: label, loads: (2 * use.launchLoads + count) / (2 * count), decodedBytes: image?.decodedBytes ?? 0,
                bytesOnDisk: image?.bytesOnDisk ?? 0)
            // A name asked for two ways (by name and by path) is one record: its loads add up.
            if var known = byName[record.name] {
                known.loads += record.loads
                byName[record.name] = known
            } else {
                byName[record.name] = record
            }
        }
        return byName.values.sorted { $0.name < $1.name }
    }
}

/// How one image name moved between two launches' records.
public struct ImageChange: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// Asked for now, not before.
        case added
        /// Asked for before, not now.
        case gone
        /// Asked for both times, a different number of times.
        case loads
    }

    package var kind: Kind
    package var before: ImageRecord?
    package var after: ImageRecord?

    /// The record it is about: the new one, else the old one.
    package var record: ImageRecord { after ?? before! }

    /// `new at launch: `empty_state` (Assets.car: empty_state, 11.3 MiB decoded)`, `gone from the
    /// launch: `x` (…)`, `` `placeholder` 1 → 4 loads ``: the name a code span, as every report quotes names.
    package var phrase: Phrase {
        let what: Phrase = record.image.map { "\(code: $0), \(kibibytes(record.decodedBytes)) decoded" } ?? "missing"
        switch kind {
        case .added: return "new at launch: \(code: record.name) (\(what))"
        case .gone: return "gone from the launch: \(code: record.name) (\(what))"
        case .loads: return "\(code: record.name) \(before!.loads) → \(after!.loads) loads"
        }
    }

    /// `phrase` as text with its code spans marked.
    package var text: String { phrase.text }

    /// What changed from `old` to `new`, the costliest first: added and gone by decoded bytes,
    /// then changed load counts by how much they moved; names in byte order among equals.
    package static func between(old: [ImageRecord], new: [ImageRecord]) -> [ImageChange] {
        let before = Dictionary(old.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [ImageChange] = []
        for record in new {
            if let previous = before[record.name] {
                if previous.loads != record.loads { changes.append(ImageChange(kind: .loads, before: previous, after: record)) }
            } else {
                changes.append(ImageChange(kind: .added, before: nil, after: record))
            }
        }
        for record in old where after[record.name] == nil { changes.append(ImageChange(kind: .gone, before: record, after: nil)) }
        return changes.sorted { a, b in
            let weight = { (change: ImageChange) -> (Int, Int) in
                change.kind == .loads ? (1, -abs(change.after!.loads - change.before!.loads)) : (0, -change.record.decodedBytes)
            }
            return (weight(a).0, weight(a).1, a.record.name) < (weight(b).0, weight(b).1, b.record.name)
        }
    }

    /// The changes that move `metric` (`launch.loads`, `launch.images`, `launch.decodedBytes`, …), at most `limit`.
    package static func moving(_ metric: String, in changes: [ImageChange], limit: Int = 3) -> [ImageChange] {
        let relevant: [ImageChange]
        switch metric {
        case "launch.loads", "launch.names", "launch.repeated": relevant = changes
        case "launch.missing": relevant = changes.filter { $0.record.image == nil }
        default: relevant = changes.filter { $0.kind != .loads }
        }
        return Array(relevant.prefix(limit))
    }
}
