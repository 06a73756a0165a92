/// Merges the hits of one request into one load: the image APIs a single call passes through
/// on one thread (`+imageNamed:` → `+imageNamed:inBundle:withConfiguration:` → `_UIAssetManager`
/// → CoreUI) each hit a breakpoint when a capture breaks on all of them.
///
/// A hit continues an open request when the request's last API calls its API (`ImageAPIs`), the
/// request has not passed that API yet, the names agree (an outer API without a readable name,
/// such as a trait change's image asset, takes its inner call's name; a hit without a name
/// joins only when the last API calls its API directly) and the threads agree.
/// Anything else — the same API asking again, another entry point, another name — is a request
/// of its own: a cell's `Placeholder` on every row stays every row. Hits whose API the log does
/// not tell are never merged. On one thread nested calls are contiguous, so a request closes
/// when its thread starts another; requests leave in the order they started, once closed or
/// untouched for `window` hits, so memory stays bounded and interleaved threads still merge.
///
/// This runs once per hit of every log, so it allocates nothing per hit: the APIs a request
/// passed are a bit set over the table, the last API string's index is remembered, and
/// completed requests go into the caller's reused buffer.
struct RequestMerger {
    private struct Open {
        var load: ImageLoad
        /// The API the next call comes from: the last one passed, or the caller a helper returned to.
        var caller: Int
        /// The APIs passed, as bits of `ImageAPIs.table` indices.
        var passed: UInt64
        var lastTouched: Int
        /// Its thread has started another request since: on one thread, nested calls are contiguous.
        var closed = false
    }

    /// Hits after which an untouched request is complete.
    static let window = 64

    private var open: [Open] = []
    private var counter = 0
    private var lastAPI: (text: String, index: Int?)?

    /// What became of a hit.
    enum Outcome {
        /// It is a request of its own that nothing can join, of this kind: the caller delivers
        /// it itself, after `ready` (the common capture pays for no copy).
        case alone(LoadKind?)
        /// It is held, or joined a request; `ready` has what it completed.
        case taken
    }

    /// Takes one hit by its API (as the log names it) when nothing can join it: `.alone`, and the
    /// caller needs no `ImageLoad` for it; nil when it may join or be joined, and `hold` must take
    /// it. Appends the requests it completes to `ready`, in order. `present` holds the APIs this
    /// capture can hit (its breakpoints, the hits so far; all bits when unknown).
    mutating func addAlone(api text: String?, present: UInt64, into ready: inout [ImageLoad]) -> Outcome? {
        counter += 1
        var api: Int?
        if let text { api = apiIndex(text) }
        guard let api else {
            // No known API: nothing merges with it; it leaves after the requests started before it.
            if !open.isEmpty { drain(force: true, into: &ready) }
            return .alone(nil)
        }
        if open.isEmpty, ImageAPIs.callees(api) & present == 0 {
            // The common capture (one API, or APIs that do not call each other): nothing to hold.
            return .alone(ImageAPIs.kinds[api])
        }
        return nil
    }

    /// Takes a hit that `addAlone` did not: it joins an open request or is held as one.
    mutating func hold(_ hit: ImageLoad, into ready: inout [ImageLoad]) -> Outcome {
        // `addAlone` returned nil only for a hit whose API the table knows.
        guard let text = hit.api, let api = apiIndex(text) else { return .alone(nil) }
        var target: Int?
        var i = open.count - 1
        while i >= 0 {
            if continues(i, with: hit, api: api) {
                target = i
                break
            }
            i -= 1
        }
        if let target {
            open[target].load.hits += 1
            open[target].passed |= 1 << UInt64(api)
            if !ImageAPIs.returnsToCaller(api) { open[target].caller = api }
            open[target].lastTouched = counter
            if open[target].load.status != .ok, hit.status == .ok {
                // The entry point showed no name (an image asset, a coder): the inner call's is the request's.
                open[target].load.name = hit.name
                open[target].load.nameID = hit.nameID
                open[target].load.status = .ok
                open[target].load.detail = nil
            }
        } else {
            for index in 0..<open.count where open[index].load.thread == hit.thread { open[index].closed = true }
            var load = hit
            load.kind = ImageAPIs.kinds[api]
            open.append(Open(load: load, caller: api, passed: 1 << UInt64(api), lastTouched: counter))
        }
        drain(force: false, into: &ready)
        return .taken
    }

    /// Appends every request still open, in order: the end of the log.
    mutating func finish(into ready: inout [ImageLoad]) { drain(force: true, into: &ready) }

    /// The table index of `api` (a hit's, a breakpoint's function), remembered for the last API
    /// seen: consecutive hits mostly share one.
    mutating func apiIndex(_ api: String) -> Int? {
        if let last = lastAPI, last.text == api { return last.index }
        let found = ImageAPIs.index(of: api)
        lastAPI = (api, found)
        return found
    }

    /// Whether `hit` continues `open[index]` (read in place: an `Open` copied is a dozen retains).
    private func continues(_ index: Int, with hit: ImageLoad, api: Int) -> Bool {
        guard !open[index].closed, open[index].passed & (1 << UInt64(api)) == 0, open[index].load.thread == hit.thread else { return false }
        let caller = open[index].caller
        if open[index].load.status == .ok, hit.status == .ok {
            return open[index].load.nameID == hit.nameID && ImageAPIs.calls(caller, api)
        }
        // A hit without a name can only be told apart from a request of its own (a trait change
        // right after a cache hit) when the last API calls it directly.
        return ImageAPIs.callsDirectly(caller, api)
    }

    private mutating func drain(force: Bool, into ready: inout [ImageLoad]) {
        var done = 0
        while done < open.count, force || open[done].closed || counter - open[done].lastTouched >= Self.window {
            ready.append(open[done].load)
            done += 1
        }
        if done > 0 { open.removeFirst(done) }
    }
}
