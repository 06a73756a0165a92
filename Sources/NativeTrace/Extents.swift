#if os(Linux)
    import Foundation

    /// What a stop of one thread can tell about its stack, for judging extents: a struct of the
    /// stop's registers and memory and the unwinder, made at every hit (no closures to allocate).
    struct StackView {
        let registers: Registers
        let memory: StopMemory
        let unwinder: Unwinder?

        /// The word at an address of the stack.
        func word(_ address: UInt64) -> UInt64? { memory.word(at: address) }
        /// The function (its first instruction) whose frame is the one with this CFA now, by the
        /// cached CFI walk from the stop; nil when the walk cannot say.
        func functionOwning(_ frame: UInt64) -> UInt64? { unwinder?.functionOwning(frame: frame, registers: registers, memory: memory) }
        /// The function the call instruction just before this return address calls, when the
        /// instruction names it (a direct call, a call through the GOT, a PLT stub resolved).
        func callee(_ returnAddress: UInt64) -> UInt64? { unwinder?.callee(returning: returnAddress) }
        /// The start of the module holding an address.
        func module(_ address: UInt64) -> UInt64? { unwinder?.module(of: address) }
    }

    /// Each thread's open request and context, by dynamic extent: a request lasts from the first
    /// image-API entry on a thread until that call returns. A hit inside it belongs to it and is
    /// not a request of its own: a nested call (a deeper frame while the opening call is still
    /// running), or a tail call, which reaches its callee with the caller's frame and return
    /// address. Anything else is a request of its own: a second call from the same place after
    /// the return (the same API again: no API tail-calls itself), a call from elsewhere once the
    /// opening call returned (its slot now holds another return address), or one after the open
    /// request was left without returning (longjmp, an exception). `frame` is the CFA of the
    /// entered function: the stack pointer just above the return address (the caller's frame
    /// starts there). Judged at the next hit, from the stack: no stop at the return.
    ///
    /// A deeper hit while the opening call's return address still sits in its slot is inside the
    /// request, unless the call returned and the same call instruction ran again, reaching the
    /// API deeper (a wrapper that tail-called the API once and calls it the next time through a
    /// function of its own). The function that owns the opening frame now tells: one the request
    /// entered there (the API, or an API it tail-called) is still running; the function the call
    /// instruction calls, running again, is a new call. When the call's target is unknown (an
    /// indirect call), a function of the API's own module is taken to be the API's internals.
    struct Extents {
        struct Open {
            var frame: UInt64
            var returnAddress: UInt64?
            /// The APIs entered with this very frame: the first and the ones it tail-called (a
            /// few: arrays, which a request of one API leaves unallocated after the first).
            var chain: [String]
            /// Their first instructions.
            var entries: [UInt64]
            /// A context's API (it gives the requests inside it their kind).
            var context: String?

            init(frame: UInt64, returnAddress: UInt64?, api: String, entry: UInt64, context: String? = nil) {
                self.frame = frame
                self.returnAddress = returnAddress
                chain = [api]
                entries = [entry]
                self.context = context
            }

            /// Opens again for a new request, in the same storage.
            mutating func reopen(frame: UInt64, returnAddress: UInt64?, api: String, entry: UInt64) {
                self.frame = frame
                self.returnAddress = returnAddress
                chain.removeAll(keepingCapacity: true)
                chain.append(api)
                entries.removeAll(keepingCapacity: true)
                entries.append(entry)
            }
        }

        private var requests: [pid_t: Open] = [:]
        private var contexts: [pid_t: Open] = [:]

        /// The frame of the thread's open request or context: a deeper hit reads the stack up to it.
        func outermostFrame(_ tid: pid_t) -> UInt64? {
            let request = requests[tid]?.frame, context = contexts.isEmpty ? nil : contexts[tid]?.frame
            guard let request, let context else { return request ?? context }
            return max(request, context)
        }

        /// Whether entering `api` (at `entry`) with `frame` and `returnAddress` is inside `open`; a
        /// tail call joins its chain.
        static func enter(_ open: inout Open, api: String, entry: UInt64, frame: UInt64, returnAddress: UInt64?, stack: StackView) -> Bool {
            if frame < open.frame {
                guard let expected = open.returnAddress else { return true }
                guard stack.word(open.frame &- 8) == expected else { return false }
                guard let owner = stack.functionOwning(open.frame) else { return true }
                if open.entries.contains(owner) { return true }
                if let callee = stack.callee(expected) { return owner != callee }
                guard let first = open.entries.first, let apiModule = stack.module(first) else { return true }
                return stack.module(owner) == apiModule
            }
            guard frame == open.frame, returnAddress == open.returnAddress, !open.chain.contains(api) else { return false }
            open.chain.append(api)
            if !open.entries.contains(entry) { open.entries.append(entry) }
            return true
        }

        /// `api`, a name API, was entered: nil when the hit is inside the thread's open request;
        /// else the request starts, of the kind of the context it is in (`.some(nil)`: in none).
        mutating func startRequest(
            _ tid: pid_t, api: String, entry: UInt64, frame: UInt64, returnAddress: UInt64?, stack: StackView
        ) -> String?? {
            // The thread's open request is changed where it is stored: a copy would make its
            // arrays copy themselves on every hit.
            if requests[tid] != nil {
                if Self.enter(&requests[tid]!, api: api, entry: entry, frame: frame, returnAddress: returnAddress, stack: stack) { return nil }
                requests[tid]!.reopen(frame: frame, returnAddress: returnAddress, api: api, entry: entry)
            } else {
                requests[tid] = Open(frame: frame, returnAddress: returnAddress, api: api, entry: entry)
            }
            guard !contexts.isEmpty, var context = contexts[tid] else { return .some(nil) }
            if Self.enter(&context, api: api, entry: entry, frame: frame, returnAddress: returnAddress, stack: stack) {
                contexts[tid] = context
                return .some(context.context)
            }
            contexts[tid] = nil
            return .some(nil)
        }

        /// A context was entered: true when it is the thread's outermost (it opens).
        mutating func startContext(_ tid: pid_t, api: String, entry: UInt64, frame: UInt64, returnAddress: UInt64?, stack: StackView) -> Bool {
            if var open = requests[tid] {
                if Self.enter(&open, api: api, entry: entry, frame: frame, returnAddress: returnAddress, stack: stack) {
                    requests[tid] = open
                    return false
                }
                requests[tid] = nil
            }
            if var open = contexts[tid], Self.enter(&open, api: api, entry: entry, frame: frame, returnAddress: returnAddress, stack: stack) {
                contexts[tid] = open
                return false
            }
            contexts[tid] = Open(frame: frame, returnAddress: returnAddress, api: api, entry: entry, context: api)
            return true
        }

        /// The thread ended: its extents with it.
        mutating func forget(_ tid: pid_t) {
            requests[tid] = nil
            contexts[tid] = nil
        }
    }
#endif
