import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
import CodeReferences
import Foundation
import ImgtraceSupport
import LaunchTrace
import ProjectModel
import UnusedAudit

extension AuditSession {
    /// Judges what the app ships against its code, interface files, plists and the request's
    /// launches (`imgtrace unused`): a result whose findings are the `Rules.unused` verdicts,
    /// with the config's ignores, severities and fail level and the request's baseline applied.
    public static func unused(_ request: AuditRequest) throws -> AuditOutcome<UnusedResult> {
        let baseline = try request.baselinePath.map { try Baseline.load(path: $0, scope: UnusedResult.baselineScope) }
        let settings = try settings(for: request)
        let inventory = try readInventory(request, readingCodeStrings: true)
        let (device, reason) = try chooseDevice(request, settings, inventory)
        var code: CodeIndex?
        if let root = settings.sourceRoot {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw InputError(path: root, reason: "--source-root is not a folder")
            }
            code = CodeIndex.scan(root: root, only: UnusedImages.codeFilter(for: inventory))
        }
        let (logs, loaded, notLaunches) = try readLaunches(request, settings, resolver: NameResolver(inventory: inventory, device: device))
        let (judged, namingReferences) = UnusedImages.judgement(inventory: inventory, code: code, loaded: loaded, device: device)
        let (projects, projectWarnings) = try readProjects(request, inventory)
        let (shipped, notShipped) = sortByShipping(judged, request, projects)
        var (assets, findings, ignored) = judge(shipped, settings, device: device, code: CodeSearch(code))
        for var finding in notLaunches where settings.judge(&finding) { findings.append(finding) }
        var warnings = AuditWarning.ofBundle(inventory.warnings)
        if let code, let root = settings.sourceRoot { warnings += sourceWarnings(code, root: root) }
        warnings += projectWarnings.map { AuditWarning(origin: .bundle, message: $0) }
        warnings += baselineWarnings(baseline, path: request.baselinePath) + launchWarnings(logs)
        var summary = UnusedSummary(
            assets: assets, swiftFiles: code?.swiftFiles, objcFiles: code?.objcFiles, dataFiles: code?.dataFiles, references: code.map { _ in namingReferences })
        summary.ignored = ignored
        if !projects.isEmpty {
            summary.notShipped = notShipped
            summary.projects = projects.flatMap { input in input.set.projects.map { input.prefix + $0.path } }
            summary.projectFiles = projects.flatMap(\.set.filesRead)
        }
        var result = UnusedResult(
            device: device, deviceReason: reason, logs: logs, findings: FindingList(findings.sorted(by: Finding.reportOrder)),
            bundleNames: inventory.bundles.filter { $0.kind != .systemImages }.map(\.name), inventoryImages: inventory.images.count,
            failOn: settings.failOn, warnings: warnings, summary: summary, bundlePaths: request.bundles, logPaths: request.logs)
        for index in sourceTrees(request, inventory) where !projects.contains(where: { $0.index == index }) {
            let bundle = request.bundles[index]
            result.warnings.append(
                AuditWarning(
                    origin: .bundle,
                    message: "\(bundle): no Xcode project found in this source tree: every image in it is taken as shipped (give one with --project)"))
        }
        if let root = settings.sourceRoot {
            let index = try SourceIndex.read(root: root)
            result.locateSources(in: index, root: root, inventory: inventory, code: code)
        }
        let comparison = baseline.map { BaselineComparison(baseline: $0, result: result, tolerance: settings.baselineTolerance) }
        return AuditOutcome(result: result, settings: settings, baseline: comparison)
    }

    /// Each launch's summary, every name they loaded (nil when no launch was given), and a
    /// `no-evidence` finding for each file that is no capture at all (a crash report, notes): as in
    /// `analyze`, its "names" keep nothing loaded, and nothing is called never loaded by it alone.
    private static func readLaunches(
        _ request: AuditRequest, _ settings: AuditConfig, resolver: NameResolver
    ) throws -> (logs: [LogReport], loaded: Set<String>?, notLaunches: [Finding]) {
        var loaded: Set<String>?
        var logs: [LogReport] = []
        var notLaunches: [Finding] = []
        for (index, log) in request.logs.enumerated() {
            var names = Set<String>()
            var loads = 0
            let summary = try TraceReader.read(contentsOf: log, options: TraceOptions(launchEnd: settings.launchEnd, namesOnly: settings.namesOnly)) { load in
                loads += 1
                if load.status == .ok, let name = load.name { names.insert(name) }
            }
            // What `no-evidence` reads of a launch: its loads, and whether any names an image.
            var metrics = AuditMetrics()
            metrics.launch.loads = loads
            metrics.launch.images = names.contains { resolver.resolve($0, kind: .name).image != nil } ? 1 : 0
            let report = LogReport(path: log, summary: summary, metrics: metrics)
            logs.append(report)
            if let finding = NoEvidenceRule.notALaunch(report, index: index, of: request.logs.count) {
                notLaunches.append(finding)
                continue
            }
            loaded = (loaded ?? []).union(names)
        }
        return (logs, loaded, notLaunches)
    }

    /// The judged images the app ships, and apart those of a source tree with a project that
    /// no shipping target copies: they are not in the app, so in no figure.
    private static func sortByShipping(
        _ judged: [UnusedImages.Asset], _ request: AuditRequest, _ projects: [(index: Int, prefix: String, set: ProjectSet)]
    ) -> (shipped: [UnusedImages.Asset], notShipped: [UnusedImages.Asset]) {
        var assets: [UnusedImages.Asset] = [], notShipped: [UnusedImages.Asset] = []
        let prefixes = request.bundles.indices.map { BundleID.pathPrefix(ofGiven: $0, path: request.bundles[$0]) }
        for var asset in judged {
            let path = asset.paths.first ?? ""
            let inputIndex = prefixes.indices.last { $0 > 0 && path.hasPrefix(prefixes[$0]) } ?? 0
            guard let input = projects.first(where: { $0.index == inputIndex }) else {
                assets.append(asset)
                continue
            }
            // Each path by the targets that copy it: a namesake no target ships (a designer's
            // original elsewhere in the tree) is no part of the shipped image, nor of its deletion.
            let shipping = asset.paths.map { input.set.targets(shipping: String($0.dropFirst(input.prefix.count))) }
            asset.targets = XcodeProject.union(shipping)
            if asset.targets.isEmpty {
                notShipped.append(asset)
            } else {
                asset.paths = zip(asset.paths, shipping).filter { !$0.1.isEmpty }.map(\.0)
                assets.append(asset)
            }
        }
        return (assets, notShipped)
    }

    /// The findings of the shipped images with the config's judgement applied; an ignored
    /// image leaves the findings and every figure (one story per report), and is counted.
    private static func judge(
        _ shipped: [UnusedImages.Asset], _ settings: AuditConfig, device: DeviceProfile, code search: CodeSearch
    ) -> (assets: [UnusedImages.Asset], findings: [Finding], ignored: Int) {
        var findings: [Finding] = []
        var ignored = 0
        let assets = shipped.filter { asset in
            guard let rule = Rules.unused.first(where: { $0.verdict == asset.verdict }) else { return true }
            var finding = rule.finding(for: asset, device: device, code: search)
            guard settings.judge(&finding) else {
                ignored += 1
                return false
            }
            findings.append(finding)
            return true
        }
        return (assets, findings, ignored)
    }

    /// Each log's reading warnings, and one for a log without a single image load.
    private static func launchWarnings(_ logs: [LogReport]) -> [AuditWarning] {
        var warnings: [AuditWarning] = []
        for (index, log) in logs.enumerated() {
            warnings += AuditWarning.ofLog(log, index: index)
            if log.summary.hits == 0 {
                warnings.append(
                    AuditWarning(
                        origin: .log(index: index, path: log.path),
                        message: "no image load in this log: it keeps no image alive (is it a launch captured with `imgtrace lldb-script` or `record`?)"))
            }
        }
        return warnings
    }

    /// One warning per source file read in part or not at all.
    static func sourceWarnings(_ code: CodeIndex, root: String) -> [AuditWarning] {
        code.partlyRead.map { partly in
            let file = SafeText.quoted(partly.file)
            switch partly.reason {
            case .readWithoutSyntaxTree:
                return AuditWarning(
                    origin: .sourceRoot(path: root),
                    message: "\(file): too large or too deeply nested to parse: read by a lexer, its string literals and member names count")
            case .unread(let reason):
                return AuditWarning(origin: .sourceRoot(path: root), message: "\(file): not read (\(reason)): the images it might name are not judged")
            }
        }
    }

    /// Warnings about the baseline file: fingerprints it repeated (each was read once), and
    /// launch figures written before they were per launch.
    public static func baselineWarnings(_ baseline: Baseline?, path: String?) -> [AuditWarning] {
        guard let baseline, let path else { return [] }
        var warnings: [AuditWarning] = []
        if baseline.duplicateEntries > 0 {
            warnings.append(
                AuditWarning(
                    origin: .baseline(path: path),
                    message: "\(counted(baseline.duplicateEntries, "finding")) repeated a fingerprint already in the file: each counted once"))
        }
        if baseline.mayHoldSummedLaunches, baseline.scope == .launch {
            warnings.append(
                AuditWarning(
                    origin: .baseline(path: path),
                    message:
                        "written in schema \(baseline.schema), before launch figures were per launch: if it was written from several logs its figures are their sum; compared as they are — write it again with `imgtrace baseline write`"
                ))
        }
        return warnings
    }

    /// The indices of the `--bundle`s the inventory read as source trees (the reader's one rule:
    /// a folder that holds code or a project). A later bundle's top is filed under its folder name.
    static func sourceTrees(_ request: AuditRequest, _ inventory: BundleInventory) -> [Int] {
        request.bundles.indices.filter { index in
            let id = BundleID.ofGiven(index, path: request.bundles[index])
            return inventory.bundles.first { $0.id == id }?.isSourceTree == true
        }
    }

    /// The projects of each `--bundle` that is a source tree, with the prefix its paths carry in
    /// the inventory (the first bundle's none, a later one's its folder name).
    /// What could not be read is a warning; a tree none of whose projects could be read is judged as one without.
    static func readProjects(
        _ request: AuditRequest, _ inventory: BundleInventory
    ) throws -> (projects: [(index: Int, prefix: String, set: ProjectSet)], warnings: [String]) {
        let trees = sourceTrees(request, inventory)
        if !request.projects.isEmpty, request.bundles.count != 1 || trees != [0] {
            throw InputError(path: request.projects[0], reason: "--project needs one --bundle: the source tree that holds the project")
        }
        var warnings: [String] = []
        let projects: [(index: Int, prefix: String, set: ProjectSet)] = try trees.compactMap { index in
            let bundle = request.bundles[index]
            let set = try ProjectSet.read(root: bundle, given: request.projects)
            warnings += set.warnings
            return set.projects.isEmpty ? nil : (index, BundleID.pathPrefix(ofGiven: index, path: bundle), set)
        }
        return (projects, warnings)
    }
}
