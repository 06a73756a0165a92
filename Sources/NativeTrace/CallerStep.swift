#if os(Linux)
    import CElfutils
    import Glibc
    import ImgtraceSupport

    /// How the caller's frame follows from a frame at one program counter, when the CFI says it in
    /// the shapes x86-64 code uses: the CFA is `rsp` or `rbp` plus an offset, the return address
    /// is saved at the CFA plus an offset, and `rbp` is either kept or saved there too.
    enum CallerStep {
        struct Rule {
            var cfaFromFramePointer: Bool
            var cfaOffset: Int64
            var returnAddressOffset: Int64
            var savedFramePointerOffset: Int64?
        }
        case rule(Rule)
        /// The return address is undefined: the outermost frame (`_start`, a thread's start).
        case outermost
        /// No CFI, or a rule in another shape (an expression, another register): libdw walks.
        case unmodelled

        // DWARF's x86-64 register numbers and the operations libdw describes rules with.
        private static let framePointer: UInt64 = 6, stackPointer: UInt64 = 7, returnAddress: Int32 = 16
        private static let opBregx: UInt8 = 0x92, opCallFrameCFA: UInt8 = 0x9c, opPlusUconst: UInt8 = 0x23

        static func read(at lookup: UInt64, module: OpaquePointer?) -> CallerStep {
            guard let module else { return .unmodelled }
            for cfiOf in [dwfl_module_eh_cfi, dwfl_module_dwarf_cfi] {
                var bias: Dwarf_Addr = 0
                guard let cfi = cfiOf(module, &bias) else { continue }
                var frame: OpaquePointer?
                guard dwarf_cfi_addrframe(cfi, lookup &- bias, &frame) == 0, let frame else { continue }
                defer { free(UnsafeMutableRawPointer(frame)) }
                var start: Dwarf_Addr = 0, end: Dwarf_Addr = 0
                var signalFrame = false
                // A signal frame's caller resumes at its pc, not after a call: libdw's business.
                guard dwarf_frame_info(frame, &start, &end, &signalFrame) >= 0, !signalFrame else { return .unmodelled }
                return from(frame)
            }
            return .unmodelled
        }

        private static func from(_ frame: OpaquePointer) -> CallerStep {
            var cfaOps: UnsafeMutablePointer<Dwarf_Op>?
            var cfaCount = 0
            guard dwarf_frame_cfa(frame, &cfaOps, &cfaCount) == 0, cfaCount == 1, let cfa = cfaOps?.pointee, cfa.atom == opBregx,
                cfa.number == stackPointer || cfa.number == framePointer
            else { return .unmodelled }
            guard case .savedAt(let returnAddressOffset)? = location(of: returnAddress, in: frame) else {
                return location(of: returnAddress, in: frame) == .unsaved ? .outermost : .unmodelled
            }
            let savedFramePointer: Int64?
            switch location(of: Int32(framePointer), in: frame) {
            case .savedAt(let offset)?: savedFramePointer = offset
            case .unsaved?: savedFramePointer = nil
            case nil: return .unmodelled
            }
            return .rule(
                Rule(
                    cfaFromFramePointer: cfa.number == framePointer, cfaOffset: Int64(bitPattern: cfa.number2),
                    returnAddressOffset: returnAddressOffset, savedFramePointerOffset: savedFramePointer))
        }

        private enum Location: Equatable {
            /// Saved in the frame at the CFA plus this offset.
            case savedAt(Int64)
            /// Not saved in this frame: the caller's value is this frame's (libdw describes both
            /// "same value" and "undefined" with no operation; for `rip` that ends the walk).
            case unsaved
        }

        /// nil for any other rule.
        private static func location(of register: Int32, in frame: OpaquePointer) -> Location? {
            // libdw may answer with operations written into the scratch space it is handed.
            var scratch = [Dwarf_Op](repeating: Dwarf_Op(), count: 3)
            return scratch.withUnsafeMutableBufferPointer { space -> Location? in
                var ops: UnsafeMutablePointer<Dwarf_Op>?
                var count = 0
                guard let base = space.baseAddress, dwarf_frame_register(frame, register, base, &ops, &count) == 0 else { return nil }
                guard count > 0, let ops else { return .unsaved }
                guard ops[0].atom == opCallFrameCFA else { return nil }
                if count == 1 { return .savedAt(0) }
                guard count == 2, ops[1].atom == opPlusUconst else { return nil }
                return .savedAt(Int64(bitPattern: ops[1].number))
            }
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
