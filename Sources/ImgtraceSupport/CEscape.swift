/// The one-letter escapes C gives control characters (`\n`, `\t`, …), shared by the readers of
/// quoted text (debugger values, OpenStep property lists).
package enum CEscape {
    /// The byte `\` followed by `letter` stands for: `n t r a b f v`; nil for any other letter.
    @inlinable
    package static func control(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "t"): return 0x09
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "a"): return 0x07
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "v"): return 0x0B
        default: return nil
        }
    }
}
