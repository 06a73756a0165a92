/// Byte counts for people: `812 B`, `14.2 KiB`, `3.1 MiB`.
package func kibibytes(_ bytes: Int) -> String {
    if bytes < 1024 { return "\(bytes) B" }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(bytes) / 1024
    var unit = 0
    while value >= 1024 && unit < units.count - 1 {
        value /= 1024
        unit += 1
    }
    let tenths = Int(saturating: (value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) \(units[unit])"
}
