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

    /// A stopped thread's general registers and `rip`: the set as read (flags and segments
    /// included), written back without a second read. A plain value: made on every hit, it
    /// allocates nothing.
    struct Registers {
        private var raw: cptrace_regs

        init?(_ tid: pid_t) {
            var raw = cptrace_regs()
            guard cptrace_getregs(tid, &raw) == 0 else { return nil }
            self.raw = raw
        }

        var rip: UInt64 {
            get { raw.rip }
            set { raw.rip = newValue }
        }

        subscript(_ register: Register) -> UInt64 {
            get { self[encoded: register.rawValue] }
            set { self[encoded: register.rawValue] = newValue }
        }

        /// A register by its encoding number (what `EntryInstruction` decodes), 0 to 15.
        subscript(encoded number: Int) -> UInt64 {
            get {
                precondition((0..<16).contains(number))
                return withUnsafeBytes(of: raw.gpr) { $0.load(fromByteOffset: number * 8, as: UInt64.self) }
            }
            set {
                precondition((0..<16).contains(number))
                withUnsafeMutableBytes(of: &raw.gpr) { $0.storeBytes(of: newValue, toByteOffset: number * 8, as: UInt64.self) }
            }
        }

        /// Argument `number` (1-based) of a call stopped at its first instruction; numbers past the
        /// six register arguments read the sixth.
        func argument(_ number: Int) -> UInt64 {
            self[Register.arguments[max(0, min(Register.arguments.count - 1, number - 1))]]
        }

        func store(_ tid: pid_t) {
            var raw = self.raw
            _ = cptrace_setregs(tid, &raw)
        }
    }
#endif
