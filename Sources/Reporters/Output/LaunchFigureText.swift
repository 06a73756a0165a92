import AuditModel

/// How every format words a launch's figures: one launch's own, or over several launches the
/// median launch's with the range beside it (`LaunchMedian`), so no format states a sum over
/// launches as a launch's figure.
enum LaunchFigureText {
    /// `182`, or `182 [180–190]` when the launches differ in it.
    static func value(_ spread: PhaseSpread, _ figure: KeyPath<PhaseMetrics, Int>, _ unit: FigureUnit = .count) -> String {
        let text = unit.shown(spread.median[keyPath: figure])
        guard spread.varies(figure) else { return text }
        return text + " " + range(unit.shown(spread.range.min[keyPath: figure]), unit.shown(spread.range.max[keyPath: figure]))
    }

    /// `[180–190]`: the least and the most of the launches.
    static func range(_ low: String, _ high: String) -> String { "[\(low)–\(high)]" }

    /// `the median of 5 launches, [least–most] where they differ`, or nil for one launch.
    static func heading(_ spread: PhaseSpread) -> String? {
        spread.launches > 1 ? "the median of \(spread.launches) launches, [least–most] where they differ" : nil
    }

    /// Main-thread image time (lookups and decodes), the one time figure every format gives:
    /// `561.945 ms`, or over several timed launches `561.945 ms [455.400 ms–612.000 ms]`. Nil when untimed.
    static func mainThreadTime(_ spread: PhaseSpread) -> String? {
        guard let median = spread.median.typicalMainThreadImageMicroseconds else { return nil }
        var text = ImageTime.milliseconds(median)
        if spread.varies(\.typicalMainThreadImageMicroseconds), let low = spread.range.min.typicalMainThreadImageMicroseconds,
            let high = spread.range.max.typicalMainThreadImageMicroseconds
        {
            text += " " + range(ImageTime.milliseconds(low), ImageTime.milliseconds(high))
        }
        return text
    }

    /// The label every format gives main-thread image time.
    static let mainThreadTimeLabel = "image time on the main thread (lookups and decodes)"

    /// The gated figures by their JSON names, each as the median launch's value and its range:
    /// what SARIF's run properties and JUnit's properties carry.
    static func keyedFigures(_ spread: PhaseSpread) -> [(key: String, median: Int, min: Int, max: Int)] {
        let figures: [(String, KeyPath<PhaseMetrics, Int>)] = [
            ("loads", \.loads), ("names", \.names), ("images", \.images), ("decodedBytes", \.decodedBytes), ("bytesOnDisk", \.bytesOnDisk),
            ("missing", \.missing), ("repeated", \.repeated), ("unreadable", \.unreadable),
            ("largestImageDecodedBytes", \.largestImageDecodedBytes),
        ]
        var keyed = figures.map { key, figure in
            (key, spread.median[keyPath: figure], spread.range.min[keyPath: figure], spread.range.max[keyPath: figure])
        }
        if let median = spread.median.typicalMainThreadImageMicroseconds, let low = spread.range.min.typicalMainThreadImageMicroseconds,
            let high = spread.range.max.typicalMainThreadImageMicroseconds
        {
            keyed.append(("mainThreadImageMicroseconds", median, low, high))
        }
        return keyed
    }
}
