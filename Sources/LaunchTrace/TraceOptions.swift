import Foundation
import ImgtraceSupport

/// The regular expression whose first matching line ends the launch window (`--launch-end`,
/// the config's `launchEnd`): compiled once, where it is read, so an invalid one is refused there.
public struct LaunchEndPattern: @unchecked Sendable, Equatable {
    /// The pattern as written.
    public let text: String
    // NSRegularExpression is immutable and documented as safe to share between threads.
    let regex: NSRegularExpression

    /// Why a pattern was refused, in words for a usage or config error.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(_ text: String) throws(Invalid) {
        do {
            regex = try NSRegularExpression(pattern: text)
        } catch {
            throw Invalid(description: "not a valid regular expression")
        }
        self.text = text
    }

    /// Whether `line` matches somewhere.
    func matches(_ line: String) -> Bool { regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil }

    public static func == (a: LaunchEndPattern, b: LaunchEndPattern) -> Bool { a.text == b.text }
}

/// Options for reading a trace.
public struct TraceOptions: Sendable {
    /// The first line matching this pattern ends the launch window.
    public var launchEnd: LaunchEndPattern?
    /// Whether the summary lists every distinct name with its tallies (`TraceSummary.names`).
    /// An audit keeps its own per-name state and leaves it off: one copy per name, not two.
    public var listsNames: Bool
    /// Whether every bare line of a console without echoes is a name (`--names-only`: the user
    /// knows the console holds nothing else), or only those that look like one (`BareText`).
    public var namesOnly = false

    public init(launchEnd: LaunchEndPattern? = nil, listsNames: Bool = true, namesOnly: Bool = false) {
        self.launchEnd = launchEnd
        self.listsNames = listsNames
        self.namesOnly = namesOnly
    }
}

/// The text `imgtrace lldb-script` makes the debugger print when launch is over.
public enum LaunchMarker {
    public static let text = "imgtrace-launch-end"
}
