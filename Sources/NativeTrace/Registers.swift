#if os(Linux)
    import CPtrace

    /// An x86-64 general register, numbered as instructions encode it (and as `cptrace_regs.gpr`
    /// holds them): rax 0, rcx 1, rdx 2, rbx 3, rsp 4, rbp 5, rsi 6, rdi 7, r8–r15 8–15.
    enum Register: Int, CaseIterable {
        case rax = 0, rcx, rdx, rbx, rsp, rbp, rsi, rdi, r8, r9, r10, r11, r12, r13, r14, r15

        /// System V x86-64: the first six integer arguments of a call, in order. An Objective-C
        /// method's name argument is the third (`rdx`), after `self` and `_cmd`.
        static let arguments: [Register] = [.rdi, .rsi, .rdx, .rcx, .r8, .r9]
    }

    /// A stopped thread's general registers and `rip`.
    struct Registers {
        private var gpr: [UInt64]
        var rip: UInt64
        /// The set as read, flags and segments included: written back without a second read.
        private var raw: cptrace_regs

        init?(_ tid: pid_t) {
            var raw = cptrace_regs()
            guard cptrace_getregs(tid, &raw) == 0 else { return nil }
            gpr = withUnsafeBytes(of: raw.gpr) { Array($0.bindMemory(to: UInt64.self)) }
            rip = raw.rip
            self.raw = raw
        }

        subscript(_ register: Register) -> UInt64 {
            get { gpr[register.rawValue] }
            set { gpr[register.rawValue] = newValue }
        }

        /// A register by its encoding number (what `EntryInstruction` decodes).
        subscript(encoded number: Int) -> UInt64 {
            get { gpr[number] }
            set { gpr[number] = newValue }
        }

        /// Argument `number` (1-based) of a call stopped at its first instruction; numbers past the
        /// six register arguments read the sixth.
        func argument(_ number: Int) -> UInt64 {
            self[Register.arguments[max(0, min(Register.arguments.count - 1, number - 1))]]
        }

        func store(_ tid: pid_t) {
            var raw = self.raw
            withUnsafeMutableBytes(of: &raw.gpr) { buffer in
                for (index, value) in gpr.prefix(16).enumerated() { buffer.storeBytes(of: value, toByteOffset: index * 8, as: UInt64.self) }
            }
            raw.rip = rip
            _ = cptrace_setregs(tid, &raw)
        }
    }
#endif
