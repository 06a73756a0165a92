import ArgumentParser
import AuditPolicy
import ImgtraceSupport
import LaunchAudit
import Reporters

/// `imgtrace baseline write|compare`: record a launch's findings and figures, and see what changed.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Record a baseline of findings and launch figures, or compare two baselines.",
        discussion: CommandHelp.discussion(
            "`baseline write` audits like analyze and records every finding's fingerprint and the launch figures; commit the file, then `analyze --baseline FILE` fails only on new findings and on figures worse than the config's tolerance.",
            examples: [
                "imgtrace baseline write launch.log --bundle App.app",
                "imgtrace baseline compare old.json imgtrace-baseline.json",
            ]),
        subcommands: [Write.self, Compare.self]
    )

    struct Write: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "write",
            abstract: "Audit like `analyze` and write the findings' fingerprints and the launch figures.",
            discussion: CommandHelp.discussion(
                "Then `imgtrace analyze … --baseline FILE` fails only on new findings and on figures worse than the tolerance in the config.",
                examples: [
                    "imgtrace baseline write launch.log --bundle App.app",
                    "imgtrace baseline write launch.log --bundle App.ipa --output main.json",
                ])
        )

        @OptionGroup var inputs: AuditInputs

        @Option(help: "The baseline file to write.", completion: .file(extensions: ["json"]))
        var output: String = "imgtrace-baseline.json"

        func run() throws {
            try OutputTargets.check(outputs: [("--output", output)], inputs: inputs.files())
            let result = try inputs.audit().result
            // A baseline is the reference every later launch is compared with: a capture that saw
            // nothing, or only part of a launch, must not become it.
            if let blind = result.findings.first(where: { $0.rule == "no-evidence" }) {
                PlatformIO.writeStandardError("imgtrace: not writing a baseline: " + SafeText.visible(blind.message.text) + "\n")
                throw ExitCode(1)
            }
            let baseline = Baseline(result)
            try ReportFile.write(to: output, for: .json) { $0.write(baseline.render()) }
            // Someone who writes a baseline hears what it holds (standard output stays empty for `-`).
            PlatformIO.writeStandardError(SafeText.visible(BaselineText.written(baseline, to: output)) + "\n")
        }
    }

    struct Compare: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "compare",
            abstract: "Show what changed from OLD to NEW: new and fixed findings, figures that got worse.",
            discussion: CommandHelp.discussion(
                "Exit 1 when NEW has new findings at or above --fail-on or figures worse than the config's tolerance. Both files are of one kind: two of `baseline write`, or two of `unused --write-baseline`.",
                examples: [
                    "imgtrace baseline compare main.json branch.json",
                    "imgtrace baseline compare main.json branch.json --fail-on never",
                ])
        )

        @Argument(help: "The older baseline.", completion: .file(extensions: ["json"])) var old: String
        @Argument(help: "The newer baseline.", completion: .file(extensions: ["json"])) var new: String

        @OptionGroup var policy: PolicyOptions

        func run() throws {
            let before = try Baseline.load(path: old, scope: nil)
            var after = try Baseline.load(path: new, scope: before.scope)
            for (path, baseline) in [(old, before), (new, after)] {
                for warning in AuditSession.baselineWarnings(baseline, path: path) {
                    PlatformIO.writeStandardError("imgtrace: warning: " + SafeText.visible(warning.text) + "\n")
                }
            }
            if let first = before.app, let second = after.app, first != second {
                throw InputError(
                    path: new, reason: "a baseline of \(SafeText.quoted(second)), not of \(SafeText.quoted(first)) as \(old) is: compare two builds of one app")
            }
            let settings = try ConfigFile.settings(explicit: policy.config)
            // The config means what it means in `analyze`: its failOn, and its ignored rules gate nothing.
            after.findings.removeAll { settings.ignore.rules.contains($0.rule) }
            let level = policy.failOn.map(\.severity) ?? settings.failOn
            let comparison = BaselineComparison(old: before, new: after, failOn: level, tolerance: settings.baselineTolerance)
            let sink = ByteSink(consumer: .terminal)
            sink.write(comparison.text())
            try ReportFile.finishStandardOutput(sink)
            if comparison.fails { throw ExitCode(1) }
        }
    }
}
