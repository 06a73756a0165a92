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
struct RequestMerger {
    private struct Open {
        var load: ImageLoad
        /// The APIs passed, outermost first.
        var path: [Int]
        var lastTouched: Int
        /// Its thread has started another request since: on one thread, nested calls are contiguous.
        var closed = false
    }

    /// Hits after which an untouched request is complete.
    static let window = 64

    private var open: [Open] = []
    private var counter = 0

    /// Takes one hit (its `api` as the log names it); returns the requests completed by it, in order.
    mutating func add(_ hit: ImageLoad) -> [ImageLoad] {
        counter += 1
        let api = hit.api.flatMap(ImageAPIs.index(of:))
        if let api, let target = open.indices.reversed().first(where: { continues(open[$0], with: hit, api: api) }) {
            open[target].load.hits += 1
            open[target].path.append(api)
            open[target].lastTouched = counter
            if open[target].load.status != .ok, hit.status == .ok {
                // The entry point showed no name (an image asset, a coder): the inner call's is the request's.
                open[target].load.name = hit.name
                open[target].load.nameID = hit.nameID
                open[target].load.status = .ok
                open[target].load.detail = nil
            }
        } else {
            var load = hit
            load.kind = api.map { ImageAPIs.table[$0].kind }
            guard let api else { return drained(force: false) + flushedBefore(load) }
            for i in open.indices where open[i].load.thread == hit.thread { open[i].closed = true }
            open.append(Open(load: load, path: [api], lastTouched: counter))
        }
        return drained(force: false)
    }

    /// Every request still open, in order: the end of the log.
    mutating func finish() -> [ImageLoad] { drained(force: true) }

    private func continues(_ request: Open, with hit: ImageLoad, api: Int) -> Bool {
        guard !request.closed, !request.path.contains(api), request.load.thread == hit.thread else { return false }
        // The API being called is the last one passed, or the caller it returned to.
        var caller = request.path.count - 1
        while caller > 0, ImageAPIs.table[request.path[caller]].returnsToCaller { caller -= 1 }
        if request.load.status == .ok, hit.status == .ok {
            return request.load.nameID == hit.nameID && ImageAPIs.calls(request.path[caller], api)
        }
        // A hit without a name can only be told apart from a request of its own (a trait change
        // right after a cache hit) when the last API calls it directly.
        return ImageAPIs.callsDirectly(request.path[caller], api)
    }

    /// A hit that merges with nothing and opens nothing (no known API): it leaves after the
    /// requests that started before it.
    private mutating func flushedBefore(_ load: ImageLoad) -> [ImageLoad] {
        let earlier = open.map(\.load)
        open.removeAll()
        return earlier + [load]
    }

    private mutating func drained(force: Bool) -> [ImageLoad] {
        var out: [ImageLoad] = []
        while let first = open.first, force || first.closed || counter - first.lastTouched >= Self.window {
            out.append(first.load)
            open.removeFirst()
        }
        return out
    }
}
