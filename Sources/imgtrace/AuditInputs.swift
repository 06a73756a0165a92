import AppBundle
import ArgumentParser
import Foundation
import ImgtraceSupport
import LaunchAudit
import LaunchTrace

/// The inputs and settings of an audit, shared by `analyze` and `baseline write`.
struct AuditInputs: ParsableArguments {
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

    @Option(name: .customLong("fail-on"), help: "The lowest severity that fails the run: error, warning, note or never.")
    var failOn: FailLevel?

    @Option(name: .customLong("min-loads"), help: ArgumentHelp("The fewest readable image loads a real launch has; fewer is a `no-evidence` error (config: budgets.minLaunchLoads).", valueName: "n"))
    var minLoads: Int?

    enum FailLevel: String, ExpressibleByArgument, CaseIterable {
        case error, warning, note, never
    }

    func validate() throws {
        guard !bundles.isEmpty else { throw ValidationError("--bundle is required: the built app the log's names resolve against") }
        if let minLoads, minLoads < 0 { throw ValidationError("--min-loads takes a whole number ≥ 0") }
        if logs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (`-`) can be given as one log only") }
        if let device, DeviceProfile.named(device) == nil {
            throw ValidationError("unknown device `\(device)`; `imgtrace devices` lists them")
        }
        if let launchEnd {
            do { _ = try NSRegularExpression(pattern: launchEnd) } catch {
                throw ValidationError("--launch-end is not a valid regular expression: \(launchEnd)")
            }
        }
    }

    /// Reads the config, the bundle and every log, calling `onLoad` with each load as it streams
    /// by (log index and resolution), and returns the result with the settings used.
    /// `baselineLaunch`: the figures of the baseline the run is compared with, for `baseline-regression`.
    func audit(baselineLaunch: PhaseMetrics? = nil,
               onLoad: @escaping (ImageLoad, Int, Resolution?) -> Void = { _, _, _ in }) throws -> (AuditResult, AuditConfig) {
        var settings = try loadConfig()
        settings.baselineLaunch = baselineLaunch
        if let failOn { settings.failOn = failOn == .never ? nil : Severity(rawValue: failOn.rawValue) }
        if let launchEnd { settings.launchEnd = launchEnd }
        if let minLoads { settings.budgets.minLaunchLoads = minLoads }
        do {
            var inventory = try readInventory()
            inventory.junk.sort()
            let (profile, reason) = try chooseDevice(settings, inventory)
            let auditor = LaunchAuditor(inventory: inventory, device: profile, config: settings)
            let options = TraceOptions(launchEndPattern: settings.launchEnd)
            for (index, log) in logs.enumerated() {
                auditor.beginLog(log)
                let summary = try TraceReader.read(contentsOf: log, options: options) { load in
                    onLoad(load, index, auditor.add(load))
                }
                auditor.endLog(summary)
            }
            var result = auditor.finish()
            result.deviceReason = reason
            return (result, settings)
        } catch let error as InputError {
            throw failInput(error)
        }
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

    /// `--device`, else the config's device, else one chosen from the app's platform (with why).
    private func chooseDevice(_ settings: AuditConfig, _ inventory: BundleInventory) throws -> (DeviceProfile, String?) {
        if let device { return (DeviceProfile.named(device)!, nil) }
        guard let name = settings.device else {
            let app = inventory.bundles.first { $0.kind != .systemImages }
            let chosen = DeviceProfile.defaultFor(platform: app?.info?.platform, appKit: app?.usesAppKitNames ?? false)
            return (chosen.profile, "chosen for \(chosen.reason); --device overrides")
        }
        guard let profile = DeviceProfile.named(name) else {
            throw failInput(InputError(path: config ?? ConfigFile.defaultName, reason: "unknown device `\(name)`; `imgtrace devices` lists them"))
        }
        return (profile, nil)
    }

    private func readInventory() throws -> BundleInventory {
        var inventory: BundleInventory?
        for (index, bundle) in bundles.enumerated() {
            do {
                let next = try BundleReader.inventory(of: bundle, systemImages: index == 0 ? systemImages : [])
                if inventory == nil { inventory = next } else {
                    inventory!.append(next, as: PathText.lastComponent(bundle))
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
