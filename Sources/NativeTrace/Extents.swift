#if os(Linux)
    import Foundation

    /// Each thread's open request and context, by dynamic extent: a request lasts from the first
    /// image-API entry on a thread until that call returns. A hit inside it belongs to it and is
    /// not a request of its own: a nested call (a deeper frame), or a tail call, which reaches its
    /// callee with the caller's frame and return address. A second call from the same place after
    /// the return is a request of its own, and so is one after the open request was left without
    /// returning (longjmp, an exception): another return address, or an API the open request's
    /// tail-call chain already passed (no API tail-calls itself). `frame` is the stack pointer
    /// just above the return address at the entry (the caller's frame starts there).
    struct Extents {
        struct Open {
            var frame: UInt64
            var returnAddress: UInt64?
            /// The APIs entered with this very frame: the first and the ones it tail-called.
            var chain: Set<String>
            /// A context's API (it gives the requests inside it their kind).
            var context: String?
            /// A return breakpoint counts this extent among its users.
            var broken = false
        }

        private var requests: [pid_t: Open] = [:]
        private var contexts: [pid_t: Open] = [:]
        /// Open extents per return address (threads share code, so they share return addresses).
        private var returnUsers: [UInt64: Int] = [:]

        /// Whether entering `api` with `frame` and `returnAddress` is inside `open`; a tail call
        /// joins its chain.
        static func enter(_ open: inout Open, api: String, frame: UInt64, returnAddress: UInt64?) -> Bool {
            if frame < open.frame { return true }
            guard frame == open.frame, returnAddress == open.returnAddress, !open.chain.contains(api) else { return false }
            open.chain.insert(api)
            return true
        }

        /// `api`, a name API, was entered: nil when the hit is inside the thread's open request;
        /// else the request starts, of the kind of the context it is in (`.some(nil)`: in none).
        mutating func startRequest(_ tid: pid_t, api: String, frame: UInt64, returnAddress: UInt64?) -> String?? {
            if var open = requests[tid] {
                if Self.enter(&open, api: api, frame: frame, returnAddress: returnAddress) {
                    requests[tid] = open
                    return nil
                }
                closeRequest(tid)
            }
            requests[tid] = Open(frame: frame, returnAddress: returnAddress, chain: [api])
            guard var context = contexts[tid] else { return .some(nil) }
            if Self.enter(&context, api: api, frame: frame, returnAddress: returnAddress) {
                contexts[tid] = context
                return .some(context.context)
            }
            closeContext(tid)
            return .some(nil)
        }

        /// A context was entered: true when it is the thread's outermost (it opens).
        mutating func startContext(_ tid: pid_t, api: String, frame: UInt64, returnAddress: UInt64?) -> Bool {
            if var open = requests[tid] {
                if Self.enter(&open, api: api, frame: frame, returnAddress: returnAddress) {
                    requests[tid] = open
                    return false
                }
                closeRequest(tid)
            }
            if var open = contexts[tid] {
                if Self.enter(&open, api: api, frame: frame, returnAddress: returnAddress) {
                    contexts[tid] = open
                    return false
                }
                closeContext(tid)
            }
            contexts[tid] = Open(frame: frame, returnAddress: returnAddress, chain: [api], context: api)
            return true
        }

        /// A breakpoint at the opened request's or context's return address is set.
        mutating func broke(_ tid: pid_t, isRequest: Bool) {
            let address = isRequest ? requests[tid]?.returnAddress : contexts[tid]?.returnAddress
            guard let address else { return }
            if isRequest { requests[tid]?.broken = true } else { contexts[tid]?.broken = true }
            returnUsers[address, default: 0] += 1
        }

        /// Thread `tid` reached `address`, a return breakpoint: what it closes closes. True when it
        /// closed something (a deeper frame reaching the same address, in recursion, closes nothing).
        mutating func returned(_ tid: pid_t, to address: UInt64, stackPointer: UInt64) -> Bool {
            var closed = false
            if let open = requests[tid], open.returnAddress == address, stackPointer >= open.frame {
                closeRequest(tid)
                closed = true
            }
            if let open = contexts[tid], open.returnAddress == address, stackPointer >= open.frame {
                closeContext(tid)
                closed = true
            }
            return closed
        }

        /// How many open extents still return to `address`.
        func users(of address: UInt64) -> Int { returnUsers[address] ?? 0 }

        private mutating func closeRequest(_ tid: pid_t) { release(requests.removeValue(forKey: tid)) }
        private mutating func closeContext(_ tid: pid_t) { release(contexts.removeValue(forKey: tid)) }

        private mutating func release(_ open: Open?) {
            guard let open, open.broken, let address = open.returnAddress else { return }
            let left = (returnUsers[address] ?? 1) - 1
            returnUsers[address] = left > 0 ? left : nil
        }
    }
#endif
