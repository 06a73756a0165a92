import AuditModel
import ImgtraceSupport
import LaunchAudit

/// What to fix first: the app's own findings (not the toolkit's, which never gate) ranked by
/// what fixing each saves — main-thread image time, then bytes decoded, then bytes shipped —
/// each saying which. A finding that saves nothing measurable (a missing name) is not ranked:
/// its severity already puts it first.
enum StartHere {
    /// How many a report lists.
    static let listed = 3

    struct Item {
        var finding: Finding
        /// `46.5 MiB decoded`, `182.000 ms on the main thread`, `683.6 KiB shipped`.
        var saves: String
        var rank: (microseconds: Int, decoded: Int, shipped: Int)
    }

    /// The `listed` findings whose fix saves most, costliest first.
    static func items(_ findings: FindingList) -> [Item] {
        var best: [Item] = []
        for index in findings.indices where findings.gates(at: index) && findings.severity(at: index) != .note {
            guard let item = item(findings[index]) else { continue }
            best.append(item)
            best.sort { ($0.rank.microseconds, $0.rank.decoded, $0.rank.shipped) > ($1.rank.microseconds, $1.rank.decoded, $1.rank.shipped) }
            if best.count > listed { best.removeLast() }
        }
        return best
    }

    private static func item(_ finding: Finding) -> Item? {
        func value(_ key: String) -> Int? {
            if case .int(let n)? = finding.values[key] { return n }
            return nil
        }
        if let time = value("mainThreadMicroseconds"), time > 0 {
            return Item(finding: finding, saves: "\(ImageTime.milliseconds(time)) on the main thread", rank: (time, finding.cost, 0))
        }
        guard finding.cost > 0 else { return nil }
        if value("decodedBytes") != nil {
            return Item(finding: finding, saves: "\(kibibytes(finding.cost)) decoded", rank: (0, finding.cost, 0))
        }
        return Item(finding: finding, saves: "\(kibibytes(finding.cost)) shipped", rank: (0, 0, finding.cost))
    }
}
