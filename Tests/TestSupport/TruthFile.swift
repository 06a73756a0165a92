import Foundation

/// One call the traced program recorded itself (`*.truth.tsv` in the corpus).
public struct TruthCall: Equatable {
    public var function: String
    public var thread: String
    /// `nil` for a NULL/nil argument, `""` for an empty string.
    public var argument: String?
}

public enum TruthFile {
    /// Parses `<function>\t<thread>\t<argument>` lines; `\\`, `\n`, `\t` are escaped and
    /// `(null)` stands for nil.
    public static func load(_ url: URL) throws -> [TruthCall] {
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            let raw = parts.count > 2 ? String(parts[2]) : ""
            return TruthCall(
                function: String(parts[0]), thread: parts.count > 1 ? String(parts[1]) : "",
                argument: raw == "(null)" ? nil : unescape(raw))
        }
    }

    static func unescape(_ s: String) -> String {
        var out = ""
        var escaping = false
        for ch in s {
            if escaping {
                switch ch {
                case "n": out.append("\n")
                case "t": out.append("\t")
                default: out.append(ch)
                }
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else {
                out.append(ch)
            }
        }
        return out
    }
}

/// A multiset of strings, for comparing names regardless of thread interleaving.
public struct Multiset: Equatable, CustomStringConvertible {
    public private(set) var counts: [String: Int] = [:]

    public init<S: Sequence>(_ items: S) where S.Element == String {
        for item in items { counts[item, default: 0] += 1 }
    }

    public var total: Int { counts.values.reduce(0, +) }

    /// Whether every element occurs here at least as often as in `self`.
    public func isSubset(of other: Multiset) -> Bool {
        counts.allSatisfy { other.counts[$0.key, default: 0] >= $0.value }
    }

    /// Elements of `self` beyond those in `other`.
    public func subtracting(_ other: Multiset) -> [String: Int] {
        counts.compactMapValues { _ in nil }.merging(
            counts.compactMap { key, value -> (String, Int)? in
                let extra = value - other.counts[key, default: 0]
                return extra > 0 ? (key, extra) : nil
            }, uniquingKeysWith: { $1 })
    }

    public var description: String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key.debugDescription)×\($0.value)" }.joined(separator: ", ")
    }
}
