/// Where a hit becomes a request: settled, merged with the hits of the same request, counted and
/// handed on.
extension TraceParser {
    /// The one place a hit becomes an `ImageLoad`: attribution and launch phase; then the hits of
    /// one request are merged into one load (`RequestMerger`) before it is counted and delivered.
    mutating func settle(_ hit: consuming OpenHit) throws {
        let line = hit.valueLine ?? hit.line
        let status = hit.status ?? .skipped
        var nameID: Int?
        if let id = hit.nameID, status == .ok {
            // The name's text is looked up only when the load is handed on (`deliver`): a summary
            // counts by id.
            nameID = id
            if !statistics.names.isValidUTF8(id) { statistics.recordInvalidName(line: line) }
        }
        // The hit's texts move into the load (`take`): a copy would be a retain and a release each.
        var breakpoint = hit.breakpoint.take()
        var api = hit.api.take()
        if api == nil { (breakpoint, api) = breakpoints.attribute(breakpoint) }
        if breakpoints.anyPending, let breakpoint { breakpoints.hitResolves(breakpoint) }
        var phase = LaunchPhase.launch
        if let end = summary.launchEnd?.line, line > end { phase = .afterLaunch }
        lastSettled = (nameID, status, line)
        // A hit the merger may hold, or that nothing can join (most): asked by its API alone.
        var alone: RequestMerger.Outcome?
        if hit.kind == nil {
            alone = merger.addAlone(api: api, present: presentAPIs(hit: api), into: &ready)
            if emit == nil, case .alone(let kind)? = alone {
                // Counted only (`trace`'s summary): no `ImageLoad` built, copied and destroyed.
                try deliverReady()
                seq += 1
                count(
                    status: status, line: line, detail: hit.detail, hits: 1, threadKnown: hit.thread != nil, api: api,
                    kind: kind, nameID: nameID, inLaunch: phase == .launch)
                return
            }
        }
        var backtrace: [String] = []
        swap(&backtrace, &hit.backtrace)
        var load = ImageLoad(
            seq: 0, line: line, name: nil, status: status, detail: hit.detail.take(), api: api,
            breakpoint: breakpoint, thread: hit.thread.take(),
            timestamp: hit.timestamp.take(), backtrace: backtrace, phase: phase, nameID: nameID)
        load.fromBareLine = hit.fromBareLine
        load.fromSystemWarning = hit.fromSystemWarning
        load.microseconds = hit.microseconds
        load.ownMicroseconds = hit.ownMicroseconds
        if let kind = hit.kind {
            // A whole request (imgtrace's callback printed it once, at the outermost API).
            merger.finish(into: &ready)
            try deliverReady()
            load.kind = kind
            return try deliver(&load)
        }
        // Not `alone ?? merger.hold(load, …)`: the autoclosure would capture the load, a copy per hit.
        let outcome = if let alone { alone } else { merger.hold(load, into: &ready) }
        switch outcome {
        case let .alone(kind):
            try deliverReady()
            load.kind = kind
            try deliver(&load)
        case .taken:
            try deliverReady()
        }
    }

    /// The image APIs this capture can hit, as bits of `ImageAPIs` indices: its breakpoints'
    /// functions and the APIs of hits so far. Every bit while the log shows no breakpoint, or one
    /// whose function it does not name (a regular expression): then any API may follow.
    private mutating func presentAPIs(hit api: String?) -> UInt64 {
        if breakpoints.breakpoints.count != presentFor {
            presentFor = breakpoints.breakpoints.count
            var declared: UInt64 = 0
            var known = true
            for breakpoint in breakpoints.breakpoints where !breakpoint.oneShot {
                guard let symbol = breakpoint.symbol else {
                    known = false
                    continue
                }
                if let index = merger.apiIndex(symbol) { declared |= 1 << UInt64(index) }
            }
            present = known && presentFor > 0 ? present | declared : .max
        }
        if present != .max, let api, let index = merger.apiIndex(api) { present |= 1 << UInt64(index) }
        return present
    }

    /// Delivers the requests the merger completed (a buffer kept between hits).
    mutating func deliverReady() throws {
        guard !ready.isEmpty else { return }
        // Taken out while delivered (`deliver` changes the parser), then put back empty.
        var requests: [ImageLoad] = []
        swap(&requests, &ready)
        for i in requests.indices { try deliver(&requests[i]) }
        requests.removeAll(keepingCapacity: true)
        swap(&requests, &ready)
    }

    /// Counts one request and hands it on (in place: a load is a dozen references to copy).
    private mutating func deliver(_ load: inout ImageLoad) throws {
        if emit != nil, load.name == nil, load.status == .ok, let id = load.nameID { load.name = statistics.names.string(id) }
        seq += 1
        load.seq = seq
        count(
            status: load.status, line: load.line, detail: load.detail, hits: load.hits, threadKnown: load.thread != nil,
            api: load.api, kind: load.kind, nameID: load.nameID, inLaunch: load.phase == .launch)
        if let emit { try emit(load) }
    }

    /// Counts one request: the summary's figures.
    private mutating func count(
        status: LoadStatus, line: Int, detail: @autoclosure () -> String?, hits: Int, threadKnown: Bool, api: String?,
        kind: LoadKind?, nameID: Int?, inLaunch: Bool
    ) {
        statistics.record(status: status, line: line, detail: detail())
        statistics.mergedHits += hits - 1
        if !threadKnown {
            statistics.mergedWithoutThread += hits - 1
            if let api, statistics.isCalledByAnother(api) { statistics.startedInsideWithoutThread += 1 }
        }
        if let kind { statistics.kindCounts[kind.ordinal] += 1 }
        if let nameID, status == .ok { statistics.names.record(nameID, line: line, inLaunch: inLaunch, api: api) }
    }
}
