import AppBundle
import CodeReferences
import ImgtraceSupport

extension UnusedImages {
    /// What the code search needs to look for: the spellings a literal may give each shipped
    /// image and the keys of its generated symbols, as `judgement` matches them. A Swift piece
    /// that can name none of them is not parsed, and the verdicts are the same.
    package static func codeFilter(for inventory: BundleInventory) -> ImageNameFilter {
        codeFilter(names: inventory.images.map(\.name))
    }

    /// `codeFilter` for images of these names.
    package static func codeFilter(names: some Sequence<String>) -> ImageNameFilter {
        var spellings = Set<String>()
        var symbolKeys = Set<String>()
        for name in Set(names) {
            let last = PathText.fileName(name)
            spellings.formUnion([name, last, stripped(name), stripped(last)].map { $0.lowercased() })
            symbolKeys.formUnion([AssetSymbol.key(AssetSymbol.symbol(for: name)), AssetSymbol.key(last)])
        }
        let fits = SpellingPatterns(spellings)
        // Normalised as `namePattern` and `PatternIndex` normalise the code's patterns.
        return ImageNameFilter(spellings: spellings, symbolKeys: symbolKeys) { fits.anyMatches(stripped($0).lowercased()) }
    }

    /// The spellings, sorted forwards and by their reversed text, so a pattern is tried only on
    /// those that start with its text before the first hole, or end with its text after the last.
    private struct SpellingPatterns: Sendable {
        let exact: Set<String>
        let forwards: [[UInt8]]
        let backwards: [[UInt8]]

        init(_ spellings: Set<String>) {
            exact = spellings
            forwards = spellings.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
            backwards = spellings.map { Array($0.utf8.reversed()) }.sorted { $0.lexicographicallyPrecedes($1) }
        }

        /// Whether `pattern` (lower-cased, `*` for each hole) fits one of the spellings.
        func anyMatches(_ pattern: String) -> Bool {
            let bytes = Array(pattern.utf8)
            guard let firstHole = bytes.firstIndex(of: UInt8(ascii: "*")) else { return exact.contains(pattern) }
            let lastHole = bytes.lastIndex(of: UInt8(ascii: "*"))!
            let glob = Glob(pattern)
            func fits(_ sorted: [[UInt8]], _ prefix: ArraySlice<UInt8>, reversed: Bool) -> Bool {
                var low = 0, high = sorted.count
                while low < high {
                    let middle = (low + high) / 2
                    if sorted[middle].lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
                }
                while low < sorted.count, sorted[low].starts(with: prefix) {
                    let spelling = reversed ? sorted[low].reversed() : sorted[low]
                    if glob.matches(String(decoding: spelling, as: UTF8.self)) { return true }
                    low += 1
                }
                return false
            }
            if firstHole > 0 { return fits(forwards, bytes[..<firstHole], reversed: false) }
            if lastHole < bytes.count - 1 { return fits(backwards, ArraySlice(bytes[(lastHole + 1)...].reversed()), reversed: true) }
            // Holes at both ends: every spelling is tried, unless there are too many to try on
            // every such literal (then the piece is parsed).
            guard forwards.count <= 4096 else { return true }
            return forwards.contains { glob.matches(String(decoding: $0, as: UTF8.self)) }
        }
    }
}
