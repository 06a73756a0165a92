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
        /// Method implementations by run-time address, for naming frames inside static methods.
        private var methodsByAddress: [UInt64: String] = [:]
        /// Every known function start, sorted.
        private var functionStarts: [UInt64] = []

        init(pid: pid_t) {
            self.pid = pid
            callbacks = .allocate(capacity: 1)
            callbacks.initialize(
                to: Dwfl_Callbacks(
                    find_elf: dwfl_linux_proc_find_elf, find_debuginfo: dwfl_standard_find_debuginfo, section_address: nil,
                    debuginfo_path: nil))
        }

        deinit {
            if let dwfl { dwfl_end(dwfl) }
            callbacks.deallocate()
        }

        /// The loaded libraries changed (`dlopen`): report them again at the next unwind.
        func librariesChanged() {
            if let dwfl { dwfl_end(dwfl) }
            dwfl = nil
        }

        /// Adds the methods of a library's metadata, at their run-time addresses.
        func addMethods(_ found: [(address: UInt64, name: String)]) {
            for (address, name) in found where methodsByAddress[address] == nil { methodsByAddress[address] = name }
        }

        /// Adds a library's function starts, at their run-time addresses.
        func addFunctionStarts(_ starts: [UInt64]) {
            functionStarts += starts
            functionStarts.sort()
        }

        /// Up to `limit` frames of thread `tid` (stopped by us): program counter, module, function.
        func frames(of tid: pid_t, limit: Int) -> [(pc: UInt64, module: String, function: String?)] {
            guard limit > 0, let dwfl = session() else { return [] }
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
            return collector.pcs.map { pc in
                let module = dwfl_addrmodule(dwfl, pc)
                var moduleName = "?"
                if let module, let name = dwfl_module_info(module, nil, nil, nil, nil, nil, nil, nil) {
                    moduleName = PathText.lastComponent(String(cString: name))
                }
                let symbol = module.flatMap { dwfl_module_addrname($0, pc) }.map { String(cString: $0) }
                return (pc, moduleName, method(at: pc, symbol: symbol, module: module))
            }
        }

        private func session() -> OpaquePointer? {
            if let dwfl { return dwfl }
            guard let fresh = dwfl_begin(callbacks) else { return nil }
            guard dwfl_linux_proc_report(fresh, pid) == 0, dwfl_report_end(fresh, nil, nil) == 0,
                dwfl_linux_proc_attach(fresh, pid, true) == 0
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
#endif
