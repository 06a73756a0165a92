/// The median of several launches' figures, defined once for every figure, name and format.
///
/// A launch is the unit: a figure of several launches is the median of that figure over the
/// launches, never their sum, with the lowest and highest launch beside it.
package enum LaunchMedian {
    /// The middle of `values` once sorted; of an even count, the mean of the two middle values,
    /// rounded half up to the unit (a count, a byte, a microsecond). Nil for no value.
    ///
    /// Two launches of 455.4 and 458.6 ms give 457.0 ms; loads of 182 and 183 give 183.
    package static func of(_ values: [Int]) -> Int? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let upper = sorted[sorted.count / 2]
        guard sorted.count % 2 == 0 else { return upper }
        let lower = sorted[sorted.count / 2 - 1]
        // Half the gap added to the lower value: no overflow for any two values ≥ 0.
        return lower + (upper - lower + 1) / 2
    }
}

/// The lowest and highest value of each figure over the launches.
package struct PhaseRange: Sendable, Equatable {
    package var min: PhaseMetrics
    package var max: PhaseMetrics

    package init(min: PhaseMetrics, max: PhaseMetrics) {
        self.min = min
        self.max = max
    }
}

/// One phase's figures over several launches: per figure, the median launch's value and the range.
public struct PhaseSpread: Sendable, Equatable {
    /// How many launches had this phase.
    public package(set) var launches: Int
    /// Each figure the median of the launches' (`LaunchMedian`).
    public package(set) var median: PhaseMetrics
    package var range: PhaseRange

    /// One launch: its figures are the median, the least and the most.
    package init(single: PhaseMetrics) {
        launches = 1
        median = single
        range = PhaseRange(min: single, max: single)
    }

    /// Each figure's median, least and most over `launches` (at least one).
    package init(_ launches: [PhaseMetrics]) {
        precondition(!launches.isEmpty, "a spread needs a launch")
        self.launches = launches.count
        var median = PhaseMetrics(), low = PhaseMetrics(), high = PhaseMetrics()
        for figure in PhaseMetrics.countedFigures {
            let values = launches.map { $0[keyPath: figure] }
            median[keyPath: figure] = LaunchMedian.of(values) ?? 0
            low[keyPath: figure] = values.min() ?? 0
            high[keyPath: figure] = values.max() ?? 0
        }
        // Figures some launches lack (an untimed launch has no image time): over those that have them.
        for figure in PhaseMetrics.optionalFigures {
            let values = launches.compactMap { $0[keyPath: figure] }
            median[keyPath: figure] = LaunchMedian.of(values)
            low[keyPath: figure] = values.min()
            high[keyPath: figure] = values.max()
        }
        self.median = median
        range = PhaseRange(min: low, max: high)
    }

    /// Whether several launches gave different values of `figure`.
    package func varies(_ figure: KeyPath<PhaseMetrics, Int>) -> Bool { range.min[keyPath: figure] != range.max[keyPath: figure] }

    /// Whether several launches gave different values of an optional figure.
    package func varies(_ figure: KeyPath<PhaseMetrics, Int?>) -> Bool { range.min[keyPath: figure] != range.max[keyPath: figure] }
}

extension PhaseMetrics {
    /// Every whole-number figure of a launch, each taken apart over several launches.
    package static let countedFigures: [WritableKeyPath<PhaseMetrics, Int> & Sendable] = [
        \.loads, \.names, \.images, \.decodedBytes, \.bytesOnDisk, \.missing, \.repeated, \.unreadable, \.largestImageDecodedBytes,
        \.systemImages, \.systemDecodedBytes, \.symbols, \.dataLoads,
        \.time.timedLoads, \.time.microseconds, \.time.ownMicroseconds, \.time.mainThreadMicroseconds, \.time.longestMainThreadMicroseconds,
        \.time.decodes, \.time.decodeMicroseconds, \.time.mainThreadDecodeMicroseconds, \.time.unattributedDecodes,
    ]
    /// Figures only some launches have: main-thread image time (timed captures) and the launch's
    /// own length (recordings that saw the launch end).
    package static let optionalFigures: [WritableKeyPath<PhaseMetrics, Int?> & Sendable] = [\.typicalMainThreadImageMicroseconds, \.lengthMilliseconds]
}
