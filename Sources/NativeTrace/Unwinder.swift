#if os(Linux)
    import CElfutils
    import Glibc
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
        /// Starts added since the last sort: a launch maps a hundred libraries, each scan adds
        /// one, and sorting them all at every library was most of a scan.
        private var startsSorted = true
        /// Each program counter's frame line after its number (module and function), once written:
        /// libdw's symbol lookup is a search over the whole table, and a launch passes the same
        /// call sites again and again.
        private var tails: [UInt64: String] = [:]
        /// Each looked-up program counter's step to its caller, read from the CFI once: a launch
        /// unwinds through the same functions again and again, and libdw's walk parses the CIE and
        /// FDE anew at every frame of every hit.
        private var steps: [UInt64: CallerStep] = [:]
        /// The function each call instruction calls, by its return address (nil: not known).
        private var callees: [UInt64: UInt64?] = [:]
        /// Each stack's whole `--backtrace` text, by its program counters.
        private var texts: [[UInt64]: String] = [:]
        /// The process's `/proc/PID/maps` as last read, for naming frames that were walked
        /// elsewhere (the agent's) when the process may be gone: no walk is made from it.
        /// Setting it starts a new session at the next name; libraries are only ever added.
        var maps: [UInt8]? {
            didSet {
                // Read again when a library was added: the known ones stay where they are.
                if let dwfl { dwfl_end(dwfl) }
                dwfl = nil
                forgetNames()
            }
        }
        /// Walks done from the cached steps (the rest went through libdw).
        private(set) var cachedWalks = 0
        /// Test mode: every cached walk is repeated by libdw and a difference is kept.
        var checkAgainstLibdw = false
        private(set) var differences: [String] = []

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

        /// Libraries were added (`dlopen`) and none removed: the modules libdw knows keep their
        /// addresses, so the session, its loaded CFI and every cache stay; the new modules are
        /// reported at the next use. (A new session at each of Gridlock's 116 ImageMagick
        /// `dlopen`s reopened every library: most of what 8 frames added to its launch.)
        func librariesAdded() {
            if dwfl != nil { modulesToReport = true }
        }

        private var modulesToReport = false

        /// The loaded libraries changed in any way (one unloaded, another mapped at its
        /// addresses): a new session and empty caches at the next unwind.
        func librariesChanged() {
            if let dwfl { dwfl_end(dwfl) }
            dwfl = nil
            modulesToReport = false
            // An address may now hold another library (one unloaded, another mapped there).
            forgetNames()
            steps.removeAll()
            callees.removeAll()
        }

        private func forgetNames() {
            tails.removeAll()
            texts.removeAll()
        }

        /// Adds the methods of a library's metadata, at their run-time addresses.
        private func addMethods(_ found: [(address: UInt64, name: String)]) {
            for (address, name) in found where methodsByAddress[address] == nil { methodsByAddress[address] = name }
            forgetNames()
        }

        /// A library loaded at `bias`: its function starts, and with `names` its Objective-C
        /// methods for naming frames.
        func learn(_ image: ElfImage, bias: UInt64, names: Bool) {
            addFunctionStarts(image.functionStarts.map { $0 &+ bias })
            if names { addMethods(of: image, bias: bias) }
        }

        /// A library whose Objective-C methods name frames: read when a frame first falls in it
        /// (a launch maps a hundred libraries and passes through a few; reading them all was a
        /// tenth of `record`'s time on Gridlock).
        private func addMethods(of image: ElfImage, bias: UInt64) {
            guard image.hasObjCMetadata else { return }
            for segment in image.segments where segment.executable {
                let start = segment.address &+ bias
                let (end, overflow) = start.addingReportingOverflow(segment.memorySize)
                guard !overflow, start < end else { continue }
                unreadMethods.append((start..<end, image, bias))
            }
        }

        private var unreadMethods: [(code: Range<UInt64>, image: ElfImage, bias: UInt64)] = []

        /// Reads the methods of the library whose code holds `pc`, if they are still unread.
        private func readMethods(around pc: UInt64) {
            guard let index = unreadMethods.firstIndex(where: { $0.code.contains(pc) }) else { return }
            let library = unreadMethods[index]
            unreadMethods.removeAll { $0.image === library.image }
            addMethods(ObjCMethods.all(in: library.image).map { ($0.implementation &+ library.bias, $0.name) })
        }

        /// Adds a library's function starts, at their run-time addresses.
        private func addFunctionStarts(_ starts: [UInt64]) {
            functionStarts += starts
            startsSorted = starts.isEmpty && startsSorted
            forgetNames()
        }

        /// The program counters of thread `tid`'s stack, up to `limit`: the walk, which needs the
        /// thread stopped; naming them (`frameLines(programCounters:)`) can wait.
        func programCounters(of tid: pid_t, registers: Registers, memory: MemoryReading, limit: Int) -> [UInt64] {
            guard limit > 0, let dwfl = session() else { return [] }
            let pcs: [UInt64]
            if let cached = cachedProgramCounters(registers: registers, memory: memory, limit: limit, in: dwfl) {
                cachedWalks += 1
                pcs = cached
                if checkAgainstLibdw {
                    let walked = programCounters(of: tid, registers: registers, memory: memory, limit: limit, in: dwfl)
                    if walked != cached, differences.count < 20 { differences.append("libdw \(hex(walked)), cached \(hex(cached))") }
                }
            } else {
                pcs = programCounters(of: tid, registers: registers, memory: memory, limit: limit, in: dwfl)
            }
            return pcs
        }

        /// The `--backtrace` lines of a walked stack (`programCounters`, or the agent's walk in the
        /// program), innermost first, joined by line breaks (empty for none).
        func frameLines(programCounters pcs: [UInt64]) -> String {
            guard !pcs.isEmpty, let dwfl = session() else { return "" }
            return frameLines(programCounters: pcs, in: dwfl)
        }

        private func frameLines(programCounters pcs: [UInt64], in dwfl: OpaquePointer) -> String {
            if let known = texts[pcs] { return known }
            var out = ""
            for (index, pc) in pcs.enumerated() {
                if index > 0 { out += "\n" }
                out += HitLine.frame(index: index, tail: tail(at: pc, in: dwfl))
            }
            // Bounded: a long recording through many distinct stacks keeps only the latest.
            if texts.count >= 1 << 14 { texts.removeAll() }
            texts[pcs] = out
            return out
        }

        private func hex(_ pcs: [UInt64]) -> String { pcs.map { String($0, radix: 16) }.joined(separator: " ") }

        /// A frame line's text after its number: the module and the function holding `pc`.
        private func tail(at pc: UInt64, in dwfl: OpaquePointer) -> String {
            if let known = tails[pc] { return known }
            let module = dwfl_addrmodule(dwfl, pc)
            var moduleName = "?"
            if let module, let name = dwfl_module_info(module, nil, nil, nil, nil, nil, nil, nil) {
                moduleName = PathText.lastComponent(String(cString: name))
            }
            let symbol = module.flatMap { dwfl_module_addrname($0, pc) }.map { String(cString: $0) }
            let tail = HitLine.frameTail(address: pc, module: moduleName, function: method(at: pc, symbol: symbol, module: module))
            tails[pc] = tail
            return tail
        }

        // MARK: Extents

        /// The function whose frame has the CFA `frame` on the stopped thread's stack (see
        /// `StackView.functionOwning`), walked from the stop with the cached steps.
        func functionOwning(frame target: UInt64, registers: Registers, memory: MemoryReading) -> UInt64? {
            guard let dwfl = session() else { return nil }
            var stackPointer = registers[.rsp], framePointer = registers[.rbp], lookup = registers.rip
            for _ in 0..<256 {
                guard case .rule(let rule) = steps[lookup] ?? callerStep(at: lookup, in: dwfl) else { return nil }
                let cfa = (rule.cfaFromFramePointer ? framePointer : stackPointer) &+ UInt64(bitPattern: rule.cfaOffset)
                if cfa == target { return functionStart(containing: lookup) }
                guard cfa < target, let returnAddress = memory.word(at: cfa &+ UInt64(bitPattern: rule.returnAddressOffset)) else { return nil }
                if let saved = rule.savedFramePointerOffset {
                    guard let value = memory.word(at: cfa &+ UInt64(bitPattern: saved)) else { return nil }
                    framePointer = value
                }
                stackPointer = cfa
                lookup = returnAddress &- 1
            }
            return nil
        }

        /// The nearest function start at or below `pc` (`.eh_frame_hdr` lists static functions too).
        private func functionStart(containing pc: UInt64) -> UInt64? {
            if !startsSorted {
                functionStarts.sort()
                startsSorted = true
            }
            var low = 0, high = functionStarts.count
            while low < high {
                let mid = (low + high) / 2
                if functionStarts[mid] <= pc { low = mid + 1 } else { high = mid }
            }
            return low > 0 ? functionStarts[low - 1] : nil
        }

        /// The start of the module holding `address`, as libdw maps the process.
        func module(of address: UInt64) -> UInt64? {
            guard let dwfl = session(), let module = dwfl_addrmodule(dwfl, address) else { return nil }
            var start: Dwarf_Addr = 0
            _ = dwfl_module_info(module, nil, &start, nil, nil, nil, nil, nil)
            return start
        }

        /// The function called by the call instruction that ends at `returnAddress`, when the
        /// instruction says it: `call rel32`, `call *disp(%rip)` (a GOT slot), through a PLT stub
        /// (`jmp *disp(%rip)`, after an `endbr64` and a `bnd` prefix or not) to the GOT's target.
        func callee(returning returnAddress: UInt64) -> UInt64? {
            if let known = callees[returnAddress] { return known }
            let code = MemoryOf(pid: pid)
            var target: UInt64?
            if let call = code.read(returnAddress &- 6, count: 6) {
                let displacement = Self.signed32(call, at: 2)
                if call[4] == 0xFF, call[5] & 0xF8 == 0xD0 {
                    target = nil  // call *%reg: the target was in a register
                } else if call[1] == 0xE8 {
                    target = Self.throughStub(returnAddress &+ displacement, code)
                } else if call[0] == 0xFF, call[1] == 0x15 {
                    target = code.word(at: returnAddress &+ displacement).map { Self.throughStub($0, code) }
                }
            }
            callees[returnAddress] = target
            return target
        }

        private static func signed32(_ bytes: [UInt8], at offset: Int) -> UInt64 {
            let value = UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            return UInt64(bitPattern: Int64(Int32(bitPattern: value)))
        }

        /// A PLT stub's target (the function its GOT slot holds), or `address` itself.
        private static func throughStub(_ address: UInt64, _ code: MemoryOf) -> UInt64 {
            guard let bytes = code.read(address, count: 11) else { return address }
            let endbr: [UInt8] = [0xF3, 0x0F, 0x1E, 0xFA]
            var at = 0
            if Array(bytes[0..<4]) == endbr { at = 4 }
            if bytes[at] == 0xF2 { at += 1 }  // bnd
            guard at + 6 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] == 0x25 else { return address }
            let slot = address &+ UInt64(at + 6) &+ signed32(bytes, at: at + 2)
            return code.word(at: slot) ?? address
        }

        /// The program counters libdw's walk gives (the same stop conditions), from cached steps;
        /// nil when a frame's rule is one the cache does not model, so libdw walks instead.
        private func cachedProgramCounters(registers: Registers, memory: MemoryReading, limit: Int, in dwfl: OpaquePointer) -> [UInt64]? {
            var pc = registers.rip, stackPointer = registers[.rsp], framePointer = registers[.rbp]
            var pcs: [UInt64] = []
            pcs.reserveCapacity(limit)
            // The stopped frame's pc is exact; a caller's is a return address, after its call.
            var lookup = pc
            while true {
                pcs.append(lookup)
                if pcs.count == limit { return pcs }
                let step = steps[lookup] ?? callerStep(at: lookup, in: dwfl)
                switch step {
                case .unmodelled: return nil
                case .outermost: return pcs
                case .rule(let rule):
                    let cfa = (rule.cfaFromFramePointer ? framePointer : stackPointer) &+ UInt64(bitPattern: rule.cfaOffset)
                    guard let returnAddress = memory.word(at: cfa &+ UInt64(bitPattern: rule.returnAddressOffset)) else { return nil }
                    if let saved = rule.savedFramePointerOffset {
                        guard let value = memory.word(at: cfa &+ UInt64(bitPattern: saved)) else { return nil }
                        framePointer = value
                    }
                    if returnAddress == 0 { return pcs }
                    stackPointer = cfa
                    pc = returnAddress
                    lookup = pc &- 1
                }
            }
        }

        /// Reads `lookup`'s CFI (`.eh_frame`, then `.debug_frame`, as libdw's walk does) into a step.
        private func callerStep(at lookup: UInt64, in dwfl: OpaquePointer) -> CallerStep {
            let step = CallerStep.read(at: lookup, module: dwfl_addrmodule(dwfl, lookup))
            steps[lookup] = step
            return step
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
            if let dwfl {
                if modulesToReport {
                    modulesToReport = false
                    // Modules already reported at the same place are kept as they are.
                    dwfl_report_begin_add(dwfl)
                    // After the program ended nothing more can be reported; the modules known stay.
                    _ = dwfl_linux_proc_report(dwfl, pid)
                    _ = dwfl_report_end(dwfl, nil, nil)
                }
                return dwfl
            }
            guard let fresh = dwfl_begin(callbacks) else { return nil }
            if let maps {
                // Names only, from the maps text: the program may have ended since.
                let reported = maps.withUnsafeBytes { raw -> Bool in
                    guard let file = fmemopen(UnsafeMutableRawPointer(mutating: raw.baseAddress), raw.count, "r") else { return false }
                    defer { fclose(file) }
                    return dwfl_linux_proc_maps_report(fresh, file) == 0
                }
                guard reported, dwfl_report_end(fresh, nil, nil) == 0 else {
                    dwfl_end(fresh)
                    return nil
                }
                dwfl = fresh
                return fresh
            }
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
            if !unreadMethods.isEmpty { readMethods(around: pc) }
            guard let functionStart = functionStart(containing: pc), let module else { return symbol }
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
