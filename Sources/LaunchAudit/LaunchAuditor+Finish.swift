import AppBundle
import AuditModel
import AuditRules
import ImgtraceSupport

/// The audit's end: the rules run over every name, the launch figures combined, the result made.
extension LaunchAuditor {
    /// Runs every rule and returns the result; the audit ends (its names move into the result).
    public func finish() -> AuditResult {
        let framesUntrusted = loadsJudgedByFrames > 0 && !sawAppFrame
        settleToolkitLoads(framesUntrusted: framesUntrusted)
        settleMissing()
        // What only reading needed goes before the rules run.
        tallies = []
        slotForNameID = []
        index = [:]
        // Report order first, in place: launch-window names then form a prefix the rules see
        // without a copy, and a name finding's place stays valid in the result.
        uses.permute(by: reportOrder(uses))
        let launchCount = uses.firstIndex { $0.launchLoads == 0 } ?? uses.count
        let combined = combinedMetrics()
        let hits = unreadable.values.sorted { $0.status < $1.status }
        var context = RuleContext(
            device: device, config: config, inventory: inventory,
            uses: launchCount == uses.count ? uses : Array(uses[..<launchCount]), unreadable: hits, logs: logs,
            metrics: combined, systemBundles: systemBundles, baseline: baseline)
        context.baselineImages = baselineImages
        let findings = runRules(context, launchCount: launchCount)
        let ordered = uses
        uses = []
        let top = inventory.bundles.filter { $0.kind != .systemImages }.map(\.name)
        var result = AuditResult(
            device: device, logs: logs, metrics: combined, uses: ordered, unreadable: hits,
            findings: findings, bundleNames: top, inventoryImages: inventory.images.count,
            budgetBreaches: config.budgetBreaches(of: combined.launchSpread), failOn: config.failOn,
            warnings: warnings(framesUntrusted: framesUntrusted))
        result.budgetFigures = config.budgetFigures(of: combined.launchSpread)
        return result
    }

    /// Each log's missing names, once the toolkit's are known: a name only the toolkit asked for
    /// is not missing from the app, nor is one the config ignores (the budget and the figure say
    /// what the findings say).
    private func settleMissing() {
        func missing(_ slots: [Int]) -> Int {
            slots.count { uses[$0].resolution.cause?.isNotTheApps != true && !uses[$0].isToolkits && !config.ignore.coversName(uses[$0].name) }
        }
        for (index, unresolved) in logUnresolved.enumerated() {
            logs[index].metrics.launch.missing = missing(unresolved.launch)
            if logs[index].metrics.afterLaunch != nil { logs[index].metrics.afterLaunch?.missing = missing(unresolved.after) }
        }
        logUnresolved = []
    }

    /// Each name's API list, and its loads without frames counted as the toolkit's when the
    /// config names it; when no frame was the app's, frames told nothing, so none are the toolkit's by them.
    private func settleToolkitLoads(framesUntrusted: Bool) {
        let toolkit = config.toolkit.matcher
        for i in uses.indices {
            if framesUntrusted {
                tallies[i].launchLoadsWithoutFrames += uses[i].toolkitLaunchLoads
                uses[i].toolkitLaunchLoads = 0
            }
            uses[i].apis = tallies[i].apis.sorted()
            if tallies[i].launchLoadsWithoutFrames > 0, let name = uses[i].name, toolkit.contains(name) {
                uses[i].toolkitLaunchLoads += tallies[i].launchLoadsWithoutFrames
            }
        }
    }

    /// The figures over every log together, a log being one launch: each figure the median
    /// launch's, with its range (`PhaseSpread`); never a sum over launches.
    private func combinedMetrics() -> AuditMetrics {
        var combined = AuditMetrics()
        guard !logs.isEmpty else { return combined }
        combined.launchSpread = PhaseSpread(logs.map(\.metrics.launch))
        let after = logs.compactMap(\.metrics.afterLaunch)
        if !after.isEmpty { combined.afterLaunchSpread = PhaseSpread(after) }
        return combined
    }

