/// Address arithmetic on values read from ELF files and from the traced program's memory:
/// either may hold anything (a class pointer of 0xFFFF…F8), and a trap would leave the
/// program with breakpoint bytes in it. Every such sum is checked and fails softly.
extension UInt64 {
    /// `self + delta`, or nil when it would pass 2⁶⁴.
    @inline(__always)
    func checkedAdding(_ delta: UInt64) -> UInt64? {
        let (sum, overflow) = addingReportingOverflow(delta)
        return overflow ? nil : sum
    }

    /// `self + index × stride`, or nil when any step would pass 2⁶⁴.
    @inline(__always)
    func checkedAdding(_ index: Int, stride: UInt64, plus offset: UInt64 = 0) -> UInt64? {
        let (product, overflow) = UInt64(index).multipliedReportingOverflow(by: stride)
        guard !overflow, let base = checkedAdding(product) else { return nil }
        return base.checkedAdding(offset)
    }
}
