import AuditModel
import AuditPolicy
import AuditRules
import ImgtraceSupport
import LaunchAudit
import UnusedAudit

/// What every report says of image time when a capture timed its requests (`record --agent`);
/// nothing at all otherwise, so an untimed log reports as before.
enum ImageTimeReport {
    /// Names shown among the slowest.
    static let slowestCount = 5

    /// `12.345 ms in 40 timed requests; 10.100 ms on the main thread (2.0% of the 514 ms launch), longest 3.200 ms`;
    /// over several timed launches, the median launch's figures and the range of main-thread time.
    static func summary(_ result: AuditResult) -> String? {
        let timed = result.logs.filter { $0.metrics.launch.time.isTimed }
        guard !timed.isEmpty else { return nil }
        let byMainTime = timed.sorted { $0.metrics.launch.time.mainThreadMicroseconds < $1.metrics.launch.time.mainThreadMicroseconds }
        let median = byMainTime[byMainTime.count / 2]
        let time = median.metrics.launch.time
        var text = timed.count > 1 ? "the median of \(timed.count) timed launches: " : ""
        text += "\(ImageTime.milliseconds(time.microseconds)) in \(counted(time.timedLoads, "timed request")); "
        text += "\(ImageTime.milliseconds(time.mainThreadMicroseconds)) on the main thread"
        if timed.count > 1 {
            let low = byMainTime.first!.metrics.launch.time.mainThreadMicroseconds, high = byMainTime.last!.metrics.launch.time.mainThreadMicroseconds
            text += " (\(ImageTime.milliseconds(low)) to \(ImageTime.milliseconds(high)) over the launches)"
        } else if let launch = median.summary.recording?.launchMilliseconds, launch > 0 {
            // Microseconds over milliseconds: tenths of a percent.
            let tenths = (time.mainThreadMicroseconds + launch / 2) / launch
            text += " (\(tenths / 10).\(tenths % 10)% of the \(launch) ms launch)"
        }
        if time.longestMainThreadMicroseconds > 0 { text += ", longest \(ImageTime.milliseconds(time.longestMainThreadMicroseconds))" }
        if time.decodes > 0 {
            text += "; decoding at first use: \(ImageTime.milliseconds(time.decodeMicroseconds)) in \(counted(time.decodes, "decode")), "
            text += "\(ImageTime.milliseconds(time.mainThreadDecodeMicroseconds)) on the main thread"
            if time.unattributedDecodes > 0 { text += " (\(time.unattributedDecodes) of an image no recorded lookup returned)" }
        }
        return text
    }

    /// The names whose launch requests and decodes held the main thread longest (the median
    /// launch's time when several were timed), most first, ties by name.
    static func slowest(_ result: AuditResult) -> [NameUse] {
        let timed = result.uses.filter { $0.typicalMainThreadMicroseconds > 0 }
        let sorted = timed.sorted {
            $0.typicalMainThreadMicroseconds != $1.typicalMainThreadMicroseconds
                ? $0.typicalMainThreadMicroseconds > $1.typicalMainThreadMicroseconds : $0.findingIdentity < $1.findingIdentity
        }
        return Array(sorted.prefix(slowestCount))
    }

    /// `20.257 ms`, or over several launches `20.257 ms (18.100 to 24.000 ms, 5 launches)`.
    static func nameTime(_ use: NameUse) -> String {
        let runs = use.mainThreadMicrosecondsPerLaunch
        var text = ImageTime.milliseconds(use.typicalMainThreadMicroseconds)
        if runs.count > 1 {
            text += " (\(ImageTime.milliseconds(runs.min()!).dropLast(3)) to \(ImageTime.milliseconds(runs.max()!)), \(runs.count) launches)"
        }
        return text
    }
}
