import AuditModel
import ImgtraceSupport
import LaunchAudit
import LaunchTrace

/// `analyze --history`: the audit gated against the median of the branch's recent builds (when
/// no baseline file is given), then the build recorded, in one transaction.
public enum HistoryAudit {
    /// Audits `request` as `AuditSession.run` does; without `baselinePath`, against the history.
    /// `pauseForTests` runs inside the write's transaction (a test stops the process there).
    public static func run(
        _ request: AuditRequest, history: BuildHistory, identity: BuildIdentity, pauseForTests: (() -> Void)? = nil,
        onLoad: @escaping (ImageLoad, Int, Resolution?) -> Void = { _, _, _ in }
    ) throws -> AuditOutcome<AuditResult> {
        var request = request
        var note: String?
        if request.baselinePath == nil {
            let window = try AuditSession.settings(for: request).historyWindow
            switch try HistoryGate.against(history, branch: identity.branch, build: identity.build, window: window) {
            case .gate(let gate):
                request.baseline = gate.baseline
                request.baselineName = history.location
                let ids = gate.builds.map(\.build)
                let span = ids.count > 2 ? "\(ids[0]) … \(ids[ids.count - 1])" : ids.joined(separator: ", ")
                note = "gated against the median of the last \(counted(ids.count, "build")) of \(SafeText.quoted(gate.branch)) (\(span))"
            case .tooFew(let count, let branch):
                note =
                    "holds \(counted(count, "build")) of \(SafeText.quoted(branch)): fewer than \(HistoryGate.minimumBuilds), so nothing is gated against it yet"
            }
        }
        var outcome = try AuditSession.run(request, onLoad: onLoad)
        if let note { outcome.result.warnings.append(AuditWarning(origin: .baseline(path: history.location), message: note)) }
        try history.record(BuildRecord(outcome.result, identity: identity), pauseForTests: pauseForTests)
        return outcome
    }
}
