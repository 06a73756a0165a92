import AppBundle
import AuditModel
import AuditPolicy
import CodeReferences
import ImgtraceSupport
import LaunchTrace

/// What to audit and how: the inputs, and the settings that override the config file's.
public struct AuditRequest: Sendable {
    /// Debugger logs, one per launch (`-` is standard input).
    public var logs: [String]
    /// The built app first, then any bundle it ships with (`.app`, `.ipa`, `.xcarchive`, …).
    public var bundles: [String]
    /// Folders of framework or OS images that names may resolve to.
    public var systemImages: [String] = []
    /// A device profile id (`imgtrace devices`); nil: the config's, else one chosen for the app.
    public var device: String?
    /// A regular expression whose first match ends the launch window.
    public var launchEnd: LaunchEndPattern?
    /// The config file; nil: `.imgtrace.yml` in the working directory when there is one.
    public var configPath: String?
    /// Replaces the config's fail level; `.some(nil)` never fails.
    public var failOn: Severity??
    /// Replaces the config's `budgets.minLaunchLoads`.
    public var minLaunchLoads: Int?
    /// A baseline from `imgtrace baseline write`: only what is new or worse than it fails.
    public var baselinePath: String?
    /// A baseline given as a value (the median of a history's recent builds) when there is no
    /// `baselinePath`, and what its messages name it (the history's file or server).
    public var baseline: Baseline?
    public var baselineName: String?
    /// `--names-only`: every bare console line is a name (sets the config's `namesOnly`).
    public var namesOnly = false
    /// Replaces the config's `sourceRoot`: the app's source tree findings are mapped back to.
    public var sourceRoot: String?
    /// `unused`: the Xcode projects (or workspaces) that say what the source tree given as the bundle ships;
    /// empty: every project found in it.
    public var projects: [String] = []

    public init(logs: [String], bundles: [String]) {
        self.logs = logs
        self.bundles = bundles
    }
}

/// A command's result with its verdict: `AuditOutcome<AuditResult>` from `run`,
/// `AuditOutcome<UnusedResult>` from `unused`.
public struct AuditOutcome<Result: CommandResult>: Sendable {
    public var result: Result
    /// The settings the audit ran with (config file and overrides together).
    public var settings: AuditConfig
    /// The audit measured against the baseline, when one was given.
    public var baseline: BaselineComparison?

    /// Whether the run fails the policy: with a baseline, new failing findings; without, any
    /// failing finding (budgets, missing evidence and regressions are findings too).
    public var fails: Bool { baseline?.fails ?? result.fails }
}

/// Runs a whole audit: reads the config, the bundles and every log (streamed), judges every
/// load, then budgets and the baseline. This is the entry point for tools that embed imgtrace;
/// the command line is a thin shell over it.
public enum AuditSession {
    /// Audits `request`. `onLoad` sees each load as it streams by, with the index of its log and
    /// its resolution (nil for a hit without a name). Every unreadable input is an `InputError`.
    public static func run(
        _ request: AuditRequest,
        onLoad: @escaping (ImageLoad, Int, Resolution?) -> Void = { _, _, _ in }
    ) throws -> AuditOutcome<AuditResult> {
        let baseline = try request.baselinePath.map { try Baseline.load(path: $0) } ?? request.baseline
        let baselineName = request.baselinePath ?? request.baselineName
        let settings = try settings(for: request)
        var inventory = try readInventory(request)
        inventory.junk.sort()
        let (profile, reason) = try chooseDevice(request, settings, inventory)
        let auditor = LaunchAuditor(inventory: inventory, device: profile, config: settings, baseline: baseline?.launch, baselineImages: baseline?.images)
        let options = TraceOptions(launchEnd: settings.launchEnd, listsNames: false, namesOnly: settings.namesOnly)
        for (index, log) in request.logs.enumerated() {
            auditor.beginLog(log)
            let summary = try TraceReader.read(contentsOf: log, options: options) { load in
                let resolution = auditor.add(load)
                // A named bare line without a resolution was set aside as the app's output: no load.
                if load.fromBareLine, load.status == .ok, resolution == nil { return }
                onLoad(load, index, resolution)
            }
            auditor.endLog(summary)
        }
        var result = auditor.finish()
        result.deviceReason = reason
        (result.bundlePaths, result.logPaths) = (request.bundles, request.logs)
        for thinned in inventory.thinning where thinned.scale != profile.scale || (thinned.idiom != nil && thinned.idiom != profile.idiom) {
            result.warnings.append(
                AuditWarning(
                    origin: .bundle,
                    message:
                        "\(thinned.file) was thinned for \(thinned.description) devices: judged on \(profile.id) (@\(profile.scale)x \(profile.idiom.name)), the variants thinning removed are not findings"
                ))
        }
        if let root = settings.sourceRoot {
            let index = try SourceIndex.read(root: root)
            let code = CodeIndex.scan(root: root)
            result.warnings += sourceWarnings(code, root: root)
            result.locateSources(in: index, root: root, inventory: inventory, code: code)
        }
        result.warnings += baselineWarnings(baseline, path: baselineName)
        if let path = baselineName, let theirs = baseline?.app, let ours = result.bundleNames.first, theirs != ours {
            result.warnings.append(
                AuditWarning(
                    origin: .baseline(path: path),
                    message:
                        "written for \(SafeText.quoted(theirs)), not \(SafeText.quoted(ours)): another app's findings read as fixed and this one's as new; write a baseline of this app"
                ))
        }
        let comparison = baseline.map { BaselineComparison(baseline: $0, result: result, tolerance: settings.baselineTolerance) }
        return AuditOutcome(result: result, settings: settings, baseline: comparison)
    }

