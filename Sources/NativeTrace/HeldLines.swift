#if os(Linux)
    import CAgentShared
    import LaunchTrace

    /// The lines of `record --agent`, composed from the agent's records as bytes and held until
    /// they can be written in the global order: a request waits for its return record (its
    /// duration) and every later line waits with it.
    ///
    /// A value type on purpose: the recorder writes a line per request, and every access to a
    /// class's stored property is checked for exclusivity at run time (a fifth of the writing's
    /// instructions); inside a mutating method the fields are the struct's own.
    struct HeldLines {
        /// A held line: its bytes (the hit line and any frame lines under it, each with its line
        /// break) lie in `bytes` from `start` to `end`; its hit line ends at `hitEnd`.
        private struct Line {
            var seq: UInt64
            var start: Int
            var hitEnd: Int
            var end: Int
            /// The ring whose return record would close it; nil once closed (or not a request).
            var openRing: Int?
            /// A lookup's name: the object its return hands back is known by it.
            var name: [UInt8]?
            /// A decode's object, named when its line is written.
            var decodes: UInt64?

            /// Moves the line's place in `bytes` (bytes were put in or taken out before it).
            mutating func shift(by offset: Int) {
                start += offset
                hitEnd += offset
                end += offset
            }
        }

        /// Each API's name as a line carries it, by its index in the agent's list.
        private let apiBytes: [[UInt8]]
        /// Each API's load kind as a line carries it (`(nib) `), or nil, by index.
        private let kindByAPI: [[UInt8]?]
        /// Whether a decode API is recorded: only then is each lookup's returned object kept by
        /// name (a dictionary insert per request otherwise spent for nothing).
        var tracksImageObjects: Bool
        private var clock = HitClock()
        /// Each thread's label as a line carries it (`HitLine.label`), by thread id.
        private var threadLabels: [Int32: [UInt8]] = [:]
        private var lines: [Line] = []
        /// The held lines' bytes, one after another: one buffer for every line, no array per line.
        private var bytes: [UInt8] = []
        /// What a closed request adds to its line (its duration), before it goes into place.
        private var addition: [UInt8] = []
        /// Per ring, the held request its next return record closes.
        private var openRequest = [UInt64?](repeating: nil, count: Int(IMGTRACE_AGENT_RINGS))
        /// The name of the lookup that returned each image object, for the decodes that follow.
        private var objectNames: [UInt64: [UInt8]] = [:]

        init(apiNames: [String], tracksImageObjects: Bool) {
            apiBytes = apiNames.map { Array($0.utf8) }
            kindByAPI = apiNames.map { LoadKind.of(outermostAPI: $0).map { Array(HitLine.kindPrefix($0.rawValue).utf8) } }
            self.tracksImageObjects = tracksImageObjects
        }

        /// The label a thread's lines carry, if it was given (`setLabel`).
        func label(of tid: Int32) -> [UInt8]? { threadLabels[tid] }

        /// Gives a thread its label (the program's own name for it, made safe for a line).
        mutating func setLabel(_ label: String, of tid: Int32) { threadLabels[tid] = Array(HitLine.label(label).utf8) }

        /// A time as the lines write it.
        mutating func format(seconds: Int, nanoseconds: Int) -> String { clock.format(seconds: seconds, nanoseconds: nanoseconds) }

        /// Holds the launch-end marker's line.
        mutating func addLaunchEnd(seq: UInt64) {
            let start = bytes.count
            bytes += LaunchMarker.text.utf8
            lines.append(Line(seq: seq, start: start, hitEnd: bytes.count, end: bytes.count + 1))
            bytes.append(0x0A)
        }

        /// Holds a request's line (or a decode's, whose value comes with its return) and the
        /// frame lines under it. A request before it on its thread that got no return was left
        /// (longjmp, an exception) or its return was lost: it keeps no duration.
        mutating func addRequest(_ record: imgtrace_agent_record, payload: UnsafeRawBufferPointer, seq: UInt64, ring: Int, tid: Int32, stack: String) {
            close(ring: ring, returnPayload: nil)
            let kind = UInt32(record.kind)
            let start = bytes.count
            compose(record, payload: payload, tid: tid)
            var line = Line(seq: seq, start: start, hitEnd: bytes.count, end: bytes.count + 1, openRing: ring)
            bytes.append(0x0A)
            if !stack.isEmpty {
                bytes += stack.utf8
                bytes.append(0x0A)
                line.end = bytes.count
            }
            if kind == IMGTRACE_AGENT_NAME.rawValue, tracksImageObjects { line.name = Array(payload) }
            if kind == IMGTRACE_AGENT_DECODE.rawValue {
                // The agent writes the object's 8 bytes; a file's other length names no object.
                line.decodes = payload.count == 8 ? UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self)) : 0
            }
            lines.append(line)
            openRequest[ring] = seq
        }

        /// A record's hit line, up to its duration.
        private mutating func compose(_ record: imgtrace_agent_record, payload: UnsafeRawBufferPointer, tid: Int32) {
            let kind = UInt32(record.kind)
            let apiIndex = Int(record.api)
            let api = apiIndex < apiBytes.count ? apiBytes[apiIndex] : Array("api#\(record.api)".utf8)
            let time = AgentRecorder.time(record)
            clock.append(seconds: time.seconds, nanoseconds: time.nanoseconds, to: &bytes)
            let thread = threadLabels[tid] ?? Self.unnamedThread
            if kind == IMGTRACE_AGENT_DECODE.rawValue {
                // A decode is no request: its value (the name) is written when it returns.
                HitLine.appendHead(to: &bytes, thread: thread, kind: Self.decodeKind, api: api)
                return
            }
            // A request inside a context (a nib placeholder, a trait change) is of the context's kind.
            let context = Int(record.context)
            let loadKind = (context < kindByAPI.count ? kindByAPI[context] : nil) ?? (apiIndex < kindByAPI.count ? kindByAPI[apiIndex] : nil)
            HitLine.appendHead(to: &bytes, thread: thread, kind: loadKind ?? [], api: api)
            if kind == IMGTRACE_AGENT_UNREADABLE.rawValue, payload.count == 8 {
                HitLine.appendUnreadable(at: UInt64(littleEndian: payload.loadUnaligned(as: UInt64.self)), to: &bytes)
            } else if kind == IMGTRACE_AGENT_NAME.rawValue {
                HitLine.appendQuoted(payload, to: &bytes)
            } else {
                bytes += HitLine.noName
            }
        }

        private static let decodeKind = Array("(decode) ".utf8)
        private static let unnamedThread = Array("thread".utf8)

        /// Closes the request the ring holds open; with a return record's payload, its duration
        /// goes on its line (a payload naming another request closes nothing: the file's word).
        mutating func close(ring: Int, returnPayload: UnsafeRawBufferPointer?) {
            guard let seq = openRequest[ring] else { return }
            var nanoseconds: UInt64?
            var nested: UInt64 = 0
            var result: UInt64 = 0
            if let payload = returnPayload {
                guard payload.count == MemoryLayout<imgtrace_agent_return_payload>.size else { return }
                let value = payload.loadUnaligned(as: imgtrace_agent_return_payload.self)
                guard UInt64(littleEndian: value.request_seq) == seq else { return }
                result = UInt64(littleEndian: value.result)
                nested = UInt64(littleEndian: value.nested_nanoseconds)
                // No call of a launch lasts a day: longer is a file's junk, written as no duration.
                let took = UInt64(littleEndian: value.nanoseconds)
                nanoseconds = took <= 86_400_000_000_000 ? took : nil
            }
            openRequest[ring] = nil
            guard let index = lines.lastIndex(where: { $0.seq == seq }) else { return }
            if let name = lines[index].name, result != 0 { objectNames[result] = name }
            addition.removeAll(keepingCapacity: true)
            if let object = lines[index].decodes {
                // Named by the lookup that returned the object (the latest one, as addresses are reused).
                if let name = objectNames[object] {
                    name.withUnsafeBytes { HitLine.appendQuoted($0, to: &addition) }
                } else {
                    addition += "<unread: no recorded lookup returned this image (\(HitLine.hex(object)))>".utf8
                }
            }
            if let nanoseconds { HitLine.appendDuration(to: &addition, nanoseconds: nanoseconds, nested: nested) }
            lines[index].openRing = nil
            guard !addition.isEmpty else { return }
            // At the end of its hit line, before its line break: most often only that line break
            // moves, the request being the last line held.
            bytes.insert(contentsOf: addition, at: lines[index].hitEnd)
            lines[index].hitEnd += addition.count
            lines[index].end += addition.count
            for later in (index + 1)..<lines.count { lines[later].shift(by: addition.count) }
        }

        /// Closes every request still open (the recording's end): written as they are, a
        /// decode named, no duration.
        mutating func closeAll() {
            for ring in openRequest.indices where openRequest[ring] != nil { close(ring: ring, returnPayload: nil) }
        }

        /// Gives `emit` the lines before the first request still open (all with `final`), as one
        /// run of bytes, and lets them go.
        mutating func writeReady(final: Bool, to emit: (UnsafeBufferPointer<UInt8>) -> Void) {
            let ready = final ? lines.count : (lines.firstIndex { $0.openRing != nil } ?? lines.count)
            guard ready > 0 else { return }
            let written = lines[ready - 1].end
            bytes.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[..<written])) }
            if ready == lines.count {
                lines.removeAll(keepingCapacity: true)
                bytes.removeAll(keepingCapacity: true)
            } else {
                lines.removeFirst(ready)
                bytes.removeFirst(written)
                for index in lines.indices { lines[index].shift(by: -written) }
            }
        }
    }
#endif
