#if os(Linux)
    import CPtrace

    /// The breakpoint bytes in the traced program: where each is, what it is for, the byte it
    /// replaced, and how a thread stopped there goes on.
    struct BreakpointSet {
        /// Why the tracer breaks at an address.
        enum Purpose {
            /// The program's entry point: its libraries are mapped by now.
            case entry
            /// The dynamic linker's `r_brk`: the libraries changed.
            case rendezvous
            /// An image API: its name argument, and whether that is an `NSString *` (else a C string).
            case hit(api: String, argument: Int, objc: Bool)
            /// A method that records nothing but gives the requests made inside it their kind
            /// (a nib placeholder, a trait change).
            case context(api: String)
            /// The function that ends the launch, and its return address.
            case launchEnd
            case launchEndReturn
        }

        struct Breakpoint {
            var original: UInt8
            var purpose: Purpose
            /// The instruction under the breakpoint when the tracer can carry it out itself; else the
            /// thread goes on by single-stepping the original byte.
            var emulation: EntryInstruction?
        }

        /// The trap instruction (`int3`).
        static let trap: UInt8 = 0xCC

        private(set) var byAddress: [UInt64: Breakpoint] = [:]
        /// Addresses whose trap was taken out while the program ran: a thread that hit one just
        /// before is still to be put back before it.
        private(set) var removed = Set<UInt64>()

        subscript(_ address: UInt64) -> Breakpoint? { byAddress[address] }

        var addresses: [UInt64] { Array(byAddress.keys) }

        /// Breaks at `address` of process `pid`; true when a breakpoint is there now. An address
        /// already broken keeps its byte and takes an image API's purpose over another.
        @discardableResult
        mutating func insert(_ address: UInt64, _ purpose: Purpose, in pid: pid_t) -> Bool {
            if byAddress[address] != nil {
                if case .hit = purpose { byAddress[address]!.purpose = purpose }
                return true
            }
            guard let code = MemoryOf(pid: pid).read(address, count: 8), Self.writeByte(pid, address, Self.trap) else { return false }
            byAddress[address] = Breakpoint(original: code[0], purpose: purpose, emulation: EntryInstruction.decode(code))
            return true
        }

        /// Puts the original byte back at `address`.
        mutating func remove(_ address: UInt64, in pid: pid_t) {
            guard let breakpoint = byAddress.removeValue(forKey: address) else { return }
            _ = Self.writeByte(pid, address, breakpoint.original)
            removed.insert(address)
        }

        /// Forgets every breakpoint without writing: a new program image (exec) has none of them.
        mutating func forgetAll() {
            byAddress.removeAll()
            removed.removeAll()
        }

        /// A forked child shares no memory with its parent but copied its breakpoint bytes: give it
        /// the original ones back.
        func restoreOriginals(in child: pid_t) {
            for (address, breakpoint) in byAddress { _ = Self.writeByte(child, address, breakpoint.original) }
        }

        /// Moves thread `tid`, stopped at `breakpoint` (`address`), past it and lets it run: by
        /// carrying out the instruction under it when that is known, else by single-stepping the
        /// original byte and setting the trap again.
        func stepOver(_ tid: pid_t, _ address: UInt64, _ breakpoint: Breakpoint, _ regs: inout Registers) {
            switch breakpoint.emulation {
            case .skip(let length):
                regs.rip = address &+ UInt64(length)
                regs.store(tid)
            case .push(let register, let length):
                regs[.rsp] -= 8
                _ = cptrace_poke(tid, regs[.rsp], regs[encoded: register])
                regs.rip = address &+ UInt64(length)
                regs.store(tid)
            case .move(let destination, let source, let wide, let length):
                regs[encoded: destination] = wide ? regs[encoded: source] : regs[encoded: source] & 0xFFFF_FFFF
                regs.rip = address &+ UInt64(length)
                regs.store(tid)
            case nil:
                // Another thread may pass the function while its byte is restored: the known gap of
                // the single-step fallback, closed for the common entries by emulation.
                _ = Self.writeByte(tid, address, breakpoint.original)
                regs.rip = address
                regs.store(tid)
                _ = cptrace_singlestep(tid, 0)
                let stepped = Tracee.wait(tid)
                _ = Self.writeByte(tid, address, Self.trap)
                guard case .thread(_, let stop) = stepped, stop.isStop else { return }
            }
            _ = cptrace_cont(tid, 0)
        }

        /// Writes one byte of text through `PTRACE_POKEDATA` on its aligned word (text is read-only
        /// to `process_vm_writev`).
        static func writeByte(_ tid: pid_t, _ address: UInt64, _ byte: UInt8) -> Bool {
            let aligned = address & ~7
            var word: UInt64 = 0
            guard cptrace_peek(tid, aligned, &word) == 0 else { return false }
            let shift = (address - aligned) * 8
            word = (word & ~(0xFF << shift)) | (UInt64(byte) << shift)
            return cptrace_poke(tid, aligned, word) == 0
        }
    }
#endif
