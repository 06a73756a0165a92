import ImgtraceSupport

/// How long image requests kept the program busy, from captures that time each request
/// (`record --agent`; docs/capture.md §6). Debuggers and ptrace stop the program at each hit,
/// which would distort every duration, so their logs add nothing here.
package struct ImageTime: Sendable, Equatable {
    /// Requests whose duration the capture measured.
    package var timedLoads = 0
    /// Whether the capture timed anything: requests or decodes.
    package var isTimed: Bool { timedLoads > 0 || decodes > 0 }
    /// Their time together, on every thread, in microseconds.
    package var microseconds = 0
    /// Of `microseconds`, the outermost APIs' own time, outside the image APIs they called.
    package var ownMicroseconds = 0
    /// Of `microseconds`, the part on the main thread: what holds the first frame back.
    package var mainThreadMicroseconds = 0
    /// The longest single request on the main thread.
    package var longestMainThreadMicroseconds = 0
    /// Decodes of looked-up images at their first use (the toolkit decodes lazily), their time,
    /// and the part on the main thread; lookups' figures above do not hold them.
    package var decodes = 0
    package var decodeMicroseconds = 0
    package var mainThreadDecodeMicroseconds = 0
    /// Decodes of an image no recorded lookup returned: counted here, in no name's time.
    package var unattributedDecodes = 0

    package init() {}

    /// Counts one timed request.
    package mutating func add(_ microseconds: Int, own: Int? = nil, onMainThread: Bool) {
        timedLoads += 1
        self.microseconds = self.microseconds.addingSaturating(microseconds)
        ownMicroseconds = ownMicroseconds.addingSaturating(own ?? microseconds)
        guard onMainThread else { return }
        mainThreadMicroseconds = mainThreadMicroseconds.addingSaturating(microseconds)
        longestMainThreadMicroseconds = max(longestMainThreadMicroseconds, microseconds)
    }

    /// Counts one timed decode.
    package mutating func addDecode(_ microseconds: Int, onMainThread: Bool, attributed: Bool) {
        decodes += 1
        if !attributed { unattributedDecodes += 1 }
        decodeMicroseconds = decodeMicroseconds.addingSaturating(microseconds)
        if onMainThread { mainThreadDecodeMicroseconds = mainThreadDecodeMicroseconds.addingSaturating(microseconds) }
    }

    /// Both counts together (two logs, two names).
    package mutating func add(_ other: ImageTime) {
        decodes += other.decodes
        unattributedDecodes += other.unattributedDecodes
        decodeMicroseconds = decodeMicroseconds.addingSaturating(other.decodeMicroseconds)
        mainThreadDecodeMicroseconds = mainThreadDecodeMicroseconds.addingSaturating(other.mainThreadDecodeMicroseconds)
        timedLoads += other.timedLoads
        ownMicroseconds = ownMicroseconds.addingSaturating(other.ownMicroseconds)
        microseconds = microseconds.addingSaturating(other.microseconds)
        mainThreadMicroseconds = mainThreadMicroseconds.addingSaturating(other.mainThreadMicroseconds)
        longestMainThreadMicroseconds = max(longestMainThreadMicroseconds, other.longestMainThreadMicroseconds)
    }

    /// `12.345 ms`: microseconds as milliseconds, to the microsecond a capture gives.
    package static func milliseconds(_ microseconds: Int) -> String { ImgtraceSupport.milliseconds(microseconds: microseconds) }
}
