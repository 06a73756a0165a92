#if os(Linux)
    import CElfutils
    import ImgtraceSupport

    /// Unwinds a ptrace-stopped thread with libdw (CFI from `.eh_frame`, present in stripped
    /// libraries too) and names each frame: the Objective-C method it is in when the metadata
    /// knows one nearer than any symbol (static methods have no symbol), else the symbol libdw finds.
    final class Unwinder {
        private let pid: pid_t
        private var dwfl: OpaquePointer?
        private let callbacks: UnsafeMutablePointer<Dwfl_Callbacks>
        /// libdw's view of the stopped thread: the registers the tracer already read and the
        /// stack it already fetched, so a walk asks the kernel for nothing it has.
        private let threadCallbacks: UnsafeMutablePointer<Dwfl_Thread_Callbacks>
        private let stop = StopState()
        /// Method implementations by run-time address, for naming frames inside static methods.
        private var methodsByAddress: [UInt64: String] = [:]
        /// Every known function start, sorted.
        private var functionStarts: [UInt64] = []
        /// Each program counter's frame line after its number (module and function), once written:
        /// libdw's symbol lookup is a search over the whole table, and a launch passes the same
        /// call sites again and again.
        private var tails: [UInt64: String] = [:]

        init(pid: pid_t) {
            self.pid = pid
            callbacks = .allocate(capacity: 1)
            callbacks.initialize(
                to: Dwfl_Callbacks(
                    find_elf: dwfl_linux_proc_find_elf, find_debuginfo: dwfl_standard_find_debuginfo, section_address: nil,
                    debuginfo_path: nil))
            threadCallbacks = .allocate(capacity: 1)
            threadCallbacks.initialize(to: StopState.callbacks)
        }

        deinit {
            if let dwfl { dwfl_end(dwfl) }
            callbacks.deallocate()
            threadCallbacks.deallocate()
        }

        /// The loaded libraries changed (`dlopen`): report them again at the next unwind.
        func librariesChanged() {
            if let dwfl { dwfl_end(dwfl) }
            dwfl = nil
            // An address may now hold another library (one unloaded, another mapped there).
            tails.removeAll()
        }

        /// Adds the methods of a library's metadata, at their run-time addresses.
        func addMethods(_ found: [(address: UInt64, name: String)]) {
            for (address, name) in found where methodsByAddress[address] == nil { methodsByAddress[address] = name }
            tails.removeAll()
        }

        /// Adds a library's function starts, at their run-time addresses.
        func addFunctionStarts(_ starts: [UInt64]) {
            functionStarts += starts
            functionStarts.sort()
            tails.removeAll()
        }

        /// The `--backtrace` lines of thread `tid`'s stack (stopped by us, with `registers` and
        /// `memory` read at this stop), up to `limit`, joined by line breaks (empty for none).
        func frameLines(of tid: pid_t, registers: Registers, memory: MemoryReading, limit: Int) -> String {
            guard limit > 0, let dwfl = session() else { return "" }
            var out = ""
            for (index, pc) in programCounters(of: tid, registers: registers, memory: memory, limit: limit, in: dwfl).enumerated() {
                let tail: String
                if let known = tails[pc] {
                    tail = known
                } else {
                    let module = dwfl_addrmodule(dwfl, pc)
                    var moduleName = "?"
                    if let module, let name = dwfl_module_info(module, nil, nil, nil, nil, nil, nil, nil) {
                        moduleName = PathText.lastComponent(String(cString: name))
                    }
                    let symbol = module.flatMap { dwfl_module_addrname($0, pc) }.map { String(cString: $0) }
                    tail = HitLine.frameTail(address: pc, module: moduleName, function: method(at: pc, symbol: symbol, module: module))
                    tails[pc] = tail
                }
                if index > 0 { out += "\n" }
                out += HitLine.frame(index: index, tail: tail)
            }
            return out
        }

        /// The program counters of up to `limit` frames, innermost first.
        private func programCounters(of tid: pid_t, registers: Registers, memory: MemoryReading, limit: Int, in dwfl: OpaquePointer) -> [UInt64] {
            stop.tid = tid
            stop.memory = memory
            // DWARF's x86-64 numbering: rax rdx rcx rbx rsi rdi rbp rsp r8–r15, then the return address column (rip).
            let order: [Register] = [.rax, .rdx, .rcx, .rbx, .rsi, .rdi, .rbp, .rsp, .r8, .r9, .r10, .r11, .r12, .r13, .r14, .r15]
            stop.registers = order.map { registers[$0] } + [registers.rip]
            defer { stop.memory = nil }
            final class Collector {
                var pcs: [UInt64] = []
                let limit: Int
                init(limit: Int) { self.limit = limit }
            }
            let collector = Collector(limit: limit)
            let box = Unmanaged.passRetained(collector)
            defer { box.release() }
            _ = dwfl_getthread_frames(
                dwfl, tid,
                { frame, argument in
                    let collector = Unmanaged<Collector>.fromOpaque(argument!).takeUnretainedValue()
                    var pc: Dwarf_Addr = 0
                    var activation = false
                    guard let frame, dwfl_frame_pc(frame, &pc, &activation) else { return Int32(DWARF_CB_ABORT) }
                    // A return address points after the call: look up the call itself.
                    collector.pcs.append(activation ? pc : pc &- 1)
                    return Int32(collector.pcs.count < collector.limit ? DWARF_CB_OK : DWARF_CB_ABORT)
                }, box.toOpaque())
            return collector.pcs
        }

        private func session() -> OpaquePointer? {
            if let dwfl { return dwfl }
            guard let fresh = dwfl_begin(callbacks) else { return nil }
            guard dwfl_linux_proc_report(fresh, pid) == 0, dwfl_report_end(fresh, nil, nil) == 0,
                dwfl_attach_state(fresh, nil, pid, threadCallbacks, Unmanaged.passUnretained(stop).toOpaque())
            else {
                dwfl_end(fresh)
                return nil
            }
            dwfl = fresh
            return fresh
        }

        /// The name of the function holding `pc`: its start is the nearest function start at or
        /// below `pc` (from `.eh_frame_hdr`, which lists static functions too); a method whose
        /// implementation starts there names it, else the symbol when it starts there. Nothing is
        /// guessed: an address inside a function no name starts is `?`.
        private func method(at pc: UInt64, symbol: String?, module: OpaquePointer?) -> String? {
            var low = 0, high = functionStarts.count
            while low < high {
                let mid = (low + high) / 2
                if functionStarts[mid] <= pc { low = mid + 1 } else { high = mid }
            }
            guard low > 0, let module else { return symbol }
            let functionStart = functionStarts[low - 1]
            if let name = methodsByAddress[functionStart] { return name }
            var offset: GElf_Addr = 0
            var sym = GElf_Sym()
            guard let name = dwfl_module_addrinfo(module, pc, &offset, &sym, nil, nil, nil), pc &- offset == functionStart else {
                return nil
            }
            return String(cString: name)
        }
    }

    /// The thread one walk unwinds, as libdw's thread callbacks hand it over.
    final class StopState {
        var tid: pid_t = 0
        var registers: [Dwarf_Word] = []
        var memory: MemoryReading?

        static func from(_ argument: UnsafeMutableRawPointer?) -> StopState { Unmanaged<StopState>.fromOpaque(argument!).takeUnretainedValue() }

        /// One thread, the stopped one; its registers and memory as read at the stop.
        static let callbacks = Dwfl_Thread_Callbacks(
            next_thread: { _, argument, threadArgument in
                guard let threadArgument, threadArgument.pointee == nil else { return 0 }
                threadArgument.pointee = argument
                return StopState.from(argument).tid
            },
            get_thread: { _, tid, argument, threadArgument in
                threadArgument?.pointee = argument
                return tid == StopState.from(argument).tid
            },
            memory_read: { _, address, result, argument in
                guard let result, let word = StopState.from(argument).memory?.word(at: address) else { return false }
                result.pointee = word
                return true
            },
            set_initial_registers: { thread, argument in
                let registers = StopState.from(argument).registers
                guard let thread, registers.count == 17 else { return false }
                return registers.withUnsafeBufferPointer { dwfl_thread_state_registers(thread, 0, 17, $0.baseAddress!) }
            },
            detach: nil,
            thread_detach: nil)
    }
#endif
