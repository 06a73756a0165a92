import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
import CodeReferences
import LaunchAudit
import LaunchTrace
import UnusedAudit

// Running an example is a test's job: the rules declare their examples, this target runs them.
extension RuleExample {
    /// The example's code as `imgtrace unused` reads it.
    package var codeIndex: CodeIndex {
        var index = CodeIndex(
            references: sources.flatMap { source in
                source.file.hasSuffix(".swift")
                    ? SwiftReferences.scan(source.text, file: source.file) : ObjCReferences.scan(Array(source.text.utf8), file: source.file)
            })
        index.swiftFiles = sources.filter { $0.file.hasSuffix(".swift") }.count
        index.objcFiles = sources.count - index.swiftFiles
        return index
    }

    /// Judges every image the example ships as `imgtrace unused` does: its loads are one launch
    /// (none given when it has none).
    package func judgeUnused(device: DeviceProfile = .default) -> [UnusedImages.Asset] {
        let loaded = loads.isEmpty ? nil : Set(events.compactMap(\.name))
        return UnusedImages.judge(inventory: inventory, code: codeIndex, loaded: loaded, device: device)
    }

    /// Audits the example for `device` with `config` (default settings unless given) and the example's own settings.
    package func audit(device: DeviceProfile = .default, config: AuditConfig = AuditConfig()) -> AuditResult {
        var config = config
        for assignment in settings { assignment.setting.apply(assignment.value, to: &config) }
        var baseline: PhaseMetrics?
        if let baselineImages {
            var launch = PhaseMetrics()
            launch.images = baselineImages
            launch.loads = Int.max / 2
            launch.decodedBytes = Int.max / 2
            launch.bytesOnDisk = Int.max / 2
            baseline = launch
        }
        let auditor = LaunchAuditor(inventory: inventory, device: device, config: config, baseline: baseline)
        auditor.beginLog("example.log")
        // An example is an lldb capture's loads (a file with no debugger line and no image the
        // app ships is no capture at all: `no-evidence`).
        var summary = TraceSummary()
        summary.debugger = .lldb
        for event in events {
            auditor.add(event)
            summary.hits += 1
            summary.statusCounts[event.status, default: 0] += 1
        }
        // The example log has a line per load (and is empty when there are none).
        summary.lines = events.count
        summary.bytes = events.count * 20
        auditor.endLog(summary)
        return auditor.finish()
    }
}
