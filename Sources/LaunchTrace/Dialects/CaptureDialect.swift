/// imgtrace's own capture lines: the breakpoint callback's `[thread] (kind) api: "name"` (without a
/// timestamp when it names the kind; after one, the console asks `timestamped`), `imgtrace-covered
/// N` and the launch-end marker (`imgtrace lldb-script`, `imgtrace record`; docs/capture.md).
enum CaptureDialect: LineDialect {
    static let firstBytes = bytes("[i")

    @inline(__always)
    static func recognise(_ line: ByteLine) -> RecognisedLine? {
        switch line[0] {
        case UInt8(ascii: "["):
            // Without a timestamp only a line that names its kind: an app's `[tag] text: "x"` does not.
            guard let hit = ActionLine.parse(line), hit.kind != nil else { return nil }
            return RecognisedLine(.callback(hit, timestamp: nil))
        case UInt8(ascii: "i"):
            if let count = line.removingPrefix("imgtrace-covered ") {
                guard count.count > 0, count.count <= 9, count.digitRun(from: 0) == count.count, let covered = Int(count.string) else {
                    return RecognisedLine(.ignored)
                }
                return RecognisedLine(.covered(covered))
            }
            if line.hasPrefix("imgtrace-launch-end") { return RecognisedLine(.launchMarker) }
            if let fields = line.removingPrefix("imgtrace-recording-end") { return RecognisedLine(.recordingEnd(fields.string)) }
            if let time = line.removingPrefix("imgtrace-recording-start ") {
                return RecognisedLine(Timestamp.length(time) == time.count ? .recordingStart(LogTimestamp(time.string)) : .ignored)
            }
            return nil
        default:
            return nil
        }
    }

    /// `2026-11-22 20:41:07.123 [thread] api: "name"`: the callback's line after the timestamp of
    /// `stamp` bytes that starts `line` (the console found it).
    static func timestamped(_ line: ByteLine, stamp: Int) -> RecognisedLine? {
        guard stamp + 1 < line.count, line[stamp] == 0x20, line[stamp + 1] == 0x5B, let hit = ActionLine.parse(line.dropFirst(stamp + 1)) else { return nil }
        return RecognisedLine(.callback(hit, timestamp: LogTimestamp(line.slice(0, stamp).string)))
    }
}
