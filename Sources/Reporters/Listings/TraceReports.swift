import ImgtraceSupport
import LaunchTrace

/// `imgtrace trace --format json`: `{"schemaVersion":1,"summary":{…},"events":[…]}`.
///
/// Events are held as they arrive in a `LoadSpill` (compact; bounded memory for logs of any size)
/// and encoded once the summary, which comes first, is written.
public final class TraceJSONReport {
    private let events = LoadSpill()

    public init() {}

    /// Holds one event.
    public func add(_ load: ImageLoad) { events.add(load) }

    /// Writes the whole document.
    public func write(summary: TraceSummary, to sink: ByteSink) {
        var head = JSONText()
        head.beginObject()
        head.field("schemaVersion", 1)
        head.key("summary")
        Self.encode(summary, into: &head)
        head.key("events")
        head.withBytes { sink.write($0) }
        if let failure = events.failure { sink.fail(failure) }
        sink.write(Array("[".utf8))
        events.writeJSON(for: sink.consumer) { sink.writeGuarded($0) }
        sink.write(Array("]}\n".utf8))
    }

    /// The JSON object of one event, keys in contract order.
    package static func encode(_ load: ImageLoad, into w: inout JSONText) {
        w.beginObject()
        encodeFields(load, into: &w)
        w.endObject()
    }

    /// The event's fields, in contract order, into an object the caller has opened. Keys are
    /// written as fixed bytes: this runs once per hit of the log.
    package static func encodeFields(_ load: ImageLoad, into w: inout JSONText) {
        w.rawField("\"seq\":", load.seq)
        w.rawField("\"line\":", load.line)
        w.rawField("\"name\":", load.name)
        w.rawKey(Self.statusField(load.status))
        if load.detail == nil, load.api == nil, load.breakpoint == nil, load.thread == nil {
            // Most hits of a debugger log: four nulls written as one piece.
            w.rawKey("\"detail\":null,\"api\":null,\"breakpoint\":null,\"thread\":null")
        } else {
            w.rawField("\"detail\":", load.detail)
            w.rawField("\"api\":", load.api)
            w.rawField("\"breakpoint\":", load.breakpoint)
            w.rawField("\"thread\":", load.thread)
        }
        w.rawField("\"timestamp\":", load.timestamp?.text)
        if load.backtrace.isEmpty, load.phase == .launch, load.kind == nil {
            w.rawKey("\"backtrace\":[],\"phase\":\"launch\",\"kind\":null")
        } else {
            w.rawKey("\"backtrace\":")
            w.rawStrings(load.backtrace)
            w.rawField("\"phase\":", load.phase.rawValue)
            w.rawField("\"kind\":", load.kind?.rawValue)
        }
        w.rawField("\"hits\":", load.hits)
        // Only a timed capture's events have it (`record --agent`): other logs' JSON is unchanged.
        if let microseconds = load.microseconds {
            w.rawField("\"microseconds\":", microseconds)
            w.rawField("\"ownMicroseconds\":", load.ownMicroseconds ?? microseconds)
        }
    }

    /// `"status":"…"` as one fixed piece.
    package static func statusField(_ status: LoadStatus) -> StaticString {
        switch status {
        case .ok: return "\"status\":\"ok\""
        case .nil: return "\"status\":\"nil\""
        case .empty: return "\"status\":\"empty\""
        case .error: return "\"status\":\"error\""
        case .addressOnly: return "\"status\":\"addressOnly\""
        case .skipped: return "\"status\":\"skipped\""
        }
    }

