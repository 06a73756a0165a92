/// The first instruction of a function, when the tracer can carry it out itself: then a thread
/// stopped at the breakpoint goes on without the original byte ever being put back, so no other
/// thread can run past the breakpoint meanwhile (the gap of the single-step fallback).
/// Registers are numbered as x86-64 encodes them: rax 0, rcx 1, rdx 2, rbx 3, rsp 4, rbp 5, rsi 6,
/// rdi 7, r8–r15 8–15. Only instructions that set no flags are emulated.
public enum EntryInstruction: Equatable, Sendable {
    /// `endbr64` or a one-byte `nop`: nothing to do but move on.
    case skip(length: Int)
    /// `push r64`.
    case push(register: Int, length: Int)
    /// `mov r64, r64` (or the 32-bit form, which clears the upper half).
    case move(destination: Int, source: Int, wide: Bool, length: Int)

    public var length: Int {
        switch self {
        case .skip(let length), .push(_, let length), .move(_, _, _, let length): return length
        }
    }

    /// Decodes the instruction at the start of `code`, when it is one of the above.
    public static func decode(_ code: [UInt8]) -> EntryInstruction? {
        guard let first = code.first else { return nil }
        if code.count >= 4, code[0] == 0xF3, code[1] == 0x0F, code[2] == 0x1E, code[3] == 0xFA { return .skip(length: 4) }
        if first == 0x90 { return .skip(length: 1) }
        if (0x50...0x57).contains(first) { return .push(register: Int(first - 0x50), length: 1) }
        var rex: UInt8 = 0
        var at = 0
        if (0x40...0x4F).contains(first) {
            rex = first
            at = 1
        }
        guard at < code.count else { return nil }
        let opcode = code[at]
        if rex & 0xF8 == 0x40, (0x50...0x57).contains(opcode) {
            return .push(register: Int(opcode - 0x50) + (rex & 1 != 0 ? 8 : 0), length: 2)
        }
        guard opcode == 0x89 || opcode == 0x8B, at + 1 < code.count else { return nil }
        let modrm = code[at + 1]
        guard modrm >> 6 == 3 else { return nil }  // register to register only
        let reg = Int((modrm >> 3) & 7) + (rex & 4 != 0 ? 8 : 0)
        let rm = Int(modrm & 7) + (rex & 1 != 0 ? 8 : 0)
        let wide = rex & 8 != 0
        let length = at + 2
        return opcode == 0x89
            ? .move(destination: rm, source: reg, wide: wide, length: length)
            : .move(destination: reg, source: rm, wide: wide, length: length)
    }
}
