#if os(Linux)
    import CPtrace
    import Foundation
    import ImgtraceSupport
    import LaunchTrace

    /// What to record and how.
    public struct RecordRequest: Sendable {
        /// The program and its arguments (`PROGRAM [ARGS…]`).
        public var program: [String]
        /// Objective-C methods whose third argument (`rdx`) is an `NSString *` name: `+[NSImage imageNamed:]`.
        public var objcMethods: [String]
        /// Objective-C methods that take no name but give the requests made inside them their kind.
        public var contexts: [String] = []
        /// C functions whose argument `argument` (1-based) is a C string name.
        public var symbols: [(name: String, argument: Int)]
        /// A function or `-[Class selector]`; the launch ends when it first returns.
        public var launchEnd: String?
        /// Stop after this many seconds.
        public var duration: Double?
        /// Stop this many seconds after the launch end (`--after-launch`).
        public var afterLaunch: Double?
        /// Frames of each hit's stack to write after it (0: none).
        public var backtrace = 0
        /// Attach to this running process instead of launching `program`; it is detached at the
        /// end with every breakpoint byte restored, and keeps running.
        public var pid: Int32?
        /// For the tests: walk each stack with libdw as well and keep any difference.
        var checkUnwinding = false

        public init(
            program: [String], objcMethods: [String], symbols: [(name: String, argument: Int)], launchEnd: String? = nil,
            duration: Double? = nil
        ) {
            self.program = program
            self.objcMethods = objcMethods
            self.symbols = symbols
            self.launchEnd = launchEnd
            self.duration = duration
        }
    }

    /// Why recording could not start or go on: one line for the user.
    public struct RecordError: InputFailure {
        public var description: String
    }

    /// A symbolic-breakpoint tracer: launches a program under ptrace, finds the image APIs in every
    /// library it loads (at start and through `dlopen`), and writes one line per hit in the shape
    /// `LaunchTrace` reads. x86-64 Linux only.
    ///
    /// It decides what happens at each stop; the parts do the work: `Tracee` (process control and
    /// typed stops), `BreakpointSet` (bytes, stepping over), `LibraryScanner` (maps → targets).
    public final class Recorder {
        let request: RecordRequest
        let output: (String) -> Void
        var tracee = Tracee()
        private var breakpoints = BreakpointSet()
        private var scanner: LibraryScanner
        private var launchEndSeen = false
        var threadNames: [pid_t: String] = [:]
        private var forkedChildren = Set<pid_t>()
        private var vforkedChildren = Set<pid_t>()
        var unknownClasses = Set<String>()
        /// Unwinds hits for `--backtrace`.
        var unwinder: Unwinder?
        var clock = HitClock()
        private var extents = Extents()
        var hits = 0
        private var launchEndMarked = false
        /// Why the loop ended the program or let it go, when it did (`--duration`, a signal to imgtrace).
        private var stopReason: RecordingEnd.ProgramEnd?
        /// How the program itself ended, when it did.
        private var programEnd: RecordingEnd.ProgramEnd?
        /// The real-time clock when the program was started and when its launch end returned
        /// (nanoseconds), as the agent measures them: the launch's length under this capture.
        private var startedAt: Int?
        private var launchEndedAt: Int?
        /// Lines held until their hits' frames are named: the walk is made while the thread is
        /// stopped, the naming later (reading a library's symbols and Objective-C metadata the
        /// first time a frame falls in it cost Gridlock's launch a tenth of a second under 8 frames).
        var unnamed: [(line: String, stack: [UInt64])] = []

        public init(_ request: RecordRequest, output: @escaping (String) -> Void) {
            self.request = request
            self.output = output
            scanner = LibraryScanner(request)
        }

        /// Runs the program to its end (or `duration`, or SIGINT/SIGTERM), then writes the log's
        /// last line (`RecordingEnd`) and returns it: hits, how the program ended, whether the
        /// launch end was reached.
        public func run() throws -> RecordingEnd {
            _ = try runProgram()
            nameFrames()
            var end = RecordingEnd(
                hits: hits, launchEnd: request.launchEnd == nil ? .notWatched : (launchEndMarked ? .reached : .notReached),
                program: stopReason ?? programEnd ?? .other("unknown"))
            if let startedAt, let launchEndedAt, launchEndedAt >= startedAt { end.launchMilliseconds = (launchEndedAt - startedAt) / 1_000_000 }
            output(end.text)
            return end
        }

        private func runProgram() throws -> Int32 {
            if let target = request.pid { return try attach(target) }
            guard let path = request.program.first else { throw RecordError(description: "no program to run") }
            try Tracee.checkExecutable(path)
            StopSignals.install()
            startedAt = Self.realTimeNanoseconds()
            try tracee.spawn(path, arguments: request.program)
            defer { if tracee.pid > 0 { kill(tracee.pid, SIGKILL) } }
            guard case let .thread(first, stop) = Tracee.wait(tracee.pid), first == tracee.pid, stop.isStop else {
                throw RecordError(description: "\(path): the program did not stop at its start under ptrace")
            }
            let options = cptrace_o_exitkill | cptrace_o_traceclone | cptrace_o_tracefork | cptrace_o_tracevfork | cptrace_o_traceexec
            guard cptrace_setoptions(tracee.pid, options) == 0 else { throw RecordError(description: "ptrace options refused: \(errnoText())") }
            try breakAtEntry()
            if let duration = request.duration { StopSignals.arm(duration) }
            _ = cptrace_cont(tracee.pid, 0)
            let code = try loop()
            tracee.pid = 0
            return code
        }

        // MARK: Attaching

        /// Seizes every thread of a running process, breaks in the libraries it has loaded, and
        /// records until the process ends or recording stops; then detaches, leaving it running.
        private func attach(_ target: Int32) throws -> Int32 {
            StopSignals.install()
            do {
                try tracee.seize(target, options: cptrace_o_traceclone | cptrace_o_tracefork | cptrace_o_tracevfork | cptrace_o_traceexec)
            } catch {
                if tracee.attached { detachAll() }
                throw error
            }
            stopAll()
            scanLibraries()
            guard scanner.foundAny else {
                detachAll()
                throw RecordError(
                    description: "no image API found in process \(target) (looked for \(scanner.targetsText) in \(scanner.searched.joined(separator: ", ")))")
            }
            if let duration = request.duration { StopSignals.arm(duration) }
            for tid in tracee.threads { _ = cptrace_cont(tid, 0) }
            do {
                let code = try loop()
                tracee.pid = 0
                return code
            } catch {
                // Whatever went wrong, the program keeps running with its own bytes.
                detachAll()
                tracee.pid = 0
                throw error
            }
        }

        /// Stops every thread; one stopped at a breakpoint is put back before it, so its call runs
        /// once the bytes are restored.
        private func stopAll() {
            tracee.stopAll { tid in
                if var regs = Registers(tid), breakpoints[regs.rip &- 1] != nil {
                    regs.rip -= 1
                    regs.store(tid)
                }
            }
        }

        /// Restores every breakpoint byte and lets every thread go: the process runs on as before.
        private func detachAll() {
            stopAll()
            for address in breakpoints.addresses { breakpoints.remove(address, in: tracee.pid) }
            tracee.detachThreads()
        }

        // MARK: Start

        private func breakAtEntry() throws {
            guard let entry = tracee.entryPoint() else {
                if readProcFile("/proc/\(tracee.pid)/auxv") == nil { throw RecordError(description: "cannot read /proc/\(tracee.pid)/auxv") }
                throw RecordError(description: "cannot set a breakpoint at the program's entry point")
            }
            guard breakpoints.insert(entry, .entry, in: tracee.pid) else { throw RecordError(description: "cannot set a breakpoint at the program's entry point") }
        }

        private func scanLibraries() {
            scanner.scan(pid: tracee.pid, launchEndSeen: launchEndSeen, breakpoints: &breakpoints, unwinder: &unwinder)
            unwinder?.checkAgainstLibdw = request.checkUnwinding
        }

        /// For the tests: the walks the unwinder's cache made, and where libdw's walk of the same
        /// stop differed (with `RecordRequest.checkUnwinding`).
        var unwinding: (cachedWalks: Int, differences: [String]) { (unwinder?.cachedWalks ?? 0, unwinder?.differences ?? []) }

        // MARK: The loop

        private func loop() throws -> Int32 {
            var exitCode: Int32 = 0
            while true {
                if stopSignal != 0 {
                    if stopReason == nil { stopReason = StopSignals.reason(stopSignal) }
                    stopSignal = 0
                    if tracee.attached {
                        stopReason = .detached
                        detachAll()
                        return 0
                    }
                    kill(tracee.pid, SIGKILL)
                }
                switch Tracee.wait() {
                case .interrupted: continue
                case .gone: return exitCode
                case let .thread(tid, stop):
                    switch stop {
                    case .exited(let code):
                        ended(tid)
                        if tid == tracee.pid {
                            exitCode = code
                            programEnd = .exited(Int(code))
                        }
                    case .killed(let signal):
                        ended(tid)
                        if tid == tracee.pid {
                            exitCode = 128 + signal
                            programEnd = .signaled(Int(signal))
                        }
                    case let .stopped(signal, event):
                        try stopped(tid, signal: signal, event: event)
                    case .other:
                        break
                    }
                }
            }
        }

        private func ended(_ tid: pid_t) {
            threadNames[tid] = nil
            if lastThread?.tid == tid { lastThread = nil }
            extents.forget(tid)
            tracee.threads.remove(tid)
        }

        private func stopped(_ tid: pid_t, signal: Int32, event: TraceEvent?) throws {
            if let event {
                var message: UInt = 0
                _ = cptrace_geteventmsg(tid, &message)
                switch event {
                case .clone: tracee.threads.insert(pid_t(message))
                case .fork: forkedChildren.insert(pid_t(message))
                case .vfork: vforkedChildren.insert(pid_t(message))
                case .exec where tid == tracee.pid:
                    // A new program image: the old breakpoints are gone with the old image.
                    breakpoints.forgetAll()
                    scanner.reset()
                    try? breakAtEntry()
                default: break
                }
                _ = cptrace_cont(tid, 0)
                return
            }
            if forkedChildren.remove(tid) != nil {
                // A forked child shares no memory with its parent but copied its breakpoint bytes.
                breakpoints.restoreOriginals(in: tid)
                _ = cptrace_detach(tid, 0)
                return
            }
            if vforkedChildren.remove(tid) != nil {
                // A vfork child borrows its parent's memory: restoring bytes would unset the parent's.
                _ = cptrace_detach(tid, 0)
                return
            }
            if signal == SIGTRAP {
                try trap(tid)
            } else if signal == SIGSTOP {
                _ = cptrace_cont(tid, 0)
            } else {
                _ = cptrace_cont(tid, signal)
            }
        }

        private func trap(_ tid: pid_t) throws {
            guard var regs = Registers(tid) else { return }
            let address = regs.rip &- 1
            guard let breakpoint = breakpoints[address] else {
                // A trap taken out after this thread hit it: the instruction under it is still to run.
                if breakpoints.removed.contains(address) {
                    regs.rip = address
                    regs.store(tid)
                }
                _ = cptrace_cont(tid, 0)
                return
            }
            switch breakpoint.purpose {
            case .entry:
                breakpoints.remove(address, in: tracee.pid)
                regs.rip = address
                regs.store(tid)
                scanLibraries()
                guard scanner.foundAny else {
                    throw RecordError(
                        description:
                            "no image API found in \(request.program[0]) or its libraries (looked for \(scanner.targetsText) in \(scanner.searched.joined(separator: ", ")))")
                }
                _ = cptrace_cont(tid, 0)
                return
            case .rendezvous:
                if scanner.librariesConsistent(pid: tid) {
                    scanner.scanAdded(pid: tracee.pid, launchEndSeen: launchEndSeen, breakpoints: &breakpoints, unwinder: &unwinder)
                    unwinder?.checkAgainstLibdw = request.checkUnwinding
                }
            case .hit(let api, let argument, let objc):
                hit(tid, regs, at: address, api: api, argument: argument, objc: objc)
            case .context(let api):
                let memory = StopMemory(pid: tid, name: nil, stackPointer: regs[.rsp], stackBytes: 16)
                var atEntry = regs
                atEntry.rip = address
                let stack = StackView(registers: atEntry, memory: memory, unwinder: unwinder)
                _ = extents.startContext(tid, api: api, entry: address, frame: regs[.rsp] &+ 8, returnAddress: memory.word(at: regs[.rsp]), stack: stack)
            case .launchEnd:
                // At a function's first instruction the return address is the word at the stack pointer.
                if !launchEndSeen, let returnAddress = MemoryOf(pid: tid).word(at: regs[.rsp]) {
                    launchEndSeen = true
                    breakpoints.insert(returnAddress, .launchEndReturn, in: tracee.pid)
                }
            case .launchEndReturn:
                if tracee.pid > 0, request.pid == nil { launchEndedAt = Self.realTimeNanoseconds() }
                emit(LaunchMarker.text)
                launchEndMarked = true
                if let seconds = request.afterLaunch, request.pid == nil { StopSignals.armAfterLaunch(seconds) }
                breakpoints.remove(address, in: tracee.pid)
                regs.rip = address
                regs.store(tid)
                _ = cptrace_cont(tid, 0)
                return
            }
            breakpoints.stepOver(tid, address, breakpoint, &regs)
        }

        /// A name API was entered: a request of its own unless it is inside the thread's open one.
        private func hit(_ tid: pid_t, _ regs: Registers, at address: UInt64, api: String, argument: Int, objc: Bool) {
            // At a function's first instruction the caller's frame starts just above the return
            // address. One read fetches the name, the return address and (with frames) the stack.
            // A hit deeper than the thread's open request may walk the stack up to it.
            let openFrame = extents.outermostFrame(tid).map { $0 > regs[.rsp] ? Int(min($0 - regs[.rsp], 1 << 18)) + 8 : 0 } ?? 0
            let memory = StopMemory(
                pid: tid, name: regs.argument(argument), stackPointer: regs[.rsp], stackBytes: max(request.backtrace > 0 ? 2048 : 16, openFrame))
            // The trap left rip after its byte; a walk starts at the function's first
            // instruction, where the CFI describes a frame not yet set up.
            var atEntry = regs
            atEntry.rip = address
            let frame = regs[.rsp] &+ 8, returnAddress = memory.word(at: regs[.rsp])
            let stack = StackView(registers: atEntry, memory: memory, unwinder: unwinder)
            if let context = extents.startRequest(tid, api: api, entry: address, frame: frame, returnAddress: returnAddress, stack: stack) {
                recordHit(tid, atEntry, api: api, argument: argument, objc: objc, kind: kind(ofOutermost: context ?? api), memory: memory)
            }
        }

        private static func realTimeNanoseconds() -> Int {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            return now.tv_sec * 1_000_000_000 + now.tv_nsec
        }

        /// The kind of the last outermost API asked about (Recorder+Hits.swift): a loop of one API
        /// asks again and again.
        var lastKind: (api: String, kind: String?)?
        /// The thread of the last hit: a launch's hits come mostly from one thread in a row.
        var lastThread: (tid: pid_t, label: String)?
    }
#endif
