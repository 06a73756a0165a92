import AuditModel
import AuditPolicy
import ImgtraceSupport

/// A log that shows no readable image load: the gate would otherwise pass having seen nothing.
package enum NoEvidenceRule: AuditRule {
    package static let id = "no-evidence"
    package static let summary =
        "A log with no readable image load (empty, breakpoints never resolved, every hit unreadable, or fewer loads than `budgets.minLaunchLoads`): the audit saw nothing, so it must not pass."
    package static let defaultSeverity = Severity.error
    package static let parameters = "`\(minimumLoads.path)` / `--min-loads N`: the fewest readable loads a real launch has"
    /// The fewest readable loads a real launch has.
    package static let minimumLoads = RuleSetting.count(
        "budgets", "minLaunchLoads", unset: "none", help: "fewer readable launch loads than this is a no-evidence error (the capture saw too little)",
        \.evidence.minLaunchLoads)
    package static var settings: [RuleSetting] { [minimumLoads] }
    package static let examples: [RuleExample] = [
        RuleExample("an empty log", images: [.init("tab@3x.png", 75, 75)], loads: [], fires: true),
        RuleExample("every hit failed to print a name", images: [.init("tab@3x.png", 75, 75)], loads: [.unreadable, .unreadable], fires: true),
        RuleExample("fewer loads than the launch has", images: [.init("tab@3x.png", 75, 75)], loads: [.named("tab")], settings: [minimumLoads.set(5)], fires: true),
        RuleExample("one readable load among failures", images: [.init("tab@3x.png", 75, 75)], loads: [.unreadable, .named("tab")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        context.logs.enumerated().compactMap { index, log -> Finding? in
            guard let problem = problem(log, minimum: context.config.evidence.minLaunchLoads) else { return nil }
            return finding(problem, log: log, index: index, of: context.logs.count)
        }
    }

    /// `imgtrace unused`'s evidence: a file that is no capture at all (`notACapture`) is this
    /// rule's finding there too, and its "names" keep no image loaded. Nil for a capture.
    package static func notALaunch(_ log: LogReport, index: Int, of count: Int) -> Finding? {
        guard notACapture(log), let problem = problem(log, minimum: nil), problem.0 == "not-a-capture" else { return nil }
        return finding(problem, log: log, index: index, of: count)
    }

    private static func finding(_ problem: (String, Phrase, FixKind), log: LogReport, index: Int, of count: Int) -> Finding {
        let (kind, message, fix) = problem
        let name: Phrase = count > 1 ? "log #\(index + 1) (\(code: log.path)): " : ""
        return Finding(
            rule: id, severity: defaultSeverity, identity: "\(kind)#\(index + 1)", device: "",
            message: name + message, fix: fix,
            values: [
                "reason": .string(kind), "hits": .int(log.summary.hits),
                "readableLaunchLoads": .int(readableLaunchLoads(log)),
            ],
            occurrences: 1)
    }

    /// Any text's lines read as Xcode's bare console (one name a line). With no debugger line,
    /// stop, breakpoint or marker, and no name the app ships, nothing says the file is a capture:
    /// its "names" are judged by this rule alone.
    package static func notACapture(_ log: LogReport) -> Bool {
        let summary = log.summary
        let resolved = [log.metrics.launch, log.metrics.afterLaunch].compactMap { $0 }.reduce(0) { $0 + $1.images + $1.symbols + $1.dataLoads }
        return summary.debugger == .unknown && summary.recording == nil && summary.breakpoints.isEmpty && summary.launchEnd == nil
            && summary.kinds.isEmpty && resolved == 0 && log.metrics.launch.loads + (log.metrics.afterLaunch?.loads ?? 0) > 0
    }

    /// Loads in the launch window that printed a name (or an explicit nil or empty one).
    package static func readableLaunchLoads(_ log: LogReport) -> Int {
        log.metrics.launch.loads - log.metrics.launch.unreadable
    }

    private static func problem(_ log: LogReport, minimum: Int?) -> (String, Phrase, FixKind)? {
        let summary = log.summary
        // What the auditor itself counted: a summary may be partial, the loads are not.
        let loads = log.metrics.launch.loads + (log.metrics.afterLaunch?.loads ?? 0)
        let capture = FixKind.captureWithLldbScript
        // A debugger that crashed before the launch end saw part of a launch, like a cut-off recording.
        if let crash = summary.debuggerCrashLine, summary.launchEnd.map({ $0.line > crash }) ?? true {
            return (
                "debugger-crashed",
                "the debugger crashed at line \(crash), before the launch end: the log holds only part of a launch, and what it printed after is its crash report, not loads",
                .captureAgainAfterDebuggerCrash
            )
        }
        // So did a capture that ends with the program stopped before the launch end.
        if let stop = summary.stoppedAtEndLine, summary.launchEnd.map({ $0.line > stop }) ?? true {
            return (
                "capture-stopped",
                "the program stopped at line \(stop), before the launch end, and the log ends there: it holds only part of a launch",
                .readStopReport
            )
        }
        if loads == 0, let recording = summary.recording {
            // `imgtrace record` said how the program ended: say that, not a guess about breakpoints.
            if recording.program.endedByItself {
                return (
                    "program-ended", "the program \(recording.program.sentence) before any image load: nothing was captured",
                    .readProgramOutput
                )
            }
            return (
                "stopped-early", "the program \(recording.program.sentence) before any image load: nothing was captured",
                .recordLonger
            )
        }
        if loads == 0, summary.bytes == 0 || summary.lines == 0 {
            return ("empty", "the log is empty: nothing was captured", capture)
        }
        if loads == 0 {
            let pending = summary.pendingBreakpoints
            if !pending.isEmpty {
                let list = Phrase.joined(pending.map { "\($0.id)\($0.symbol.map { " (\(code: $0))" } ?? "")" }, separator: ", ")
                return (
                    "pending", "\(noun(for: pending.count, "breakpoint")) \(list) never resolved (pending) and no image load was seen",
                    .resolvePendingBreakpoint
                )
            }
            if let function = summary.undefinedFunctions.first {
                return (
                    "undefined", "the debugger says \(code: function) is not defined and no image load was seen",
                    .makeBreakpointPending
                )
            }
            if summary.typedPrintsOutsideStops > 0, let line = summary.firstTypedPrintLine {
                // A session typed by hand: `(lldb) po $arg3` with one space is a command at the
                // prompt, not a breakpoint's echoed action (two spaces), and no stop says where it ran.
                return (
                    "typed-prints",
                    "no breakpoint hit printed anything: the \(counted(summary.typedPrintsOutsideStops, "print command")) (the first at line \(line)) "
                        + "\(summary.typedPrintsOutsideStops == 1 ? "was" : "were") typed at the prompt (`(lldb) po …`, one space), not a breakpoint's action "
                        + "(lldb echoes those as `(lldb)  po …`, two spaces), and no stop report shows the process was at an image API",
                    .printFromBreakpoint
                )
            }
            return ("no-hits", "no breakpoint hit printed anything: no image loads were found", capture)
        }
        // A recording stopped (--duration, a signal, a detach) before the launch-end function
        // returned holds part of a launch: figures from it are no launch's, and never a reference.
        if let recording = summary.recording, recording.launchEnd == .notReached, !recording.program.endedByItself {
            return (
                "cut-off",
                "the recording ended before the launch did (the program \(recording.program.sentence) before the launch-end function returned): it holds only part of a launch",
                .recordUntilLaunchEnd
            )
        }
        if notACapture(log) {
            return (
                "not-a-capture",
                "nothing in the log shows a capture: no debugger line, stop, breakpoint or marker, and none of its \(counted(loads, "line")) "
                    + "read as names is an image the app ships",
                .giveCaptureOutput
            )
        }
        let unreadable = log.metrics.launch.unreadable + (log.metrics.afterLaunch?.unreadable ?? 0)
        if unreadable == loads {
            let advice = summary.warnings.first.map { Phrase(marked: $0.message) } ?? "every hit printed no name"
            return (
                "unreadable", "none of the \(counted(loads, "hit")) printed a name (\(advice))",
                .printWithPortableRegister
            )
        }
        if let minimum, readableLaunchLoads(log) < minimum {
            return (
                "too-few",
                "only \(counted(readableLaunchLoads(log), "readable load")) at launch, fewer than the \(minimum) a real launch has (`budgets.minLaunchLoads`)",
                .captureWholeLaunch
            )
        }
        return nil
    }
}
