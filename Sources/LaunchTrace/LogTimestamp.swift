/// The time a log line carries (`2026-11-26 10:21:17.675`, or with a `T`), read where the line
/// is read: its text as printed, which reports quote, and its time since that day's midnight,
/// which a time axis places.
public struct LogTimestamp: Sendable, Equatable, ExpressibleByStringLiteral {
    /// The timestamp as the log printed it.
    public var text: String
    /// Milliseconds since the day's midnight; nil when the text holds no time of day.
    public var millisecondsOfDay: Double?

    public init(_ text: String) {
        self.text = text
        var text = text
        // Read in place: a log has a timestamp per line, and a copy of each is an allocation.
        millisecondsOfDay = text.withUTF8 { Self.millisecondsOfDay($0) }
    }

    public init(stringLiteral text: String) { self.init(text) }

    /// `YYYY-MM-DD hh:mm:ss[.fff…]`: hours, minutes and seconds at their fixed places, the
    /// fraction as long as it runs.
    private static func millisecondsOfDay(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count >= 19 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<(from + count) {
                guard bytes[i] >= 0x30, bytes[i] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
            }
            return value
        }
        guard let hours = number(11, 2), let minutes = number(14, 2), let seconds = number(17, 2) else { return nil }
        var fraction = 0.0, scale = 100.0, i = 20
        if bytes.count > 19, bytes[19] == 0x2E {
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                fraction += Double(bytes[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        return Double(hours * 3_600_000 + minutes * 60_000 + seconds * 1000) + fraction
    }
}