    /// The config file's settings with the request's overrides.
    public static func settings(for request: AuditRequest) throws -> AuditConfig {
        var settings = try ConfigFile.settings(explicit: request.configPath)
        settings.configFile = ConfigFile.path(explicit: request.configPath).map(PathText.lastComponent)
        if let failOn = request.failOn { settings.failOn = failOn }
        if let launchEnd = request.launchEnd { settings.launchEnd = launchEnd }
        if let minLoads = request.minLaunchLoads { settings.evidence.minLaunchLoads = minLoads }
        if let root = request.sourceRoot { settings.sourceRoot = root }
        if request.namesOnly { settings.namesOnly = true }
        return settings
    }

    /// The request's device, else the config's, else one chosen from the app's platform (with why).
    static func chooseDevice(
        _ request: AuditRequest, _ settings: AuditConfig,
        _ inventory: BundleInventory
    ) throws -> (DeviceProfile, String?) {
        if let id = request.device {
            guard let profile = DeviceProfile.named(id) else {
                throw InputError(path: "--device", reason: "unknown device \(SafeText.quoted(id)); \(DeviceProfile.unknownNameHelp(id))")
            }
            return (profile, nil)
        }
        guard let name = settings.device else {
            // A thinned catalog says which device it was cut for: judge it on that one.
            if let thinned = inventory.thinning.first,
                let profile = DeviceProfile.builtIn.first(where: { $0.scale == thinned.scale && (thinned.idiom == nil || $0.idiom == thinned.idiom) })
            {
                return (profile, "chosen for \(thinned.file)'s thinning (cut for \(thinned.description) devices); --device overrides")
            }
            let app = inventory.bundles.first { $0.kind != .systemImages }
            let chosen = DeviceProfile.defaultFor(platform: app?.info?.platform, appKit: app?.usesAppKitNames ?? false)
            return (chosen.profile, "chosen for \(chosen.reason); --device overrides")
        }
        guard let profile = DeviceProfile.named(name) else {
            throw InputError(path: request.configPath ?? ConfigFile.defaultName, reason: "unknown device \(SafeText.quoted(name)); \(DeviceProfile.unknownNameHelp(name))")
        }
        return (profile, nil)
    }

    /// Every bundle's inventory, the first one's with the system image folders.
    /// Whether a `--bundle` without images or Info.plist is still a program's: named as a bundle
    /// is (`Empty.app`), or a folder that holds an executable (a Linux program's).
    static func looksLikeAProgram(_ path: String) -> Bool {
        let bundleExtensions: Set<String> = ["app", "ipa", "xcarchive", "appex", "framework", "car", "xcassets", "bundle"]
        if bundleExtensions.contains(PathText.fileExtension(PathText.lastComponent(path)).lowercased()) { return true }
        guard let top = try? DirectoryWalk(root: path, links: .followed, maxEntries: 10_000, folders: { _ in .listOnly }) else { return false }
        return top.entries.contains { $0.kind == .file && access(path + "/" + $0.path, X_OK) == 0 }
    }

    static func readInventory(_ request: AuditRequest, readingCodeStrings: Bool = false) throws -> BundleInventory {
        var inventory: BundleInventory?
        for (index, bundle) in request.bundles.enumerated() {
            do {
                let next = try BundleReader.inventory(
                    of: bundle, systemImages: index == 0 ? request.systemImages : [], readingCodeStrings: readingCodeStrings)
                // Nothing in it says it is an app: judging a log against it would call every name missing.
                if next.images.isEmpty, next.bundles.allSatisfy({ $0.infoPlistPath == nil && $0.info == nil }), !looksLikeAProgram(bundle) {
                    throw InputError(
                        path: bundle,
                        reason: "not an app: no Info.plist, no asset catalog and no image (give the built .app, .ipa or .xcarchive, or the app's source folder)")
                }
                if inventory == nil {
                    inventory = next
                } else {
                    inventory!.append(next, as: BundleID.ofGiven(index, path: bundle))
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
