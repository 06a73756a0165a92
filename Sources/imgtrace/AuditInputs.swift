import ArgumentParser
import AuditModel
import AuditPolicy
import ImgtraceSupport
import LaunchAudit
import LaunchTrace

/// The inputs and settings of an audit, shared by `analyze` and `baseline write`.
struct AuditInputs: ParsableArguments {
    @Argument(help: "Debugger console logs (lldb, gdb or Xcode), one per launch.", completion: .file())
    var logs: [String]

    @Option(name: .customLong("bundle"), help: "The built app: .app, .ipa, .xcarchive, .xcassets or Assets.car (repeatable; the first is the app).", completion: .file())
    var bundles: [String]

    @Option(name: .customLong("system-images"), help: "A folder of framework or OS images names may resolve to (repeatable).", completion: .directory)
    var systemImages: [String] = []

    @OptionGroup var deviceChoice: DeviceChoice

    // Unconditional: a method's name (`-[NSApplication finishLaunching]`) starts with a dash.
    @Option(name: .customLong("launch-end"), parsing: .unconditional, help: LaunchEndPattern.help, transform: LaunchEndPattern.parse)
    var launchEnd: LaunchEndPattern?

    @OptionGroup var policy: PolicyOptions

    @Flag(
        name: .customLong("names-only"),
        help: "Take every bare line of a console log as an image name, even one that reads like the app's own output (config: namesOnly).")
    var namesOnly = false

    @Option(
        name: .customLong("min-loads"),
        help: ArgumentHelp("The fewest readable image loads a real launch has; fewer is a `no-evidence` error (config: budgets.minLaunchLoads).", valueName: "n"))
    var minLoads: Int?

    func validate() throws {
        if let minLoads, minLoads < 0 { throw ValidationError("--min-loads takes a whole number ≥ 0") }
        if logs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (`-`) can be given as one log only") }
    }

    /// Every file this run reads, named for a message: outputs may be none of them.
    func files(baseline: String? = nil) -> [(what: String, path: String)] {
        var files = logs.map { (what: "input log", path: $0) } + bundles.map { (what: "bundle", path: $0) }
        if let path = ConfigFile.path(explicit: policy.config) {
            files.append((what: "config file", path: path))
        }
        if let baseline { files.append((what: "baseline", path: baseline)) }
        return files
    }

    /// The request these options make; `baseline` is the `--baseline` of `analyze`.
    func request(baseline: String? = nil, sourceRoot: String? = nil) -> AuditRequest {
        var request = AuditRequest(logs: logs, bundles: bundles)
        request.systemImages = systemImages
        request.device = deviceChoice.device
        request.launchEnd = launchEnd
        request.configPath = policy.config
        request.failOn = policy.failOn.map(\.severity)
        request.minLaunchLoads = minLoads
        request.namesOnly = namesOnly
        request.baselinePath = baseline
        request.sourceRoot = sourceRoot
        return request
    }

    /// Runs the audit; an unreadable input is an `InputError` (exit 2 with its one-line reason).
    func audit(
        baseline: String? = nil, sourceRoot: String? = nil,
        onLoad: @escaping (ImageLoad, Int, Resolution?) -> Void = { _, _, _ in }
    ) throws -> AuditOutcome<AuditResult> {
        try AuditSession.run(request(baseline: baseline, sourceRoot: sourceRoot), onLoad: onLoad)
    }
}

/// `--device`, declared once for every command that takes it (analyze, baseline write, unused):
/// its help, its completion list and its check (a name `imgtrace devices` lists, or a usage
/// error, exit 64, with the nearest ones).
struct DeviceChoice: ParsableArguments {
    @Option(
        help: "Device profile to judge for (its screen scale, memory and download), by id or model name (`imgtrace devices`); default: chosen for the app.",
        completion: .list(DeviceProfile.builtIn.map(\.id)))
    var device: String?

    func validate() throws {
        if let device, DeviceProfile.named(device) == nil {
            throw ValidationError("unknown device `\(SafeText.visible(device))`; \(DeviceProfile.unknownNameHelp(device))")
        }
    }
}

/// `--config` and `--fail-on`, declared once for every command that judges (analyze, baseline
/// write and compare, unused): what the config is and which severity fails the run.
struct PolicyOptions: ParsableArguments {
    @Option(
        help: "Config file (default: .imgtrace.yml in the working directory, when present): its ignores, severities, thresholds, budgets, tolerances and failOn apply.",
        completion: .file(extensions: ["yml", "yaml"]))
    var config: String?

    @Option(
        name: .customLong("fail-on"),
        help: "The lowest severity of a finding (a new one, given a baseline) that fails the run (default: the config's failOn, else error).")
    var failOn: FailLevel?

    enum FailLevel: String, ExpressibleByArgument, CaseIterable {
        case error, warning, note, never

        /// The lowest failing severity; nil for `never`.
        var severity: Severity? { self == .never ? nil : Severity(rawValue: rawValue) }
    }
}
