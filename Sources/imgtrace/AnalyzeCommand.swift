import AppBundle
import ArgumentParser
import Foundation
import ImgtraceSupport
import LaunchAudit
import LaunchTrace
import Reporters

/// `imgtrace analyze LOG… --bundle PATH`: resolve every load, judge it, report, and set the exit code.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Audit the images a launch loaded: resolve every name against the app and flag waste.",
        discussion: """
        Reads one or more debugger logs of the same build (each is a launch) and the built app, resolves
        every image name the way UIKit/AppKit would on the chosen device, and reports findings.
        Settings come from .imgtrace.yml in the working directory (or --config); flags override it.
        Exit codes: 0 nothing fails the policy; 1 findings at or above --fail-on, or a budget exceeded;
        2 an input could not be read; 64 usage error.
        """
    )

    @Argument(help: "Debugger console logs (lldb, gdb or Xcode), one per launch.")
    var logs: [String]

    @Option(name: .customLong("bundle"), help: "The built app: .app, .ipa, .xcarchive, .xcassets or Assets.car (repeatable; the first is the app).")
    var bundles: [String] = []

    @Option(name: .customLong("system-images"), help: "A folder of framework or OS images names may resolve to (repeatable).")
    var systemImages: [String] = []

    @Option(help: "Device profile to judge for (see `imgtrace devices`); default: the largest current iPhone.")
    var device: String?

    @Option(name: .customLong("launch-end"), help: "A regular expression; the first matching line ends the launch window.")
    var launchEnd: String?

    @Option(help: "Config file (default: .imgtrace.yml in the working directory, when present).")
    var config: String?

    @Option(help: "Output format for standard output (or --output): text, json, markdown, sarif, github, gitlab, junit or checkstyle.")
    var format: ReportFormat = .text

    @Option(name: .customLong("report"), help: ArgumentHelp("Also write a report to a file, e.g. json:audit.json (repeatable).", valueName: "format:path"))
    var reports: [ReportDestination] = []

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(name: .customLong("fail-on"), help: "The lowest severity that fails the run: error, warning, note or never.")
    var failOn: FailLevel?

    enum FailLevel: String, ExpressibleByArgument, CaseIterable {
        case error, warning, note, never
    }

    func validate() throws {
        guard !bundles.isEmpty else { throw ValidationError("--bundle is required: the built app the log's names resolve against") }
        if let device, DeviceProfile.named(device) == nil {
            throw ValidationError("unknown device `\(device)`; `imgtrace devices` lists them")
        }
        if let launchEnd {
            do { _ = try NSRegularExpression(pattern: launchEnd) } catch {
                throw ValidationError("--launch-end is not a valid regular expression: \(launchEnd)")
            }
        }
    }

    func run() throws {
        var settings = try loadConfig()
        if let failOn { settings.failOn = failOn == .never ? nil : Severity(rawValue: failOn.rawValue) }
        if let launchEnd { settings.launchEnd = launchEnd }
        let profile = try chooseDevice(settings)
        let result: AuditResult
        let wantsJSON = format == .json || reports.contains { $0.format == .json }
        let json = wantsJSON ? AnalyzeJSONReport() : nil
        do {
            var inventory = try readInventory()
            inventory.junk.sort()
            let auditor = LaunchAuditor(inventory: inventory, device: profile, config: settings)
            let options = TraceOptions(launchEndPattern: settings.launchEnd)
            for (index, log) in logs.enumerated() {
                auditor.beginLog(log)
                let summary = try TraceReader.read(contentsOf: log, options: options) { load in
                    let resolution = auditor.add(load)
                    json?.add(load, log: index, resolution: resolution)
                }
                auditor.endLog(summary)
            }
            result = auditor.finish()
        } catch let error as InputError {
            throw failInput(error)
        }
        // Files first: stdout is written last, so a failure leaves no report half-printed.
        for report in reports {
            try ReportFile.write(to: report.path) { render(report.format, result, json: json, to: $0) }
        }
        try ReportFile.write(to: output) { render(format, result, json: json, to: $0) }
        // In GitHub Actions the annotations go to the log and the full report to the job summary.
        if format == .github || reports.contains(where: { $0.format == .github }),
           let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"], !summary.isEmpty {
            appendStepSummary(AnalyzeMarkdownReport.render(result), to: summary)
        }
        if result.fails { throw ExitCode(1) }
    }

    private func render(_ format: ReportFormat, _ result: AuditResult, json: AnalyzeJSONReport?, to sink: ByteSink) {
        switch format {
        case .text: sink.write(AnalyzeTextReport.render(result))
        case .json: json?.write(result, to: sink)
        case .markdown: sink.write(AnalyzeMarkdownReport.render(result))
        case .sarif:
            sink.write(AnalyzeSARIFReport.render(result, bundlePath: bundles[0], logPaths: logs,
                                                 version: Imgtrace.configuration.version))
        case .github: sink.write(AnalyzeGitHubReport.render(result, bundlePath: bundles[0], logPaths: logs))
        case .gitlab: sink.write(AnalyzeGitLabReport.render(result, bundlePath: bundles[0], logPaths: logs))
        case .junit: sink.write(AnalyzeJUnitReport.render(result, bundlePath: bundles[0], logPaths: logs))
        case .checkstyle: sink.write(AnalyzeCheckstyleReport.render(result, bundlePath: bundles[0], logPaths: logs))
        }
    }

    private func appendStepSummary(_ markdown: String, to path: String) {
        guard let handle = FileHandle(forWritingAtPath: path) else {
            var stderr = StandardError()
            print("imgtrace: warning: cannot append to $GITHUB_STEP_SUMMARY (\(path))", to: &stderr)
            return
        }
        handle.seekToEndOfFile()
        handle.write(Data(markdown.utf8))
        try? handle.close()
    }

    private func loadConfig() throws -> AuditConfig {
        let path = config ?? (FileManager.default.fileExists(atPath: ConfigFile.defaultName) ? ConfigFile.defaultName : nil)
        guard let path else { return AuditConfig() }
        do {
            return try ConfigFile.load(path: path)
        } catch let error as InputError {
            throw failInput(error)
        }
    }

    private func chooseDevice(_ settings: AuditConfig) throws -> DeviceProfile {
        if let device { return DeviceProfile.named(device)! }
        guard let name = settings.device else { return .default }
        guard let profile = DeviceProfile.named(name) else {
            throw failInput(InputError(path: config ?? ConfigFile.defaultName, reason: "unknown device `\(name)`; `imgtrace devices` lists them"))
        }
        return profile
    }

    private func readInventory() throws -> BundleInventory {
        var inventory: BundleInventory?
        for (index, bundle) in bundles.enumerated() {
            do {
                let next = try BundleReader.inventory(of: bundle, systemImages: index == 0 ? systemImages : [])
                if inventory == nil { inventory = next } else {
                    inventory!.append(next, as: (bundle as NSString).lastPathComponent)
                }
            } catch let error as InputError {
                throw error
            } catch {
                throw InputError(path: bundle, reason: "\(error)")
            }
        }
        return inventory ?? BundleInventory()
    }
}
