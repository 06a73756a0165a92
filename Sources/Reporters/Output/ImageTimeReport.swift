import ImgtraceSupport
import LaunchAudit

/// What every report says of image time when a capture timed its requests (`record --agent`);
/// nothing at all otherwise, so an untimed log reports as before.
enum ImageTimeReport {
    /// Names shown among the slowest.
    static let slowestCount = 5

    /// `12.345 ms in 40 timed requests; 10.100 ms on the main thread (2.0% of the 514 ms launch), longest 3.200 ms`.
    static func summary(_ result: AuditResult) -> String? {
        let time = result.metrics.launch.time
        guard time.timedLoads > 0 else { return nil }
        var text = "\(ImageTime.milliseconds(time.microseconds)) in \(counted(time.timedLoads, "timed request")); "
        text += "\(ImageTime.milliseconds(time.mainThreadMicroseconds)) on the main thread"
        if let launch = launchMilliseconds(result), launch > 0 {
            // Microseconds over milliseconds: tenths of a percent.
            let tenths = (time.mainThreadMicroseconds + launch / 2) / launch
            text += " (\(tenths / 10).\(tenths % 10)% of the \(launch) ms launch)"
        }
        if time.longestMainThreadMicroseconds > 0 { text += ", longest \(ImageTime.milliseconds(time.longestMainThreadMicroseconds))" }
        return text
    }

    /// The names whose launch requests held the main thread longest, most first (ties by name).
    static func slowest(_ result: AuditResult) -> [NameUse] {
        let timed = result.uses.filter { $0.launchTime.mainThreadMicroseconds > 0 }
        let sorted = timed.sorted {
            $0.launchTime.mainThreadMicroseconds != $1.launchTime.mainThreadMicroseconds
                ? $0.launchTime.mainThreadMicroseconds > $1.launchTime.mainThreadMicroseconds : $0.findingIdentity < $1.findingIdentity
        }
        return Array(sorted.prefix(slowestCount))
    }

    /// The launch's length when every log's recording measured it (their sum over several launches).
    static func launchMilliseconds(_ result: AuditResult) -> Int? {
        var total = 0
        for log in result.logs {
            guard let ms = log.summary.recording?.launchMilliseconds else { return nil }
            total = total.addingReportingOverflow(ms).partialValue
        }
        return result.logs.isEmpty ? nil : total
    }
}
