#if os(Linux)
    import Foundation

    /// Each thread's open request and context, by dynamic extent: a request lasts from the first
    /// image-API entry on a thread until that call returns. A hit inside it belongs to it and is
    /// not a request of its own: a nested call (a deeper frame while the opening call's return
    /// address still sits in its slot), or a tail call, which reaches its callee with the caller's
    /// frame and return address. Anything else is a request of its own: a second call from the
    /// same place after the return (the same API again: no API tail-calls itself), a call from
    /// elsewhere once the opening call returned (its slot now holds another return address), or
    /// one after the open request was left without returning (longjmp, an exception). `frame` is
    /// the stack pointer just above the return address at the entry (the caller's frame starts
    /// there). Judged at the next hit, from one word of the stack: no stop at the return.
    struct Extents {
        struct Open {
            var frame: UInt64
            var returnAddress: UInt64?
            /// The APIs entered with this very frame: the first and the ones it tail-called.
            var chain: Set<String>
            /// A context's API (it gives the requests inside it their kind).
            var context: String?
        }

        private var requests: [pid_t: Open] = [:]
        private var contexts: [pid_t: Open] = [:]

        /// Whether entering `api` with `frame` and `returnAddress` is inside `open`; a tail call
        /// joins its chain. `word` reads the thread's stack.
        static func enter(_ open: inout Open, api: String, frame: UInt64, returnAddress: UInt64?, word: (UInt64) -> UInt64?) -> Bool {
            if frame < open.frame {
                guard let expected = open.returnAddress else { return true }
                return word(open.frame &- 8) == expected
            }
            guard frame == open.frame, returnAddress == open.returnAddress, !open.chain.contains(api) else { return false }
            open.chain.insert(api)
            return true
        }

        /// `api`, a name API, was entered: nil when the hit is inside the thread's open request;
        /// else the request starts, of the kind of the context it is in (`.some(nil)`: in none).
        mutating func startRequest(
            _ tid: pid_t, api: String, frame: UInt64, returnAddress: UInt64?, word: (UInt64) -> UInt64?
        ) -> String?? {
            if var open = requests[tid], Self.enter(&open, api: api, frame: frame, returnAddress: returnAddress, word: word) {
                requests[tid] = open
                return nil
            }
            requests[tid] = Open(frame: frame, returnAddress: returnAddress, chain: [api])
            guard var context = contexts[tid] else { return .some(nil) }
            if Self.enter(&context, api: api, frame: frame, returnAddress: returnAddress, word: word) {
                contexts[tid] = context
                return .some(context.context)
            }
            contexts[tid] = nil
            return .some(nil)
        }

        /// A context was entered: true when it is the thread's outermost (it opens).
        mutating func startContext(_ tid: pid_t, api: String, frame: UInt64, returnAddress: UInt64?, word: (UInt64) -> UInt64?) -> Bool {
            if var open = requests[tid] {
                if Self.enter(&open, api: api, frame: frame, returnAddress: returnAddress, word: word) {
                    requests[tid] = open
                    return false
                }
                requests[tid] = nil
            }
            if var open = contexts[tid], Self.enter(&open, api: api, frame: frame, returnAddress: returnAddress, word: word) {
                contexts[tid] = open
                return false
            }
            contexts[tid] = Open(frame: frame, returnAddress: returnAddress, chain: [api], context: api)
            return true
        }

        /// The thread ended: its extents with it.
        mutating func forget(_ tid: pid_t) {
            requests[tid] = nil
            contexts[tid] = nil
        }
    }
#endif