    package static func encode(_ s: TraceSummary, into w: inout JSONText) {
        w.beginObject()
        w.field("debugger", s.debugger.rawValue)
        w.field("debuggerVersion", s.debuggerVersion)
        w.field("actionsEchoed", s.actionsEchoed)
        w.field("lines", s.lines)
        w.field("bytes", s.bytes)
        w.field("hits", s.hits)
        w.field("mergedHits", s.mergedHits)
        w.key("kinds")
        w.beginObject()
        for kind in LoadKind.allCases where s.kinds[kind] != nil { w.field(kind.rawValue, s.kinds[kind]!) }
        w.endObject()
        w.field("distinctNames", s.names.count)
        w.field("hitsWithoutName", s.hitsWithoutName)
        w.key("statusCounts")
        w.beginObject()
        for status in LoadStatus.allCases { w.field(status.rawValue, s.statusCounts[status] ?? 0) }
        w.endObject()
        JSONReporter.writeLaunchEnd(s.launchEnd, &w)
        // `imgtrace record`'s last line: how the recording ended.
        w.key("recording")
        if let recording = s.recording {
            w.beginObject()
            w.field("line", recording.line)
            w.field("hits", recording.hits)
            w.field("launchEnd", recording.launchEnd.rawValue)
            w.field("program", recording.program.text)
            w.endObject()
        } else {
            w.null()
        }
        w.objects("breakpoints", s.breakpoints) { w, bp in
            w.field("id", bp.id)
            w.field("symbol", bp.symbol)
            w.field("actions", strings: bp.actions)
            w.field("oneShot", bp.oneShot)
            w.field("pending", bp.pending)
            w.field("line", bp.line)
        }
        w.key("undefinedFunctions")
        w.beginArray()
        for name in s.undefinedFunctions { w.string(name) }
        w.endArray()
        w.objects("names", s.names) { w, n in
            w.field("name", n.name)
            w.field("count", n.count)
            w.field("launchCount", n.launchCount)
            w.field("firstLine", n.firstLine)
            w.field("apis", strings: n.apis)
        }
        w.key("warnings")
        w.beginArray()
        for warning in s.warnings {
            w.beginObject()
            w.field("line", warning.line)
            w.field("message", warning.message)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}

/// `imgtrace trace --format text`: every distinct name with its count, first line and API,
/// then the summary.
public enum TraceTextReport {
    public static func render(_ s: TraceSummary, file: String, width: Int = 120) -> String {
        var out = ""
        let byCount = s.names.sorted { a, b in
            a.count != b.count ? a.count > b.count : a.firstLine < b.firstLine
        }
        if !byCount.isEmpty {
            if s.launchEnd != nil {
                let rows = byCount.map { n in
                    [TextTable.escapeName(n.name), String(n.count), String(n.launchCount), String(n.firstLine), n.apis.joined(separator: ", ")]
                }
                out += TextTable.render(header: ["NAME", "LOADS", "AT LAUNCH", "FIRST LINE", "API"], rows: rows, rightAligned: [1, 2, 3], width: width)
            } else {
                let rows = byCount.map { n in
                    [TextTable.escapeName(n.name), String(n.count), String(n.firstLine), n.apis.joined(separator: ", ")]
                }
                out += TextTable.render(header: ["NAME", "LOADS", "FIRST LINE", "API"], rows: rows, rightAligned: [1, 2], width: width)
            }
            out += "\n"
        }
        let table = out
        out = ""
        out += "\(file): \(counted(s.hits, "hit")), \(counted(s.names.count, "distinct name"))"
        out += ", \(counted(s.lines, "line"))\n"
        if s.mergedHits > 0 {
            out += "\(counted(s.mergedHits, "hit")) of nested image APIs merged into the request that made \(s.mergedHits == 1 ? "it" : "them")\n"
        }
        if !s.kinds.isEmpty {
            out += "requests by kind: " + LoadKind.allCases.compactMap { kind in s.kinds[kind].map { "\($0) \(kind.rawValue)" } }.joined(separator: ", ") + "\n"
        }
        if s.recording != nil, s.debugger == .unknown {
            // No debugger at all: imgtrace recorded the launch itself.
            out += "debugger: none, a recording by imgtrace record\n"
        } else {
            out += "debugger: \(SafeText.visible(s.debuggerVersion ?? s.debugger.rawValue))\(s.actionsEchoed ? ", actions echoed" : "")\n"
        }
        let missing = LoadStatus.allCases.filter { $0 != .ok && (s.statusCounts[$0] ?? 0) > 0 }
        if missing.isEmpty {
            out += "hits without a name: none\n"
        } else {
            out += "hits without a name: " + missing.map { "\(s.statusCounts[$0]!) \($0.rawValue)" }.joined(separator: ", ") + "\n"
        }
        if let end = s.launchEnd {
            out += "launch end: line \(end.line) (\(end.source.rawValue))\n"
        } else {
            out += "launch end: no marker, the whole log is the launch\n"
        }
        if let recording = s.recording {
            out += "recording: line \(recording.line): \(recording.hits == 1 ? "1 hit" : "\(recording.hits) hits"), the program \(SafeText.visible(recording.program.sentence))\n"
        }
        for w in s.warnings {
            out += "warning: " + (w.line.map { "line \($0): " } ?? "") + SafeText.visible(w.message) + "\n"
        }
        // The facts under the table are prose: they wrap to the terminal like it.
        let facts = out.split(separator: "\n", omittingEmptySubsequences: false).map { TextTable.wrapped(String($0), width: width, first: "", rest: "  ") }
        return table + facts.joined(separator: "\n")
    }
}
