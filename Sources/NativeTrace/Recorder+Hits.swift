#if os(Linux)
    import CPtrace
    import Foundation
    import ImgtraceSupport
    import LaunchTrace

    /// A hit at an image API: its name read, its stack walked, its line written or held until the frames are named.
    extension Recorder {
        func kind(ofOutermost api: String) -> String? {
            if let lastKind, lastKind.api == api { return lastKind.kind }
            let kind = LoadKind.of(outermostAPI: api)?.rawValue
            lastKind = (api, kind)
            return kind
        }

        func recordHit(_ tid: pid_t, _ regs: Registers, api: String, argument: Int, objc: Bool, kind: String?, memory: StopMemory) {
            let value = regs.argument(argument)
            let name = objc ? RemoteStrings.gnustepString(at: value, in: memory) : RemoteStrings.cString(at: value, in: memory)
            let bytes: [UInt8]?
            switch name {
            case .name(let text): bytes = text
            case .nilName: bytes = nil
            case .unknownClass(let cls):
                if unknownClasses.insert(cls).inserted {
                    PlatformIO.writeStandardError("imgtrace: warning: \(api): a name of class \(cls) has a layout imgtrace cannot read; recorded as nil\n")
                }
                bytes = nil
            case .unreadable:
                // Its address: the reader counts a hit that printed only an address, not a nil name.
                let line = HitLine.format(timestamp: clock.now(), thread: threadName(tid), api: api, unreadableAt: value, kind: kind)
                hits += 1
                emit(line, stack: stack(tid, regs, memory: memory))
                return
            }
            let line = HitLine.format(timestamp: clock.now(), thread: threadName(tid), api: api, name: bytes, kind: kind)
            hits += 1
            emit(line, stack: stack(tid, regs, memory: memory))
        }

        func stack(_ tid: pid_t, _ regs: Registers, memory: StopMemory) -> [UInt64] {
            guard let unwinder, request.backtrace > 0 else { return [] }
            return unwinder.programCounters(of: tid, registers: regs, memory: memory, limit: request.backtrace)
        }

        /// Writes a line, after the lines still waiting for their frames' names.
        func emit(_ line: String, stack: [UInt64] = []) {
            guard stack.isEmpty, unnamed.isEmpty else {
                unnamed.append((line, stack))
                // Bounded: a long recording is written in batches.
                if unnamed.count >= 1024 { nameFrames() }
                return
            }
            output(line)
        }

        /// Names the waiting hits' frames and writes them in order.
        func nameFrames() {
            for (line, stack) in unnamed {
                output(line)
                if let unwinder, !stack.isEmpty {
                    let frames = unwinder.frameLines(programCounters: stack)
                    if !frames.isEmpty { output(frames) }
                }
            }
            unnamed.removeAll()
        }

        private func threadName(_ tid: pid_t) -> String {
            if let lastThread, lastThread.tid == tid { return lastThread.label }
            let label = knownThreadName(tid)
            lastThread = (tid, label)
            return label
        }

        private func knownThreadName(_ tid: pid_t) -> String {
            if let known = threadNames[tid] { return known }
            var name = readProcFile("/proc/\(tracee.pid)/task/\(tid)/comm").map { String(decoding: $0, as: UTF8.self) } ?? ""
            name = name.trimmingCharacters(in: .whitespacesAndNewlines)
            let label = ThreadLabel.label(name: name, tid: tid, pid: tracee.pid)
            threadNames[tid] = label
            return label
        }
    }
#endif
