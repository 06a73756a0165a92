#if os(Linux)
    import CAgentShared
    import Foundation
    import ImgtraceSupport
    import LaunchTrace

    /// Draining the rings: each record in the global order of the agent's sequence numbers, its
    /// line composed into the held lines, its frames named from the program's libraries.
    extension AgentRecorder {
        /// Writes the records `pending` holds, in their global order; returns how many. A request
        /// whose return has not come yet is held with every line after it; `final` writes all.
        @discardableResult
        func write(_ pending: RingCollector.Pending, _ shared: UnsafeMutablePointer<imgtrace_agent_shared>, final: Bool = false) -> Int {
            let rings = pending.sorted(by: { $0.key < $1.key })
            let ringBytes = rings.map(\.value.bytes)
            let batch = Self.recordsInOrder(ringBytes)
            for slot in batch {
                let position = Int(slot.ring)
                ringBytes[position].withUnsafeBytes { raw in
                    take(record: raw, at: Int(slot.at), seq: slot.seq, ring: rings[position].key, tid: rings[position].value.tid, shared: shared)
                }
            }
            // At the end, requests still open are written as they are (a decode named, no duration).
            if final { lines.closeAll() }
            lines.writeReady(final: final, to: emit)
            return batch.count
        }

        /// Takes the record at `at` of a ring's bytes: a return closes its request, anything else
        /// becomes a held line. The name is read where it lies; nothing is copied out for a line.
        func take(record raw: UnsafeRawBufferPointer, at: Int, seq: UInt64, ring: Int, tid: Int32, shared: UnsafeMutablePointer<imgtrace_agent_shared>) {
            let headerSize = MemoryLayout<imgtrace_agent_record>.size
            let header = raw.loadUnaligned(fromByteOffset: at, as: imgtrace_agent_record.self)
            let payload = UnsafeRawBufferPointer(rebasing: raw[(at + headerSize)..<(at + headerSize + Int(header.length))])
            let kind = UInt32(header.kind)
            switch kind {
            case IMGTRACE_AGENT_RETURN.rawValue:
                lines.close(ring: ring, returnPayload: payload)
            case IMGTRACE_AGENT_LAUNCH_END.rawValue:
                launchEndMarked = true
                launchEndedAt = Self.nanoseconds(header)
                if let seconds = request.afterLaunch { StopSignals.armAfterLaunch(seconds) }
                lines.addLaunchEnd(seq: seq)
            default:
                if lines.label(of: tid) == nil { lines.setLabel(label(tid, shared: shared, ring: ring), of: tid) }
                var stack = ""
                if kind != IMGTRACE_AGENT_DECODE.rawValue {
                    hits += 1
                    if header.flags & UInt8(IMGTRACE_AGENT_TRUNCATED) != 0 { cutNames += 1 }
                    // A decode's frames would be read as the next request's: it keeps none.
                    if header.frames > 0 {
                        let framesAt = at + ((headerSize + Int(header.length) + 7) & ~7)
                        let frames = (0..<Int(header.frames)).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: framesAt + $0 * 8, as: UInt64.self)) }
                        stack = stackLines(frames, unreadable: header.flags & UInt8(IMGTRACE_AGENT_FRAMES_UNREADABLE) != 0)
                    }
                }
                lines.addRequest(header, payload: payload, seq: seq, ring: ring, tid: tid, stack: stack)
            }
        }

        /// Where each record of the rings' bytes lies (its ring, its offset), in the global order:
        /// sorting plain values moves no array (copying every name and stack into the batch cost a
        /// tenth of the writing). Threads fill their own rings: the sequence puts them back in order.
        private static func recordsInOrder(_ rings: [[UInt8]]) -> [(seq: UInt64, ring: Int32, at: Int32)] {
            var batch: [(seq: UInt64, ring: Int32, at: Int32)] = []
            let headerSize = MemoryLayout<imgtrace_agent_record>.size
            for (position, ring) in rings.enumerated() {
                ring.withUnsafeBytes { raw in
                    var at = 0
                    while at + headerSize <= ring.count {
                        var header = raw.loadUnaligned(fromByteOffset: at, as: imgtrace_agent_record.self)
                        // The drain copies only records of a size an agent writes.
                        let size = Int(withUnsafePointer(to: &header) { imgtrace_agent_record_size($0) })
                        guard size > 0, at + size <= ring.count else { break }
                        batch.append((header.seq, Int32(position), Int32(at)))
                        at += size
                    }
                }
            }
            // One thread's records are in order already: only several rings need sorting.
            if rings.count > 1 { batch.sort { $0.seq < $1.seq } }
            return batch
        }

        /// The frame lines under a request, as `record` writes them; `unreadable` when the walk
        /// stopped where a frame's unwind information pointed off the thread's stack.
        private func stackLines(_ frames: [UInt64], unreadable: Bool) -> String {
            var stack = frameLines(frames)
            if unreadable, !stack.isEmpty {
                stack +=
                    "\n" + HitLine.frame(index: frames.count, tail: HitLine.frameTail(address: 0, module: "?", function: "<unreadable: unwind information points off the stack>"))
            }
            return stack
        }

        /// The frame lines of a record's stack, named as `record` names them. A file from
        /// elsewhere (`agent-log`) has no process to name them by: it keeps none.
        private func frameLines(_ frames: [UInt64]) -> String {
            guard !fromFile, !frames.isEmpty else { return "" }
            if namer == nil { readLibraries() }
            // A library loaded since the last look (dlopen): read the maps again, once per address.
            if let namer, frames.contains(where: { namer.module(of: $0) == nil && unplacedAddresses.insert($0).inserted }) { readLibraries() }
            // Frames after the first are return addresses; a line names the call before it, as libdw's walks do.
            let callSites = frames.enumerated().map { $0.offset == 0 ? $0.element : $0.element &- 1 }
            return namer?.frameLines(programCounters: callSites) ?? ""
        }

        /// Reads each library the program maps now and was not read before, for its function
        /// starts and Objective-C methods, and keeps the maps: the frames of the program's last
        /// records are often named after it ended.
        func readLibraries() {
            let namer = self.namer ?? Unwinder(pid: pid)
            self.namer = namer
            guard !fromFile, let maps = readProcFile("/proc/\(pid)/maps").flatMap({ $0.isEmpty ? nil : $0 }) ?? collector?.lastMaps() ?? agentMaps()
            else {
                return
            }
            for (path, base) in MemoryMapping.loadBases(bytes: maps) where librariesRead.insert(path).inserted {
                guard let image = ElfImage.mapped(path) else { continue }
                namer.learn(image, bias: LibraryScanner.bias(of: image, load: .base(base)), names: true)
            }
            namer.maps = maps
        }

        /// The program's map as the agent copied it into the region (a program that ended
        /// before imgtrace read its map).
        private func agentMaps() -> [UInt8]? {
            guard let shared = region else { return nil }
            var length: UInt32 = 0
            let text = imgtrace_agent_maps(shared, &length)
            guard let text, length > 0 else { return nil }
            return text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
        }

        /// A record's time, checked: any seconds and nanoseconds a file holds give a time, none traps.
        static func time(_ record: imgtrace_agent_record) -> (seconds: Int, nanoseconds: Int) {
            // Up to the year 9999 (strftime's four digits); nanoseconds below a second.
            (Int(min(record.seconds, 253_402_300_799)), Int(record.nanoseconds % 1_000_000_000))
        }

        /// A record's time in nanoseconds since the epoch.
        static func nanoseconds(_ record: imgtrace_agent_record) -> Int {
            let time = time(record)
            // Int holds nanoseconds up to the year 2262.
            return min(time.seconds, Int.max / 1_000_000_000 - 1) * 1_000_000_000 + time.nanoseconds
        }

        /// As `record` (ptrace) names threads: the main thread by its name, others by name and id.
        private func label(_ tid: Int32, shared: UnsafeMutablePointer<imgtrace_agent_shared>, ring: Int) -> String {
            var name = fromFile ? "" : readProcFile("/proc/\(pid)/task/\(tid)/comm").map { String(decoding: $0, as: UTF8.self) } ?? ""
            if name.isEmpty {
                // The name the thread had when it claimed its ring (at most 27 bytes and a NUL).
                let thread = imgtrace_agent_ring_thread(shared, Int32(ring))!
                name = String(decoding: UnsafeRawBufferPointer(start: thread, count: strnlen(thread, 28)), as: UTF8.self)
            }
            name = name.trimmingCharacters(in: .whitespacesAndNewlines)
            return ThreadLabel.label(name: name, tid: tid, pid: pid)
        }

        func readNotes(_ shared: UnsafeMutablePointer<imgtrace_agent_shared>) -> [String] {
            let length = Int(imgtrace_agent_notes_length(shared))
            let text = String(decoding: UnsafeRawBufferPointer(start: imgtrace_agent_notes(shared), count: length), as: UTF8.self)
            return text.split(separator: "\n").map { SafeText.visible(String($0)) }
        }
    }
#endif
