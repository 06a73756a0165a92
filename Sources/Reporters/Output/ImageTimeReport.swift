import AuditModel
import ImgtraceSupport
import LaunchAudit

/// What every report says of image time when a capture timed its requests (`record --agent`);
/// nothing at all otherwise, so an untimed log reports as before.
enum ImageTimeReport {
    /// Names shown among the slowest.
    static let slowestCount = 5

    /// `570.466 ms on the main thread, lookups and decodes (2.0% of the 514 ms launch); lookups:
    /// 612.345 ms in 182 timed requests on every thread, …`: one launch's, or over several timed
    /// launches the median launch's with the range of main-thread time.
    static func summary(_ result: AuditResult) -> String? {
        let spread = result.metrics.launchSpread
        guard let main = LaunchFigureText.mainThreadTime(spread), let mainMicroseconds = spread.median.typicalMainThreadImageMicroseconds else {
            return nil
        }
        let time = spread.median.time
        let timed = result.logs.filter { $0.metrics.launch.typicalMainThreadImageMicroseconds != nil }.count
        var text = timed > 1 ? "the median of \(timed) timed launches: " : ""
        text += "\(main) on the main thread, lookups and decodes"
        if let launch = spread.median.lengthMilliseconds, launch > 0 {
            // Microseconds over milliseconds: tenths of a percent.
            let tenths = (mainMicroseconds + launch / 2) / launch
            text += " (\(tenths / 10).\(tenths % 10)% of the \(timed > 1 ? "median " : "")\(launch) ms launch)"
        }
        text += "; lookups: \(ImageTime.milliseconds(time.microseconds)) in \(counted(time.timedLoads, "timed request")) on every thread, "
        text += "\(ImageTime.milliseconds(time.mainThreadMicroseconds)) on the main thread"
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

    /// `20.257 ms`, or over several launches `20.257 ms (18.100 to 24.000 ms, 5 launches)`; a
    /// name whose request was a process's first adds `, first request: with the toolkit's set-up`.
    static func nameTime(_ use: NameUse) -> String {
        let runs = use.mainThreadMicrosecondsPerLaunch
        var text = ImageTime.milliseconds(use.typicalMainThreadMicroseconds)
        var notes: [String] = []
        if runs.count > 1 { notes.append("\(ImageTime.milliseconds(runs.min()!).dropLast(3)) to \(ImageTime.milliseconds(runs.max()!)), \(runs.count) launches") }
        if use.includesFirstRequest { notes.append(firstRequestNote) }
        if !notes.isEmpty { text += " (" + notes.joined(separator: "; ") + ")" }
        return text
    }

    /// What a report says of a name whose request was the process's first image request.
    static let firstRequestNote = "the process's first image request: its time includes the toolkit's one-time set-up"
}
