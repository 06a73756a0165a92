#if os(Linux)
    import CAgentShared
    import Foundation

    /// Copies the agent's rings into memory on a thread of its own. A program's burst of requests
    /// then waits for a memcpy only: naming frames and formatting lines (and reading the
    /// program's libraries, first) run on the recorder's thread meanwhile, and a ring that
    /// filled while they ran would lose records.
    final class RingCollector: @unchecked Sendable {
        /// Records copied and not yet taken: per ring, its thread and its bytes (whole records).
        typealias Pending = [Int: (tid: Int32, bytes: [UInt8])]

        private let shared: UnsafeMutablePointer<imgtrace_agent_shared>
        private let lock = NSLock()
        private var pending: Pending = [:]
        private var pendingBytes = 0
        private var stopping = false
        private let finished = DispatchSemaphore(value: 0)
        private var running = false
        private var buffer = [UInt8](repeating: 0, count: Int(IMGTRACE_AGENT_RING_BYTES))
        /// Past this backlog the collector waits for the recorder (the rings hold what comes meanwhile).
        private static let mostPendingBytes = 256 << 20

        /// The program's memory map as last read while it ran (frames are named after it ends).
        private var maps: [UInt8]?
        private var mapsReadAt: UInt64 = 0
        /// While records come, the map is read again this often (a library loaded meanwhile).
        private static let mapsInterval: UInt64 = 5_000_000

        init(_ shared: UnsafeMutablePointer<imgtrace_agent_shared>) { self.shared = shared }

        /// Starts copying on a thread of its own until `stop`; with `mapsOf`, also reads that
        /// process's memory map as soon as the agent is ready and again while records come, so
        /// a program that ends at once still has its libraries known.
        func start(mapsOf pid: pid_t? = nil) {
            running = true
            let thread = Thread { [self] in
                var nap: useconds_t = 20
                var ready = false
                while !lock.withLock({ stopping }) {
                    if let pid, !ready, imgtrace_agent_ready(shared) != 0 {
                        ready = true
                        readMaps(pid)
                    }
                    if collect() > 0 {
                        nap = 20
                        if let pid, ready, monotonicNanoseconds() - lock.withLock({ mapsReadAt }) > Self.mapsInterval { readMaps(pid) }
                    } else if pid != nil, !ready {
                        usleep(50)  // the agent's start is near: a short program may end soon after
                    } else {
                        usleep(nap)
                        nap = min(nap * 2, 200)
                    }
                }
                finished.signal()
            }
            thread.start()
        }

        /// The program's memory map as last read, if it was.
        func lastMaps() -> [UInt8]? { lock.withLock { maps } }

        private func readMaps(_ pid: pid_t) {
            guard let read = readProcFile("/proc/\(pid)/maps"), !read.isEmpty else { return }
            let now = monotonicNanoseconds()
            lock.withLock {
                maps = read
                mapsReadAt = now
            }
        }

        private func monotonicNanoseconds() -> UInt64 {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        }

        /// Stops the thread (if started) and copies what the rings still hold.
        func stop() {
            if running {
                lock.withLock { stopping = true }
                finished.wait()
                running = false
            }
            _ = collect()
        }

        /// Each ring's buffer once the recorder has written it, empty with its capacity kept:
        /// a fresh buffer for every batch cost a page fault per 4 KiB copied.
        private var spare: [Int: [UInt8]] = [:]

        /// Gives back what `take` handed out, once written: its buffers are filled again.
        func recycle(_ written: inout Pending) {
            // Taken out of the batch, each buffer is held once: emptied in place, not copied.
            for index in Array(written.keys) {
                guard var bytes = written.removeValue(forKey: index)?.bytes else { continue }
                bytes.removeAll(keepingCapacity: true)
                lock.withLock { if spare[index] == nil { spare[index] = bytes } }
            }
        }

        /// What was copied since the last call.
        func take() -> Pending {
            lock.withLock {
                defer {
                    pending = [:]
                    pendingBytes = 0
                }
                return pending
            }
        }

        /// Copies what every ring holds; returns the bytes copied.
        @discardableResult
        func collect() -> Int {
            if lock.withLock({ pendingBytes >= Self.mostPendingBytes }) { return 0 }
            var copied = 0
            for index in 0..<Int32(IMGTRACE_AGENT_RINGS) {
                var tid: Int32 = 0
                let bytes = Int(buffer.withUnsafeMutableBufferPointer { imgtrace_agent_drain(shared, index, $0.baseAddress, $0.count, &tid) })
                if tid == 0 { break }  // rings are claimed in order: the rest are unclaimed
                guard bytes > 0 else { continue }
                lock.withLock {
                    if pending[Int(index)] == nil { pending[Int(index)] = (tid, spare.removeValue(forKey: Int(index)) ?? []) }
                    pending[Int(index)]!.bytes.append(contentsOf: buffer[..<bytes])
                    pendingBytes += bytes
                }
                copied += bytes
            }
            return copied
        }
    }
#endif
