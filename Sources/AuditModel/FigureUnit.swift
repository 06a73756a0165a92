import ImgtraceSupport

/// The unit of a launch figure, said once for budgets, baselines and every report: how a value is
/// worded, and how a limit set in the config's unit (milliseconds, for time) becomes the figure's.
package enum FigureUnit: Sendable, Equatable {
    case count, bytes, microseconds

    /// The unit of a gated figure by its JSON name (`decodedBytes`, `bytesOnDisk`, `…Microseconds`).
    package init(figure name: String) {
        if name.hasSuffix("Bytes") || name.hasSuffix("OnDisk") {
            self = .bytes
        } else if name.hasSuffix("Microseconds") {
            self = .microseconds
        } else {
            self = .count
        }
    }

    /// `182`, `12.0 MiB`, `212.400 ms`.
    package func shown(_ value: Int) -> String {
        switch self {
        case .count: return String(value)
        case .bytes: return kibibytes(value)
        case .microseconds: return ImageTime.milliseconds(value)
        }
    }

    /// A limit as the config sets it, in this unit: a time is set in milliseconds. Saturating, the
    /// one conversion: a setting past `Int.max` microseconds is never reached, never wrapped.
    package func figure(fromSetting value: Int) -> Int {
        self == .microseconds ? value.multipliedSaturating(by: 1000) : value
    }
}
