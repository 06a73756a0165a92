#if os(Linux)
    import CPtrace
    import Foundation
    import ImgtraceSupport

    /// A `PTRACE_EVENT_*` stop of a traced thread.
    enum TraceEvent: Equatable {
        case clone, fork, vfork, exec, other(Int32)

        init(_ raw: Int32) {
            switch raw {
            case cptrace_event_clone: self = .clone
            case cptrace_event_fork: self = .fork
            case cptrace_event_vfork: self = .vfork
            case cptrace_event_exec: self = .exec
            default: self = .other(raw)
            }
        }
    }

    /// What `waitpid` said of a thread.
    enum ThreadStop: Equatable {
        /// It exited with this code.
        case exited(code: Int32)
        /// A signal killed it.
        case killed(signal: Int32)
        /// It stopped: at a signal (`event` nil) or at a ptrace event.
        case stopped(signal: Int32, event: TraceEvent?)
        case other

        init(status: Int32) {
            let value = cptrace_status_value(status)
            switch cptrace_status_kind(status) {
            case 0: self = .exited(code: value)
            case 1: self = .killed(signal: value)
            case 2:
                let event = cptrace_status_event(status)
                self = .stopped(signal: value, event: event == 0 ? nil : TraceEvent(event))
            default: self = .other
            }
        }

        var isStop: Bool {
            if case .stopped = self { return true }
            return false
        }
    }

    /// An entry type of the auxiliary vector (`/proc/PID/auxv`, `<elf.h>`).
    enum AuxvType: UInt64 {
        /// `AT_ENTRY`: the program's entry point.
        case entry = 9
    }

    /// Process control of the traced program: start or seize it, wait for its threads, stop and
    /// release them. Knows nothing of breakpoints or image APIs.
    struct Tracee {
        /// The program (the thread group leader); 0 when none.
        var pid: pid_t = 0
        /// Seized while running (`--pid`): released at the end, never killed.
        var attached = false
        /// Every thread being traced (kept for stopping them all before detaching).
        var threads = Set<pid_t>()

        /// What the next wait returned.
        enum Wait {
            case thread(pid_t, ThreadStop)
            /// A signal interrupted the wait.
            case interrupted
            /// No traced thread is left.
            case gone
        }

        /// Waits for any traced thread (or `tid`).
        static func wait(_ tid: pid_t = -1) -> Wait {
            var status: Int32 = 0
            let found = cptrace_wait(tid, &status, 0)
            if found < 0 { return errno == EINTR ? .interrupted : .gone }
            return .thread(found, ThreadStop(status: status))
        }

        /// Refuses a program that is no executable ELF file, in words the user can act on.
        static func checkExecutable(_ path: String) throws {
            guard let fd = Optional(open(path, O_RDONLY | O_CLOEXEC)), fd >= 0 else {
                throw RecordError(description: "\(path): cannot open: \(errnoText())")
            }
            var magic = [UInt8](repeating: 0, count: 4)
            let n = read(fd, &magic, 4)
            close(fd)
            guard n == 4, magic == [0x7F, 0x45, 0x4C, 0x46] else { throw RecordError(description: "\(path): not an ELF executable") }
            guard access(path, X_OK) == 0 else { throw RecordError(description: "\(path): not executable") }
        }

        /// Forks and execs `program` under `PTRACE_TRACEME`; the child stops at its `execve`.
        mutating func spawn(_ path: String, arguments program: [String]) throws {
            var errorPipe: [Int32] = [0, 0]
            guard pipe(&errorPipe) == 0 else { throw RecordError(description: "pipe: \(errnoText())") }
            // The write end closes at exec (so a successful exec reads nothing), the read end stays ours.
            _ = fcntl(errorPipe[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(errorPipe[1], F_SETFD, FD_CLOEXEC)
            let argv = program.map { strdup($0) } + [nil]
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
                throw RecordError(description: "\(path): \(code == EPERM ? "ptrace refused (\(Self.ptraceHint()))" : String(cString: strerror(code)))")
            }
            pid = child
        }

        /// Seizes every thread of the running process `target`.
        mutating func seize(_ target: pid_t, options: UInt) throws {
            guard kill(target, 0) == 0 else { throw RecordError(description: "process \(target): \(errnoText())") }
            attached = true
            pid = target
            for tid in Self.taskIDs(target) {
                guard cptrace_seize(tid, options) == 0 else {
                    let reason = errno == EPERM ? "ptrace refused (\(Self.ptraceHint()); or it is already traced)" : errnoText()
                    throw RecordError(description: "process \(target): \(reason)")
                }
                threads.insert(tid)
            }
        }

        static func taskIDs(_ process: pid_t) -> [pid_t] {
            let tasks = try? DirectoryWalk(root: "/proc/\(process)/task", links: .listed, folders: { _ in .listOnly })
            return (tasks?.entries ?? []).compactMap { pid_t($0.path) }.sorted()
        }

        /// Interrupts every traced thread and waits until each has stopped; `atBreakpoint` is
        /// told of each that stopped at a trap instead, so it can be put back before the breakpoint.
        mutating func stopAll(atBreakpoint: (pid_t) -> Void) {
            for tid in threads { _ = cptrace_interrupt(tid) }
            var pending = threads
            waiting: while !pending.isEmpty {
                switch Self.wait() {
                case .interrupted: continue
                case .gone: break waiting
                case let .thread(tid, stop):
                    guard case let .stopped(signal, event) = stop else {
                        threads.remove(tid)
                        pending.remove(tid)
                        continue
                    }
                    if signal == SIGTRAP, event == nil { atBreakpoint(tid) }
                    if !threads.contains(tid) { threads.insert(tid) }  // a thread cloned meanwhile
                    pending.remove(tid)
                }
            }
        }

        /// Lets every traced thread go, untraced.
        mutating func detachThreads() {
            for tid in threads { _ = cptrace_detach(tid, 0) }
            threads.removeAll()
        }

        /// The program's entry point (`AT_ENTRY`): at `execve` only the program and the dynamic
        /// linker are mapped, its libraries are by the time it gets there.
        func entryPoint() -> UInt64? {
            guard let auxv = readProcFile("/proc/\(pid)/auxv") else { return nil }
            // (type, value) pairs of 64-bit words.
            let entry: UInt64 = auxv.withUnsafeBytes { raw in
                let reader = ByteReader(raw)
                var at = 0
                while let type = try? reader.u64le(at), let value = try? reader.u64le(at + 8) {
                    if type == AuxvType.entry.rawValue { return value }
                    at += 16
                }
                return 0
            }
            return entry == 0 ? nil : entry
        }

        /// Why ptrace may be refused here, for the error line.
        static func ptraceHint() -> String {
            let scope = readProcFile("/proc/sys/kernel/yama/ptrace_scope").map { String(decoding: $0, as: UTF8.self) } ?? ""
            let trimmed = scope.trimmingCharacters(in: .whitespacesAndNewlines)
            return "Yama ptrace_scope is \(trimmed.isEmpty ? "unknown" : trimmed); in a container, ptrace may need CAP_SYS_PTRACE"
        }
    }
#endif