    /// Every rule the config does not ignore, over `context`: a name rule per launch name (its
    /// findings kept as rank and place), the others once; an image's findings folded into one.
    private func runRules(_ context: RuleContext, launchCount: Int) -> FindingList {
        let nameContext = context.nameContext
        var findings = FindingList.Builder(uses: uses, context: nameContext)
        // Images in --system-images folders are the toolkit's: findings only about them are notes.
        let systemImages = Set(inventory.images.filter { systemBundles.contains($0.bundle) }.map(\.id))
        func judged(_ finding: inout Finding) -> Bool {
            if !finding.assets.isEmpty, finding.assets.allSatisfy(systemImages.contains), finding.severity < .note {
                finding.severity = .note
            }
            return config.judge(&finding)
        }
        var whole: [Finding] = []
        // Logs that are no capture at all (`no-evidence`) give no name a finding of its own.
        let namesJudged = !logs.allSatisfy(NoEvidenceRule.notACapture)
        for rule in Rules.all where !config.ignore.rules.contains(rule.id) {
            if let nameRule = rule as? any NameRule.Type {
                guard namesJudged else { continue }
                for slot in 0..<launchCount {
                    guard var finding = nameRule.finding(for: context.uses[slot], in: nameContext), judged(&finding) else { continue }
                    findings.add(nameFinding: finding, use: slot)
                }
            } else {
                for var finding in rule.check(context) where judged(&finding) { whole.append(finding) }
            }
        }
        for finding in ImageFindings.folded(whole, device: device.fingerprintKey) { findings.add(finding) }
        return findings.ranked()
    }

    /// The bundle's warnings (with an app of no image, and backtraces that never reached the
    /// app's code), then each log's.
    private func warnings(framesUntrusted: Bool) -> [AuditWarning] {
        var warnings = AuditWarning.ofBundle(inventory.warnings)
        if !inventory.images.contains(where: { !systemBundles.contains($0.bundle) }) {
            warnings.append(
                AuditWarning(
                    origin: .bundle, message: "the app ships no image at all: check that --bundle names the built app (symbolic links are followed in folders, not in archives)"))
        }
        if framesUntrusted {
            let modules = appModules.sorted().map { SafeText.quoted($0) }.joined(separator: ", ")
            warnings.append(
                AuditWarning(
                    origin: .bundle,
                    message:
                        "no backtrace frame is in the app's own code (\(modules.isEmpty ? "no executable named" : modules)): is --bundle the app the log was captured from? Backtraces were not used to tell the toolkit's loads from the app's"
                ))
        }
        for (index, log) in logs.enumerated() {
            warnings += AuditWarning.ofLog(log, index: index) + Self.setAsideWarnings(log, index: index)
        }
        return warnings
    }

    /// What a report says of a log's bare lines that were not taken as names: how many read as
    /// the app's output and where the first is, then each line that could be either.
    static func setAsideWarnings(_ log: LogReport, index: Int) -> [AuditWarning] {
        let lines = log.setAside
        let origin = WarningOrigin.log(index: index, path: log.path)
        let howToClean =
            "filter Xcode's console to Debugger Output, or capture with `imgtrace lldb-script` (its lines are marked); --names-only (config namesOnly) takes every line as a name"
        var warnings: [AuditWarning] = []
        if lines.output > 0, let first = lines.firstOutputLine {
            let quoted = lines.examples.map { SafeText.quoted($0) }.joined(separator: ", ")
            let examples = quoted.isEmpty ? "" : " (\(quoted)\(lines.output > lines.examples.count ? ", …" : ""))"
            warnings.append(
                AuditWarning(
                    origin: origin, line: first,
                    message: "\(counted(lines.output, "line")) not read as names: they look like the app's own output\(examples), "
                        + "never a load or a finding; first at line \(first) — \(howToClean)"))
        }
        for unsure in lines.unsure {
            warnings.append(
                AuditWarning(
                    origin: origin, line: unsure.line,
                    message:
                        "\(SafeText.quoted(unsure.text)) resolves to no image and reads as the app's output as much as a name: not judged (--names-only judges it as a missing image)"
                ))
        }
        if lines.unsureCount > lines.unsure.count {
            warnings.append(AuditWarning(origin: origin, message: "\(counted(lines.unsureCount - lines.unsure.count, "more such line")) not judged"))
        }
        return warnings
    }

    /// Positions of `uses` in report order: launch-window names first, each group by decoded
    /// bytes, then by name and kind.
    private func reportOrder(_ uses: [NameUse]) -> [Int32] {
        var order = Array(0..<Int32(uses.count))
        uses.withUnsafeBufferPointer { uses in
            order.sort { i, j in
                let a = uses[Int(i)], b = uses[Int(j)]
                if (a.launchLoads > 0) != (b.launchLoads > 0) { return a.launchLoads > 0 }
                let ca = a.resolution.image?.decodedBytes ?? 0, cb = b.resolution.image?.decodedBytes ?? 0
                if ca != cb { return ca > cb }
                if a.displayName != b.displayName { return a.displayName < b.displayName }
                return a.kind.rawValue < b.kind.rawValue
            }
        }
        return order
    }
}
