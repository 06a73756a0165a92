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
        /// C functions whose argument `argument` (1-based) is a C string name.
        public var symbols: [(name: String, argument: Int)]
        /// A function or `-[Class selector]`; the launch ends when it first returns.
        public var launchEnd: String?
        /// Stop after this many seconds.
        public var duration: Double?
        /// Frames of each hit's stack to write after it (0: none).
        public var backtrace = 0
        /// Attach to this running process instead of launching `program`; it is detached at the
        /// end with every breakpoint byte restored, and keeps running.
        public var pid: Int32?

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
    public struct RecordError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Set from signal handlers; read by the wait loop, which `waitpid` returning `EINTR` wakes.
    nonisolated(unsafe) private var stopRequested: Int32 = 0

    /// A symbolic-breakpoint tracer: launches a program under ptrace, finds the image APIs in every
    /// library it loads (at start and through `dlopen`), and writes one line per hit in the shape
    /// `LaunchTrace` reads. x86-64 Linux only.
    public final class Recorder {
        private enum Purpose {
            case entry
            case rendezvous
            case hit(api: String, argument: Int, objc: Bool)
            case launchEnd
            case launchEndReturn
        }

        private struct Breakpoint {
            var original: UInt8
            var purpose: Purpose
            /// The instruction under the breakpoint when the tracer can carry it out itself; else the
            /// thread goes on by single-stepping the original byte.
            var emulation: EntryInstruction?
        }

        private let request: RecordRequest
        private let output: (String) -> Void
        private var pid: pid_t = 0
        private var breakpoints: [UInt64: Breakpoint] = [:]
        private var resolved = Set<String>()
        private var launchEndSeen = false
        private var threadNames: [pid_t: String] = [:]
        private var forkedChildren = Set<pid_t>()
        private var vforkedChildren = Set<pid_t>()
        private var unknownClasses = Set<String>()
        private var foundAny = false
        /// Attached to a running process (`pid`): at the end it is detached, not killed.
        private var attached = false
        /// Unwinds hits for `--backtrace`.
        private var unwinder: Unwinder?
        /// Every thread being traced (kept for stopping them all before detaching).
        private var threads = Set<pid_t>()
        /// Where each target was looked for, for the error when it is found nowhere.
        private var searched: [String] = []
        private var clock = HitClock()

        public init(_ request: RecordRequest, output: @escaping (String) -> Void) {
            self.request = request
            self.output = output
        }

        /// Runs the program to its end (or `duration`, or SIGINT/SIGTERM); returns its exit status.
        public func run() throws -> Int32 {
            if let target = request.pid { return try attach(target) }
            guard let path = request.program.first else { throw RecordError(description: "no program to run") }
            try check(path)
            installSignalHandlers()
            pid = try spawn(path)
            defer { if pid > 0 { kill(pid, SIGKILL) } }
            var status: Int32 = 0
            guard cptrace_wait(pid, &status, 0) == pid, cptrace_status_kind(status) == 2 else {
                throw RecordError(description: "\(path): the program did not stop at its start under ptrace")
            }
            let options = cptrace_o_exitkill | cptrace_o_traceclone | cptrace_o_tracefork | cptrace_o_tracevfork | cptrace_o_traceexec
            guard cptrace_setoptions(pid, options) == 0 else { throw RecordError(description: "ptrace options refused: \(errnoText())") }
            try breakAtEntry()
            if let duration = request.duration { arm(duration) }
            _ = cptrace_cont(pid, 0)
            let code = try loop()
            pid = 0
            return code
        }

        // MARK: Attaching

        /// Seizes every thread of a running process, breaks in the libraries it has loaded, and
        /// records until the process ends or recording stops; then detaches, leaving it running.
        private func attach(_ target: Int32) throws -> Int32 {
            installSignalHandlers()
            guard kill(target, 0) == 0 else { throw RecordError(description: "process \(target): \(errnoText())") }
            attached = true
            pid = target
            let options = cptrace_o_traceclone | cptrace_o_tracefork | cptrace_o_tracevfork | cptrace_o_traceexec
            for tid in taskIDs(target) {
                guard cptrace_seize(tid, options) == 0 else {
                    let reason = errno == EPERM ? "ptrace refused (\(ptraceHint()); or it is already traced)" : errnoText()
                    detachAll()
                    throw RecordError(description: "process \(target): \(reason)")
                }
                threads.insert(tid)
            }
            stopAll()
            resolveLibraries()
            guard foundAny else {
                detachAll()
                throw RecordError(description: "no image API found in process \(target) (looked for \(targetsText) in \(searched.joined(separator: ", ")))")
            }
            if let duration = request.duration { arm(duration) }
            for tid in threads { _ = cptrace_cont(tid, 0) }
            do {
                let code = try loop()
                pid = 0
                return code
            } catch {
                // Whatever went wrong, the program keeps running with its own bytes.
                detachAll()
                pid = 0
                throw error
            }
        }

        private func taskIDs(_ process: Int32) -> [pid_t] {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process)/task")) ?? []).compactMap { pid_t($0) }.sorted()
        }

        /// Interrupts every traced thread and waits until each has stopped. A thread that stops at
        /// a breakpoint instead is put back before it, so its call runs once the bytes are restored.
        private func stopAll() {
            for tid in threads { _ = cptrace_interrupt(tid) }
            var pending = threads
            while !pending.isEmpty {
                var status: Int32 = 0
                let tid = cptrace_wait(-1, &status, 0)
                if tid < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if cptrace_status_kind(status) != 2 {
                    threads.remove(tid)
                    pending.remove(tid)
                    continue
                }
                if cptrace_status_value(status) == SIGTRAP, cptrace_status_event(status) == 0, var regs = Registers(tid),
                    breakpoints[regs.rip &- 1] != nil
                {
                    regs.rip -= 1
                    regs.store(tid)
                }
                if !threads.contains(tid) { threads.insert(tid) }  // a thread cloned meanwhile
                pending.remove(tid)
            }
        }

        /// Restores every breakpoint byte and lets every thread go: the process runs on as before.
        private func detachAll() {
            stopAll()
            for address in Array(breakpoints.keys) { remove(address) }
            for tid in threads { _ = cptrace_detach(tid, 0) }
            threads.removeAll()
        }

        // MARK: Start

        private func check(_ path: String) throws {
            guard let fd = Optional(open(path, O_RDONLY | O_CLOEXEC)), fd >= 0 else {
                throw RecordError(description: "\(path): cannot open: \(errnoText())")
            }
            var magic = [UInt8](repeating: 0, count: 4)
            let n = read(fd, &magic, 4)
            close(fd)
            guard n == 4, magic == [0x7F, 0x45, 0x4C, 0x46] else { throw RecordError(description: "\(path): not an ELF executable") }
            guard access(path, X_OK) == 0 else { throw RecordError(description: "\(path): not executable") }
        }

        private func spawn(_ path: String) throws -> pid_t {
            var errorPipe: [Int32] = [0, 0]
            guard pipe(&errorPipe) == 0 else { throw RecordError(description: "pipe: \(errnoText())") }
            // The write end closes at exec (so a successful exec reads nothing), the read end stays ours.
            _ = fcntl(errorPipe[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(errorPipe[1], F_SETFD, FD_CLOEXEC)
            let argv = request.program.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            let child = argv.withUnsafeBufferPointer { cptrace_spawn(path, $0.baseAddress, errorPipe[1]) }
            close(errorPipe[1])
            var code: Int32 = 0
            let n = read(errorPipe[0], &code, 4)
            close(errorPipe[0])
            guard child > 0 else { throw RecordError(description: "fork: \(errnoText())") }
            if n == 4 {
                var status: Int32 = 0
                _ = cptrace_wait(child, &status, 0)
                throw RecordError(description: "\(path): \(code == EPERM ? "ptrace refused (\(ptraceHint()))" : String(cString: strerror(code)))")
            }
            return child
        }

        /// At `execve` only the program and the dynamic linker are mapped; its libraries are by the
        /// time it reaches its entry point (`AT_ENTRY`).
        private func breakAtEntry() throws {
            guard let auxv = readProcFile("/proc/\(pid)/auxv") else { throw RecordError(description: "cannot read /proc/\(pid)/auxv") }
            // (type, value) pairs of 64-bit words; type 9 is AT_ENTRY.
            let entry: UInt64 = auxv.withUnsafeBytes { raw in
                let reader = ByteReader(raw)
                var at = 0
                while let type = try? reader.u64le(at), let value = try? reader.u64le(at + 8) {
                    if type == 9 { return value }
                    at += 16
                }
                return 0
            }
            guard entry != 0, insert(entry, .entry) else { throw RecordError(description: "cannot set a breakpoint at the program's entry point") }
        }

        // MARK: The loop

        private func loop() throws -> Int32 {
            var exitCode: Int32 = 0
            while true {
                if stopRequested != 0 {
                    stopRequested = 0
                    if attached {
                        detachAll()
                        return 0
                    }
                    kill(pid, SIGKILL)
                }
                var status: Int32 = 0
                let tid = cptrace_wait(-1, &status, 0)
                if tid < 0 {
                    if errno == EINTR { continue }
                    return exitCode
                }
                switch cptrace_status_kind(status) {
                case 0, 1:
                    threadNames[tid] = nil
                    threads.remove(tid)
                    if tid == pid { exitCode = cptrace_status_kind(status) == 0 ? cptrace_status_value(status) : 128 + cptrace_status_value(status) }
                case 2:
                    try stopped(tid, signal: cptrace_status_value(status), event: cptrace_status_event(status))
                default:
                    break
                }
            }
        }

        private func stopped(_ tid: pid_t, signal: Int32, event: Int32) throws {
            if event != 0 {
                var message: UInt = 0
                _ = cptrace_geteventmsg(tid, &message)
                if event == cptrace_event_clone { threads.insert(pid_t(message)) }
                if event == cptrace_event_fork { forkedChildren.insert(pid_t(message)) }
                if event == cptrace_event_vfork { vforkedChildren.insert(pid_t(message)) }
                if event == cptrace_event_exec, tid == pid {
                    // A new program image: the old breakpoints are gone with the old image.
                    breakpoints.removeAll()
                    resolved.removeAll()
                    try? breakAtEntry()
                }
                _ = cptrace_cont(tid, 0)
                return
            }
            if forkedChildren.remove(tid) != nil {
                // A forked child shares no memory with its parent but copied its breakpoint bytes.
                for (address, breakpoint) in breakpoints { _ = writeByte(tid, address, breakpoint.original) }
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
                _ = cptrace_cont(tid, 0)
                return
            }
            switch breakpoint.purpose {
            case .entry:
                remove(address)
                regs.rip = address
                regs.store(tid)
                resolveLibraries()
                guard foundAny else {
                    throw RecordError(
                        description: "no image API found in \(request.program[0]) or its libraries (looked for \(targetsText) in \(searched.joined(separator: ", ")))")
                }
                _ = cptrace_cont(tid, 0)
                return
            case .rendezvous:
                resolveLibraries()
            case .hit(let api, let argument, let objc):
                recordHit(tid, regs, api: api, argument: argument, objc: objc)
            case .launchEnd:
                if !launchEndSeen, let returnAddress = MemoryOf(pid: tid).word(at: regs.gpr[4]) {
                    launchEndSeen = true
                    _ = insert(returnAddress, .launchEndReturn)
                }
            case .launchEndReturn:
                output(LaunchMarker.text)
                remove(address)
                regs.rip = address
                regs.store(tid)
                _ = cptrace_cont(tid, 0)
                return
            }
            stepOver(tid, address, breakpoint, &regs)
        }

        private func stepOver(_ tid: pid_t, _ address: UInt64, _ breakpoint: Breakpoint, _ regs: inout Registers) {
            switch breakpoint.emulation {
            case .skip(let length):
                regs.rip = address &+ UInt64(length)
                regs.store(tid)
            case .push(let register, let length):
                regs.gpr[4] -= 8
                _ = cptrace_poke(tid, regs.gpr[4], regs.gpr[register])
                regs.rip = address &+ UInt64(length)
                regs.store(tid)
            case .move(let destination, let source, let wide, let length):
                regs.gpr[destination] = wide ? regs.gpr[source] : regs.gpr[source] & 0xFFFF_FFFF
                regs.rip = address &+ UInt64(length)
                regs.store(tid)
            case nil:
                // Another thread may pass the function while its byte is restored: the known gap of
                // the single-step fallback, closed for the common entries by emulation.
                _ = writeByte(tid, address, breakpoint.original)
                regs.rip = address
                regs.store(tid)
                _ = cptrace_singlestep(tid, 0)
                var status: Int32 = 0
                _ = cptrace_wait(tid, &status, 0)
                _ = writeByte(tid, address, 0xCC)
                if cptrace_status_kind(status) != 2 { return }
            }
            _ = cptrace_cont(tid, 0)
        }

        // MARK: Hits

        private func recordHit(_ tid: pid_t, _ regs: Registers, api: String, argument: Int, objc: Bool) {
            // System V: arguments in rdi, rsi, rdx, rcx, r8, r9.
            let argumentRegisters = [7, 6, 2, 1, 8, 9]
            let value = regs.gpr[argumentRegisters[max(0, min(5, argument - 1))]]
            let memory = MemoryOf(pid: tid)
            let name = objc ? RemoteStrings.gnustepString(at: value, in: memory) : RemoteStrings.cString(at: value, in: memory)
            let bytes: [UInt8]?
            switch name {
            case .name(let text): bytes = text
            case .nilName: bytes = nil
            case .unknownClass(let cls):
                if unknownClasses.insert(cls).inserted {
                    PlatformIO.writeStandardError("imgtrace: warning: \(api): a name of class \(cls) has a layout imgtrace cannot read; recorded as nil\n")
                }
                bytes = nil
            case .unreadable: bytes = nil
            }
            output(HitLine.format(timestamp: clock.now(), thread: threadName(tid), api: api, name: bytes))
            if let unwinder {
                for (index, frame) in unwinder.frames(of: tid, limit: request.backtrace).enumerated() {
                    output(HitLine.frame(index: index, address: frame.pc, module: frame.module, function: frame.function))
                }
            }
        }

        private func threadName(_ tid: pid_t) -> String {
            if let known = threadNames[tid] { return known }
            var name = readProcFile("/proc/\(pid)/task/\(tid)/comm").map { String(decoding: $0, as: UTF8.self) } ?? ""
            name = name.trimmingCharacters(in: .whitespacesAndNewlines)
            let label = tid == pid ? (name.isEmpty ? "main" : name) : "\(name.isEmpty ? "thread" : name) \(tid)"
            threadNames[tid] = label
            return label
        }

        // MARK: Libraries

        private var targetsText: String {
            (request.objcMethods + request.symbols.map(\.name)).joined(separator: ", ")
        }

        /// Looks at every file mapped now that was not looked at before, and breaks at what it finds.
        private func resolveLibraries() {
            guard let maps = readProcFile("/proc/\(pid)/maps") else { return }
            for (path, base) in MemoryMapping.loadBases(MemoryMapping.parse(String(decoding: maps, as: UTF8.self))) {
                guard resolved.insert(path).inserted, let bytes = readMappedLibrary(path),
                    let image = try? ElfImage(bytes: bytes, path: path)
                else { continue }
                searched.append(PathText.lastComponent(path))
                let bias = image.isPositionIndependent ? base &- (image.firstLoadAddress & ~0xFFF) : 0
                if request.backtrace > 0 {
                    if unwinder == nil { unwinder = Unwinder(pid: pid) }
                    unwinder?.librariesChanged()
                    unwinder?.addMethods(ObjCMethods.all(in: image).map { ($0.implementation &+ bias, $0.name) })
                    unwinder?.addFunctionStarts(image.functionStarts.map { $0 &+ bias })
                }
                for symbol in request.symbols {
                    for function in image.functions(named: symbol.name) {
                        foundAny = insert(function.value &+ bias, .hit(api: symbol.name, argument: symbol.argument, objc: false)) || foundAny
                    }
                }
                for method in request.objcMethods {
                    guard let parts = ObjCMethods.parse(method),
                        let found = ObjCMethods.find(className: parts.className, selector: parts.selector, classMethod: parts.classMethod, in: image)
                    else { continue }
                    foundAny = insert(found.implementation &+ bias, .hit(api: method, argument: 3, objc: true)) || foundAny
                }
                if let end = request.launchEnd, !launchEndSeen {
                    if let parts = ObjCMethods.parse(end) {
                        if let found = ObjCMethods.find(className: parts.className, selector: parts.selector, classMethod: parts.classMethod, in: image) {
                            _ = insert(found.implementation &+ bias, .launchEnd)
                        }
                    } else {
                        for function in image.functions(named: end) { _ = insert(function.value &+ bias, .launchEnd) }
                    }
                }
                // The dynamic linker calls `r_debug.r_brk` after every change to the loaded libraries.
                if let rDebug = image.symbols.first(where: { $0.name == "_r_debug" && $0.value != 0 }),
                    let brk = MemoryOf(pid: pid).word(at: rDebug.value &+ bias &+ 16), brk != 0
                {
                    _ = insert(brk, .rendezvous)
                }
            }
        }

        // MARK: Breakpoint bytes

        @discardableResult
        private func insert(_ address: UInt64, _ purpose: Purpose) -> Bool {
            if breakpoints[address] != nil {
                if case .hit = purpose { breakpoints[address]!.purpose = purpose }
                return true
            }
            guard let code = MemoryOf(pid: pid).read(address, count: 8), writeByte(pid, address, 0xCC) else { return false }
            breakpoints[address] = Breakpoint(original: code[0], purpose: purpose, emulation: EntryInstruction.decode(code))
            return true
        }

        private func remove(_ address: UInt64) {
            guard let breakpoint = breakpoints.removeValue(forKey: address) else { return }
            _ = writeByte(pid, address, breakpoint.original)
        }

        /// Writes one byte of text through `PTRACE_POKEDATA` on its aligned word (text is read-only
        /// to `process_vm_writev`).
        private func writeByte(_ tid: pid_t, _ address: UInt64, _ byte: UInt8) -> Bool {
            let aligned = address & ~7
            var word: UInt64 = 0
            guard cptrace_peek(tid, aligned, &word) == 0 else { return false }
            let shift = (address - aligned) * 8
            word = (word & ~(0xFF << shift)) | (UInt64(byte) << shift)
            return cptrace_poke(tid, aligned, word) == 0
        }

        // MARK: Ending

        private func installSignalHandlers() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in stopRequested = 1 }
            action.sa_flags = 0  // no SA_RESTART: waitpid returns EINTR and the loop sees the request
            sigemptyset(&action.sa_mask)
            for signal in [SIGINT, SIGTERM, SIGALRM] { sigaction(signal, &action, nil) }
        }

        private func arm(_ seconds: Double) {
            var timer = itimerval()
            timer.it_value.tv_sec = Int(seconds)
            timer.it_value.tv_usec = Int((seconds - Double(Int(seconds))) * 1_000_000)
            setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
        }

        private func ptraceHint() -> String {
            let scope = readProcFile("/proc/sys/kernel/yama/ptrace_scope").map { String(decoding: $0, as: UTF8.self) } ?? ""
            return
                "Yama ptrace_scope is \(scope.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "unknown" : scope.trimmingCharacters(in: .whitespacesAndNewlines)); in a container, ptrace may need CAP_SYS_PTRACE"
        }
    }

    /// A stopped thread's general registers (x86-64 encoding order) and rip.
    struct Registers {
        var gpr: [UInt64]
        var rip: UInt64

        init?(_ tid: pid_t) {
            var raw = cptrace_regs()
            guard cptrace_getregs(tid, &raw) == 0 else { return nil }
            gpr = withUnsafeBytes(of: raw.gpr) { Array($0.bindMemory(to: UInt64.self)) }
            rip = raw.rip
        }

        func store(_ tid: pid_t) {
            var raw = cptrace_regs()
            withUnsafeMutableBytes(of: &raw.gpr) { buffer in
                for (index, value) in gpr.prefix(16).enumerated() { buffer.storeBytes(of: value, toByteOffset: index * 8, as: UInt64.self) }
            }
            raw.rip = rip
            _ = cptrace_setregs(tid, &raw)
        }
    }

    /// Local wall-clock time as `yyyy-MM-dd HH:mm:ss.mmm`. It is read on every hit, so the date
    /// part is formatted once per second, not per hit.
    struct HitClock {
        private var second = -1
        private var prefix = ""

        mutating func now() -> String {
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            if spec.tv_sec != second {
                var time = spec.tv_sec
                var parts = tm()
                localtime_r(&time, &parts)
                var buffer = [UInt8](repeating: 0, count: 32)
                let length = buffer.withUnsafeMutableBufferPointer { raw in
                    raw.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, $0.count, "%Y-%m-%d %H:%M:%S", &parts) }
                }
                prefix = String(decoding: buffer[..<length], as: UTF8.self)
                second = spec.tv_sec
            }
            let milliseconds = spec.tv_nsec / 1_000_000
            return prefix + (milliseconds < 10 ? ".00" : milliseconds < 100 ? ".0" : ".") + String(milliseconds)
        }
    }

    /// A traced process's memory, read with `process_vm_readv`.
    struct MemoryOf: MemoryReading {
        var pid: pid_t
        func read(_ address: UInt64, count: Int) -> [UInt8]? {
            guard count > 0 else { return [] }
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { cptrace_read(pid, address, $0.baseAddress, UInt(count)) }
            return n == count ? buffer : nil
        }
    }

    private func errnoText() -> String { String(cString: strerror(errno)) }

    /// The largest file mapped into a program that is read as a library.
    package let maxLibraryBytes = 1 << 30

    /// The bytes of a file a program maps, when it is a regular ELF file of at most
    /// `maxLibraryBytes`: a program may map `/dev/zero`, a FIFO or a huge data file, and none of
    /// those is read past its first bytes.
    package func readMappedLibrary(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 64, info.st_size <= maxLibraryBytes else { return nil }
        var magic = [UInt8](repeating: 0, count: 4)
        guard magic.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 4, 0) }) == 4, magic == [0x7F, 0x45, 0x4C, 0x46] else { return nil }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, size - done, off_t(done)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
        return done == size ? bytes : nil
    }

    /// The whole of a file, `/proc` files included (their size is not known in advance).
    func readProcFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }
#endif
