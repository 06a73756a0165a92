import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport
import LaunchTrace

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
        \.budgets.minLaunchLoads)
    package static var settings: [RuleSetting] { [minimumLoads] }
    package static let examples: [RuleExample] = [
        RuleExample("an empty log", images: [.init("tab@3x.png", 75, 75)], loads: [], fires: true),
        RuleExample("every hit failed to print a name", images: [.init("tab@3x.png", 75, 75)], loads: [.unreadable, .unreadable], fires: true),
        RuleExample("fewer loads than the launch has", images: [.init("tab@3x.png", 75, 75)], loads: [.named("tab")], settings: [minimumLoads.set(5)], fires: true),
        RuleExample("one readable load among failures", images: [.init("tab@3x.png", 75, 75)], loads: [.unreadable, .named("tab")], fires: false),
    ]

    package static func check(_ context: RuleContext) -> [Finding] {
        context.logs.enumerated().compactMap { index, log -> Finding? in
            guard let (kind, message, fix) = problem(log, minimum: context.config.budgets.minLaunchLoads) else { return nil }
            let name = context.logs.count > 1 ? "log #\(index + 1) (\(SafeText.quoted(log.path))): " : ""
            return Finding(
                rule: id, severity: defaultSeverity, identity: "\(kind)#\(index + 1)", device: "",
                message: name + message, fix: fix,
                values: [
                    "reason": .string(kind), "hits": .int(log.summary.hits),
                    "readableLaunchLoads": .int(readableLaunchLoads(log)),
                ],
                occurrences: 1)
        }
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

    private static func problem(_ log: LogReport, minimum: Int?) -> (String, String, String)? {
        let summary = log.summary
        // What the auditor itself counted: a summary may be partial, the loads are not.
        let loads = log.metrics.launch.loads + (log.metrics.afterLaunch?.loads ?? 0)
        let capture = "Capture with `imgtrace lldb-script` (breakpoints that print each name and continue), and save all of the debugger's output."
        // A debugger that crashed before the launch end saw part of a launch, like a cut-off recording.
        if let crash = summary.debuggerCrashLine, summary.launchEnd.map({ $0.line > crash }) ?? true {
            return (
                "debugger-crashed",
                "the debugger crashed at line \(crash), before the launch end: the log holds only part of a launch, and what it printed after is its crash report, not loads",
                "Capture again; if the debugger crashes each time, record another way (`imgtrace record --agent` on Linux, lldb instead of gdb)."
            )
        }
        // So did a capture that ends with the program stopped before the launch end.
        if let stop = summary.stoppedAtEndLine, summary.launchEnd.map({ $0.line > stop }) ?? true {
            return (
                "capture-stopped",
                "the program stopped at line \(stop), before the launch end, and the log ends there: it holds only part of a launch",
                "Read the stop report at that line: a crash is the app's to fix first. Otherwise capture again and continue the program after an unexpected stop (`process continue`); on Linux, `imgtrace record` stops nothing."
            )
        }
        if loads == 0, let recording = summary.recording {
            // `imgtrace record` said how the program ended: say that, not a guess about breakpoints.
            if recording.program.endedByItself {
                return (
                    "program-ended", "the program \(recording.program.sentence) before any image load: nothing was captured",
                    "Read the program's own output (record passes it through): a GUI program needs a display (run it under `xvfb-run -a`), and a program must start before its launch can be recorded."
                )
            }
            return (
                "stopped-early", "the program \(recording.program.sentence) before any image load: nothing was captured",
                "Record for longer (a larger --duration, or none so the program runs to its end)."
            )
        }
        if loads == 0, summary.bytes == 0 || summary.lines == 0 {
            return ("empty", "the log is empty: nothing was captured", capture)
        }
        if loads == 0 {
            let pending = summary.pendingBreakpoints
            if !pending.isEmpty {
                let list = pending.map { "\($0.id)\($0.symbol.map { " (\(SafeText.quoted($0)))" } ?? "")" }.joined(separator: ", ")
                return (
                    "pending", "breakpoint\(pending.count == 1 ? "" : "s") \(list) never resolved (pending) and no image load was seen",
                    "The symbol is not in the process as written: check its spelling and class (`+[UIImage imageNamed:]`, `+[NSImage imageNamed:]`), that the app really links UIKit or AppKit, and that the binary is not stripped of it; set the breakpoint by name so it resolves when the library loads."
                )
            }
            if let function = summary.undefinedFunctions.first {
                return (
                    "undefined", "the debugger says \(SafeText.quoted(function)) is not defined and no image load was seen",
                    "Answer `y` to gdb's \"Make breakpoint pending\" (or `set breakpoint pending on`, as `imgtrace lldb-script --format gdb` does), and check the symbol's spelling."
                )
            }
            if summary.typedPrintsOutsideStops > 0, let line = summary.firstTypedPrintLine {
                // A session typed by hand: `(lldb) po $arg3` with one space is a command at the
                // prompt, not a breakpoint's echoed action (two spaces), and no stop says where it ran.
                return (
                    "typed-prints",
                    "no breakpoint hit printed anything: the \(counted(summary.typedPrintsOutsideStops, "print command")) (the first at line \(line)) \(summary.typedPrintsOutsideStops == 1 ? "was" : "were") typed at the prompt (`(lldb) po …`, one space), not a breakpoint's action (lldb echoes those as `(lldb)  po …`, two spaces), and no stop report shows the process was at an image API",
                    "Make the breakpoint print the name itself (`breakpoint command add -o 'po $arg3' 1`, or `imgtrace lldb-script`), or keep lldb's stop reports (`* thread #1, stop reason = breakpoint 1.1`) in the log when you type `po $arg3` at each stop."
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
                "Record until the launch end is reached (a longer --duration, or none), or give --no-launch-end when the program has no launch end to wait for."
            )
        }
        if notACapture(log) {
            return (
                "not-a-capture",
                "nothing in the log shows a capture: no debugger line, stop, breakpoint or marker, and none of its \(counted(loads, "line")) read as names is an image the app ships",
                "Give the debugger's console output of a capture (`imgtrace lldb-script` writes one); a plain list of names counts only when some are images the app ships."
            )
        }
        let unreadable = log.metrics.launch.unreadable + (log.metrics.afterLaunch?.unreadable ?? 0)
        if unreadable == loads {
            let advice = summary.warnings.first?.message ?? "every hit printed no name"
            return (
                "unreadable", "none of the \(counted(loads, "hit")) printed a name (\(advice))",
                "Print the name with the portable register: `po $arg3` or `p (char *)[(id)$arg3 UTF8String]` (`imgtrace lldb-script` writes it); `$r2`/`$x2`/`$rdx` only exist on their own architecture."
            )
        }
        if let minimum, readableLaunchLoads(log) < minimum {
            return (
                "too-few",
                "only \(counted(readableLaunchLoads(log), "readable load")) at launch, fewer than the \(minimum) a real launch has (`budgets.minLaunchLoads`)",
                "Check the capture covers the whole launch (the breakpoints were set before the app started, and the log was not cut)."
            )
        }
        return nil
    }
}
