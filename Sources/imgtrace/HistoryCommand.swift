import ArgumentParser
import BuildHistory
import Foundation
import ImgtraceSupport
import Reporters

/// `analyze`'s `--history` and the build's identity: record each build, gate against the recent ones.
struct HistoryOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A build history (an SQLite file, created when absent, or postgres://…): this build is recorded, and without --baseline gated against the median of the branch's recent builds (config: history.window).",
            valueName: "file|url"), completion: .file(extensions: ["sqlite", "db"]))
    var history: String?

    @Option(help: "This build's id in the history (default: the CI's build number, else the date).")
    var build: String?

    @Option(help: "This build's commit (default: the CI's).")
    var commit: String?

    @Option(help: "This build's branch (default: the CI's, else main).")
    var branch: String?

    func validate() throws {
        if history == nil, build != nil || commit != nil || branch != nil { throw ValidationError("--build, --commit and --branch go with --history") }
    }

    /// The history file, for the check that no output overwrites an input (a server is no file).
    var files: [(what: String, path: String)] { history.map(HistoryArgument.files) ?? [] }

    var identity: BuildIdentity {
        BuildIdentity.resolve(build: build, commit: commit, branch: branch, environment: ProcessInfo.processInfo.environment)
    }

    /// A test stops a run inside its write (docs/testing.md): milliseconds to wait there.
    var pauseForTests: (() -> Void)? {
        guard let text = ProcessInfo.processInfo.environment["IMGTRACE_HISTORY_TEST_PAUSE_MS"], let ms = UInt32(text) else { return nil }
        return {
            PlatformIO.writeStandardError("imgtrace: pausing inside the history's write\n")
            usleep(UInt32(min(UInt64(ms) * 1000, UInt64(UInt32.max))))
        }
    }
}

/// The history `history show` and `forget` read: one that must exist (they never create one).
struct HistoryArgument: ParsableArguments {
    @Argument(help: "The history: an SQLite file or postgres://….", completion: .file(extensions: ["sqlite", "db"]))
    var history: String

    /// `location` as an input file, for the output check; none for a server.
    static func files(_ location: String) -> [(what: String, path: String)] {
        BuildHistory.isServer(location) ? [] : [(what: "history", path: location)]
    }

    var files: [(what: String, path: String)] { Self.files(history) }

    func open() throws -> BuildHistory {
        guard BuildHistory.isServer(history) || FileManager.default.fileExists(atPath: history) else {
            throw InputError(path: history, reason: "no such history")
        }
        return try BuildHistory.open(history)
    }
}

/// `imgtrace history show|forget`: what a build history holds. Every command names itself: a
/// name argument-parser derives (`String(describing:)`, a demangling) cost each start about 6 M
/// instructions per subcommand, every command of the tool paying for all of them.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show the builds a history holds (figures over time, names that came and went), or forget one.",
        discussion: CommandHelp.discussion(
            "`analyze --history FILE` records every build; `history show` draws each per-launch figure over the builds and names the build where it moved most.",
            examples: [
                "imgtrace history show launches.sqlite",
                "imgtrace history show launches.sqlite --format html --output history.html",
            ]),
        subcommands: [Show.self, Forget.self]
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, html

        var consumer: OutputConsumer {
            switch self {
            case .text: return .terminal
            case .json: return .json
            case .html: return .html
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Each per-launch figure over the builds, and the names that came and went.",
            discussion: CommandHelp.discussion(
                "Text lists the builds and where each figure moved most; JSON has every build with its figures and names; HTML draws a line chart per figure.",
                examples: [
                    "imgtrace history show launches.sqlite --branch main --last 20",
                    "imgtrace history show postgres://ci@db/imgtrace --format json",
                ])
        )

        @OptionGroup var history: HistoryArgument

        @Option(help: "Output format.")
        var format: Format = .text

        @Option(help: "Only this branch's builds.")
        var branch: String?

        @Option(help: ArgumentHelp("Only the last N builds.", valueName: "n"))
        var last: Int?

        @Option(help: "Write to this file instead of standard output.", completion: .file())
        var output: String?

        @OptionGroup var width: ListingWidth

        func validate() throws {
            if let last, last < 1 { throw ValidationError("--last takes a whole number ≥ 1") }
        }

        func run() throws {
            if let output { try OutputTargets.check(outputs: [("--output", output)], inputs: history.files) }
            let opened = try history.open()
            let builds = try opened.builds(branch: branch, last: last)
            try ReportFile.write(to: output, for: format.consumer) { sink in
                switch format {
                case .text: sink.write(HistoryReports.text(builds, location: opened.location, width: width.columns))
                case .json: sink.write(HistoryReports.json(builds, location: opened.location))
                case .html: sink.write(HistoryReports.html(builds, location: opened.location))
                }
            }
        }
    }

    struct Forget: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "forget",
            abstract: "Remove one build from a history (a build recorded by mistake).",
            discussion: CommandHelp.discussion(
                "The build's figures, names and findings go; the gate no longer counts it.",
                examples: [
                    "imgtrace history forget launches.sqlite --build 1234",
                    "imgtrace history forget postgres://ci@db/imgtrace --build 1234",
                ])
        )

        @OptionGroup var history: HistoryArgument

        @Option(help: "The id of the build to remove.")
        var build: String

        func run() throws {
            let opened = try history.open()
            guard try opened.forget(build: build) else { throw InputError(path: opened.location, reason: "no build \(SafeText.quoted(build))") }
            PlatformIO.writeStandardError("imgtrace: forgot build \(SafeText.visible(SafeText.quoted(build))) of \(SafeText.visible(opened.location))\n")
        }
    }
}
