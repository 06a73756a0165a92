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

/// A duration for logs and reports, in milliseconds to the microsecond: `20.257 ms`, `0.004 ms`.
/// One spelling everywhere, so the trace reader reads back what the recorder and reports write.
package func milliseconds(microseconds: Int) -> String {
    let whole = max(0, microseconds)
    let fraction = String(whole % 1000)
    return "\(whole / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction + " ms"
}

/// A count with its noun in the right number: `1 error`, `3 errors`, `1 repeated lookup`.
/// Nouns ending in a hiss take `es` (`2 launches`); `plural` is for any other irregular one.
package func counted(_ n: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(n) \(noun(for: n, singular, plural))"
}

/// The noun alone in the number `n` asks for, where the count is shown apart (a figure over its
/// label): `image`, `images`.
package func noun(for n: Int, _ singular: String, _ plural: String? = nil) -> String {
    guard n != 1 else { return singular }
    return plural ?? (["s", "x", "z", "ch", "sh"].contains(where: singular.hasSuffix) ? singular + "es" : singular + "s")
}

/// Pixel or point dimensions, written one way in every report: `4032×3024`.
package func dimensions(_ width: some BinaryInteger, _ height: some BinaryInteger) -> String { "\(width)×\(height)" }
