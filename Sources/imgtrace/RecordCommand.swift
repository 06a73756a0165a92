import AppBundle
import ArgumentParser
import ImgtraceSupport
import LaunchTrace

#if os(Linux)
    import NativeTrace
#endif

/// `imgtrace record -- PROGRAM`: the native tracer (Linux, x86-64).
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Capture a launch yourself: break on the image APIs of a Linux program with ptrace (no debugger).",
        discussion: CommandHelp.discussion(
            "Writes one line per hit in the shape `imgtrace trace` and `analyze` read. The program's own standard output and error pass through untouched, so the log goes to --output. A PROGRAM that is a .app folder runs the executable its Info.plist names. With --agent the program records itself through a preloaded library, without stopping. Linux on x86-64 only.",
            examples: [
                "imgtrace record --output launch.log -- ./MyApp.app",
                "imgtrace record --agent --duration 20 --output launch.log -- ./MyApp.app",
            ])
    )

    // Unconditional: an instance method (`-[UIImage initWithContentsOfFile:]`) starts with a dash.
    @Option(
        name: .customLong("objc"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "An Objective-C method whose third argument is an NSString name (repeatable); default: every image API `lldb-script` knows.", valueName: "+[Class selector]"))
    var objcMethods: [String] = []

    @Option(
        name: .customLong("symbol"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp("A C function whose argument ARG (1-based, default 3) is a C string name (repeatable).", valueName: "name[:arg]"))
    var symbols: [String] = []

    @Option(
        name: .customLong("launch-end"), parsing: .unconditional,
        help: ArgumentHelp("A function or -[Class selector]: the launch ends when it first returns (default: -[NSApplication finishLaunching]).", valueName: "symbol"))
    var launchEnd: String?

    @Flag(name: .customLong("no-launch-end"), help: "Mark no launch end: every hit is launch.")
    var noLaunchEnd = false

    @Option(
        help: ArgumentHelp(
            "Write this many frames of each hit's stack after it (libdw; with --agent, unwound in the program, at most 32): they tell the app's loads from the toolkit's; 0 for none.",
            valueName: "n"))
    var backtrace: Int?

    @Flag(
        help:
            "Record in-process: preload the agent library (LD_PRELOAD) that wraps the image APIs and writes each request to shared memory, instead of stopping the program at breakpoints. No --pid."
    )
    var agent = false

    @Flag(name: .customLong("agent-children"), help: "With --agent: programs the app starts load the agent too (by default they do not).")
    var agentChildren = false

    @Option(
        help: ArgumentHelp(
            "With --agent: record this many launches one after another, each into its own log (--output launch.log writes launch-1.log … launch-N.log); analyze them together for each image's median time and spread.",
            valueName: "n"))
    var runs: Int?

    @Option(help: ArgumentHelp("Stop after this many seconds (a GUI program does not exit by itself); the program is then terminated.", valueName: "seconds"))
    var duration: Double?

    @Option(
        name: .customLong("after-launch"),
        help: ArgumentHelp(
            "Stop this many seconds after the launch end (0: at once); the program is then terminated. With --runs, several launches take seconds, not N × --duration.",
            valueName: "seconds"))
    var afterLaunch: Double?

    @Option(help: "The log file to write (required when launching: the program's own output keeps standard output; with --pid, default standard output).", completion: .file())
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Attach to this running process instead of launching one; at the end it is detached with every breakpoint byte restored, and keeps running.", valueName: "pid"))
    var pid: Int32?

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The program and its arguments, after `--`.", valueName: "program"))
    var program: [String] = []

    static let defaultLaunchEnd = "-[NSApplication finishLaunching]"

    func validate() throws {
        // The pass-through program swallows `--help` when nothing comes before it.
        if let first = program.first, first == "--help" || first == "-h" { throw CleanExit.helpRequest(self) }
        var rest = program
        if rest.first == "--" { rest.removeFirst() }
        if let pid {
            guard rest.isEmpty else { throw ValidationError("give either --pid or a program to run, not both") }
            guard pid > 0 else { throw ValidationError("--pid takes a process id > 0") }
        } else {
            guard !rest.isEmpty else { throw ValidationError("give the program to run after `--`, or --pid") }
            guard let output, output != "-" else {
                throw ValidationError("--output FILE is required: the program's own output keeps standard output, and the log must not mix with it")
            }
        }
        if launchEnd != nil && noLaunchEnd { throw ValidationError("--launch-end and --no-launch-end exclude each other") }
        try BacktraceOption.check(backtrace ?? 0)
        if agent {
            if pid != nil { throw ValidationError("--agent starts the program with the agent loaded: it cannot attach to --pid") }
            #if os(Linux)
                if let backtrace, backtrace > AgentRecorder.maxFrames {
                    throw ValidationError("--agent keeps at most \(AgentRecorder.maxFrames) frames per request: give --backtrace 0 to \(AgentRecorder.maxFrames)")
                }
            #endif
        } else if agentChildren {
            throw ValidationError("--agent-children goes with --agent")
        }
        if let runs {
            guard agent else { throw ValidationError("--runs goes with --agent: a debugger's stops would distort every launch's times") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs takes a number of launches from 1 to 100") }
        }
        if let duration, !(duration > 0 && duration.isFinite) { throw ValidationError("--duration takes a number of seconds > 0") }
        if let afterLaunch {
            guard afterLaunch >= 0, afterLaunch.isFinite else { throw ValidationError("--after-launch takes a number of seconds ≥ 0") }
            guard !noLaunchEnd else { throw ValidationError("--after-launch needs a launch end: not with --no-launch-end") }
            guard pid == nil else { throw ValidationError("--after-launch ends the program: not with --pid, which lets it go on") }
        }
        for method in objcMethods where !method.hasPrefix("+[") && !method.hasPrefix("-[") {
            throw ValidationError("--objc takes a method as +[Class selector] or -[Class selector], not `\(SafeText.visible(method))`")
        }
        for symbol in symbols { _ = try Self.parseSymbol(symbol) }
        // Names are written into the log's lines: a line break would forge a hit.
        for (option, value) in symbols.map({ ("--symbol", $0) }) + objcMethods.map({ ("--objc", $0) }) + [("--launch-end", launchEnd ?? "x")] {
            if let problem = CaptureScript.unsafeSymbol(value) { throw ValidationError("\(option) \(SafeText.visible(value)): \(problem)") }
        }
    }

    #if os(Linux)
        /// `--agent`: the program runs with the agent preloaded; the log has the same lines.
        private func recordWithAgent(_ arguments: [String], methods: [String]) throws {
            // By default every image API of the call graph, as the lldb capture's funnels see them.
            let defaults = CaptureAPI.agentTargets
            var request = AgentRecorder.Request(
                program: arguments, objcMethods: objcMethods.isEmpty ? defaults.names : objcMethods, symbols: try symbols.map(Self.parseSymbol),
                launchEnd: noLaunchEnd ? nil : (launchEnd ?? Self.defaultLaunchEnd), duration: duration, agentPath: try AgentLibrary.path())
            request.children = agentChildren
            request.afterLaunch = afterLaunch
            request.frames = backtrace ?? BacktraceOption.defaultFrames
            if objcMethods.isEmpty {
                request.contexts = defaults.contexts
                request.decoders = CaptureAPI.agentDecoders
            }
            let outputs = Self.runOutputs(output, runs: runs)
            try OutputTargets.check(outputs: outputs.map { ("--output", $0) }, inputs: arguments.prefix(1).map { (what: "program", path: $0) })
            for (run, path) in outputs.enumerated() {
                var end: RecordingEnd?
                var notes: [String] = []
                try ReportFile.write(to: path, for: .terminal) { sink in
                    let recorder = AgentRecorder(request, lines: { lines in sink.write(lines) })
                    end = try recorder.run()
                    notes = recorder.notes
                }
                // The agent's notes are the same each launch: said once.
                if run == 0 { for note in notes { PlatformIO.writeStandardError("imgtrace: warning: agent: \(note)\n") } }
                try finish(end, log: outputs.count > 1 ? path : nil)
                // Ctrl-C or SIGTERM ends every launch still to come, not only this one.
                if end?.program == .interrupted { break }
            }
        }
    #endif

    /// The log of each launch: `--output` itself, or with `--runs N` its name with `-1` … `-N`
    /// before the extension (`launch.log` → `launch-1.log`).
    static func runOutputs(_ output: String?, runs: Int?) -> [String?] {
        guard let runs, runs > 1, let output else { return [output] }
        let slash = output.lastIndex(of: "/").map { output.index(after: $0) } ?? output.startIndex
        let dot = output[slash...].lastIndex(of: ".").flatMap { $0 > slash ? $0 : nil } ?? output.endIndex
        return (1...runs).map { String(output[..<dot]) + "-\($0)" + String(output[dot...]) }
    }

    /// The stderr line (naming its `log` when there are several), and exit 1 when the program
    /// died before any hit.
    private func finish(_ end: RecordingEnd?, log: String? = nil) throws {
        guard let end else { return }
        PlatformIO.writeStandardError("imgtrace: " + (log.map { SafeText.visible($0) + ": " } ?? "") + Self.summary(end, duration: duration) + "\n")
        // A program that died before any load recorded nothing a gate may trust.
        if end.hits == 0, end.program.endedByItself { throw ExitCode(1) }
    }

    /// The line `record` ends with on stderr: hits, how the program ended, and whether the launch end was reached.
    static func summary(_ end: RecordingEnd, duration: Double?) -> String {
        let hits = end.hits == 1 ? "1 hit" : "\(end.hits) hits"
        var program = end.program.sentence
        if end.program == .duration, let duration { program = "was stopped when --duration \(duration == duration.rounded() ? String(Int(duration)) : String(duration)) s ran out" }
        let launch: String
        switch end.launchEnd {
        case .reached: launch = "the launch end was reached" + (end.launchMilliseconds.map { " after \($0) ms" } ?? "")
        case .notWatched: launch = "no launch end was watched (--no-launch-end)"
        case .notReached:
            launch = end.hits == 0 ? "no image load and no launch end were seen" : "the launch end was NOT reached: the log holds only part of the launch"
        }
        let lost = end.lost > 0 ? "; \(end.lost) not recorded (the agent's ring was full)" : ""
        return "recorded \(hits)\(lost); the program \(program); \(launch)"
    }

    static func parseSymbol(_ text: String) throws -> (name: String, argument: Int) {
        // An Objective-C method's colons are its selector's: it takes no argument number.
        if text.hasSuffix("]") { return (text, 3) }
        guard let colon = text.lastIndex(of: ":"), !text.hasSuffix(":") || text.hasPrefix("+[") else { return (text, 3) }
        guard let argument = Int(text[text.index(after: colon)...]), (1...6).contains(argument) else {
            throw ValidationError("--symbol NAME:ARG takes an argument number 1–6, not `\(SafeText.visible(text))`")
        }
        return (String(text[..<colon]), argument)
    }

    func run() throws {
        #if os(Linux)
            var arguments = program
            if arguments.first == "--" { arguments.removeFirst() }
            if !arguments.isEmpty { arguments[0] = BundleExecutable.path(of: arguments[0]) }
            // By default every image API of the call graph, as the agent and the lldb capture see them.
            let defaults = CaptureAPI.agentTargets
            let methods = objcMethods.isEmpty ? defaults.names : objcMethods
            if agent {
                try recordWithAgent(arguments, methods: methods)
                return
            }
            var request = RecordRequest(
                program: arguments, objcMethods: methods, symbols: try symbols.map(Self.parseSymbol),
                launchEnd: noLaunchEnd ? nil : (launchEnd ?? Self.defaultLaunchEnd), duration: duration)
            request.pid = pid
            request.afterLaunch = afterLaunch
            if objcMethods.isEmpty { request.contexts = defaults.contexts }
            request.backtrace = backtrace ?? BacktraceOption.defaultFrames
            // The log appears only when the recording ran: a program that cannot start leaves none.
            try OutputTargets.check(outputs: [("--output", output)], inputs: arguments.prefix(1).map { (what: "program", path: $0) })
            var end: RecordingEnd?
            try ReportFile.write(to: output, for: .terminal) { sink in
                let recorder = Recorder(request) { line in sink.writeLine(line) }
                end = try recorder.run()
            }
            try finish(end)
        #else
            throw InputError(path: "record", reason: "the native tracer runs on Linux (x86-64) only; on macOS use `imgtrace lldb-script`")
        #endif
    }
}
