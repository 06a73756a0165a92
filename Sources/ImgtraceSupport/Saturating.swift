/// Arithmetic on figures that came from an input file. A hostile file can claim any number,
/// so nothing computed from one may trap: figures that are only shown or compared saturate.
package extension Int {
    /// The nearest `Int` to `value`, clamped to `Int.min...Int.max`; NaN becomes 0.
    init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9.223372036854775e18 {
            self = .max
        } else if value <= -9.223372036854775e18 {
            self = .min
        } else {
            self = Int(value.rounded(.towardZero))
        }
    }

    /// `self + other`, clamped instead of trapping.
    func addingSaturating(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, clamped instead of trapping.
    func subtractingSaturating(_ other: Int) -> Int {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }

    /// `self × other`, clamped instead of trapping.
    func multipliedSaturating(by other: Int) -> Int {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) == (other < 0) ? .max : .min) : product
    }
}

package extension Sequence where Element == Int {
    /// The sum, clamped instead of trapping.
    func saturatingSum() -> Int { reduce(0) { $0.addingSaturating($1) } }
}
