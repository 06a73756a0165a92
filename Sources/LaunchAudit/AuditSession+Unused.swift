import AppBundle
import CodeReferences
import Foundation
import ImgtraceSupport
import LaunchTrace

extension AuditSession {
    /// Judges what the app ships against its code, interface files, plists and the request's
    /// launches (`imgtrace unused`): a result whose findings are the `Rules.unused` verdicts,
    /// with the config's ignores, severities and fail level and the request's baseline applied.
    public static func unused(_ request: AuditRequest) throws -> AuditOutcome {
        let baseline = try request.baselinePath.map { try Baseline.load(path: $0, scope: .unused) }
        let settings = try config(for: request)
        let inventory = try readInventory(request, readingCodeStrings: true)
        let (device, reason) = try chooseDevice(request, settings, inventory)
        var code: CodeIndex?
        if let root = settings.sourceRoot {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw InputError(path: root, reason: "--source-root is not a folder")
            }
            code = CodeIndex.scan(root: root)
        }
        var loaded: Set<String>?
        var logs: [LogReport] = []
        for log in request.logs {
            var names = loaded ?? []
            let summary = try TraceReader.read(contentsOf: log, options: TraceOptions(launchEnd: settings.launchEnd)) { load in
                if load.status == .ok, let name = load.name { names.insert(name) }
            }
            loaded = names
            logs.append(LogReport(path: log, summary: summary, metrics: AuditMetrics()))
        }
        let (assets, namingReferences) = UnusedImages.judgement(inventory: inventory, code: code, loaded: loaded, device: device)
        var findings: [Finding] = []
        for asset in assets {
            guard let rule = Rules.unused.first(where: { $0.verdict == asset.verdict }) else { continue }
            var finding = rule.finding(for: asset, device: device, codeSearched: code != nil)
            if let severity = settings.severities[finding.rule] { finding.severity = severity }
            if !settings.ignore.covers(finding) { findings.append(finding) }
        }
        var warnings = inventory.warnings.map { AuditWarning(origin: .bundle, message: $0) }
        for (index, log) in logs.enumerated() {
            warnings += log.summary.warnings.map { AuditWarning(origin: .log(index: index, path: log.path), line: $0.line, message: $0.message) }
            if log.summary.hits == 0 {
                warnings.append(
                    AuditWarning(
                        origin: .log(index: index, path: log.path),
                        message: "no image load in this log: it keeps no image alive (is it a launch captured with `imgtrace lldb-script` or `record`?)"))
            }
        }
        var result = AuditResult(
            device: device, logs: logs, metrics: AuditMetrics(), uses: [], unreadable: [],
            findings: FindingList(findings.sorted(by: Finding.reportOrder)),
            bundleNames: inventory.bundles.filter { $0.kind != .systemImages }.map(\.name), inventoryImages: inventory.images.count,
            budgetBreaches: [], failOn: settings.failOn, warnings: warnings)
        result.deviceReason = reason
        result.unused = UnusedSummary(
            assets: assets, swiftFiles: code?.swiftFiles, objcFiles: code?.objcFiles, dataFiles: code?.dataFiles, references: code.map { _ in namingReferences })
        if let root = settings.sourceRoot {
            let index = try SourceIndex.read(root: root)
            result.locateSources(in: index, root: root, inventory: inventory, code: code)
        }
        let comparison = baseline.map { BaselineComparison(baseline: $0, result: result, tolerance: settings.baselineTolerance) }
        return AuditOutcome(result: result, settings: settings, baseline: comparison)
    }
}
