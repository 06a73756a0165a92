import AuditModel
import AuditPolicy
import ImgtraceSupport

/// Hits that printed no name: the audit cannot see what they loaded.
package enum TraceUnreadableRule: AuditRule {
    package static let id = "trace-unreadable"
    package static let summary = "Breakpoint hits with no readable name (wrong register, address only, skipped): the audit is incomplete."
    package static let defaultSeverity = Severity.warning
    package static let parameters = "none"
    package static let examples: [RuleExample] = [
        RuleExample("a hit whose action failed", images: [.init("tab@3x.png", 75, 75)], loads: [.named("tab"), .unreadable], fires: true),
        RuleExample("every hit printed a name", images: [.init("tab@3x.png", 75, 75)], loads: [.named("tab")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        let advice = context.logs.flatMap(\.summary.warnings).map(\.message).first
        return context.unreadable.map { hits in
            let why: String
            switch hits.status {
            case .error: why = "the breakpoint action failed"
            case .addressOnly: why = "only an address was printed, not the string"
            default: why = "the debugger skipped the action"
            }
            let total = context.logs.reduce(0) { $0 + $1.summary.hits }
            let share = total > 0 ? " (\(hits.count * 100 / total)% of \(counted(total, "hit")) lost)" : ""
            var message: Phrase = "\(counted(hits.count, "hit")) printed no name\(share): \(why)"
            // The reader's warning names the likely cause (a register that does not exist here).
            if hits.status == .error, let advice { message.append(" (\(Phrase(marked: advice)))") }
            return Finding(
                rule: id, severity: defaultSeverity, identity: hits.status.rawValue, device: "",
                message: message,
                fix: .captureAgainReadingMemory,
                lines: hits.lines, values: ["hits": .int(hits.count), "status": .string(hits.status.rawValue)],
                occurrences: hits.count)
        }
    }
}
