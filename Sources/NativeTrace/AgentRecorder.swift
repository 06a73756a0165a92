#if os(Linux)
    import CAgentShared
    import Foundation
    import ImgtraceSupport
    import LaunchTrace

    /// `imgtrace record --agent`: starts the program with the in-process agent preloaded, drains
    /// the agent's rings of shared memory while the program runs, and writes the lines `record`
    /// writes. The program is never stopped: a request costs it a copy into its thread's ring.
    public final class AgentRecorder {
        /// What to run and what to wrap.
        public struct Request: Sendable {
            public var program: [String]
            public var objcMethods: [String]
            /// Methods that record nothing but give the requests inside them their kind.
            public var contexts: [String] = []
            /// Methods that decode an image object a lookup returned (`CaptureAPI.agentDecoders`).
            public var decoders: [String] = []
            public var symbols: [(name: String, argument: Int)]
            public var launchEnd: String?
            public var duration: Double?
            /// Stop this many seconds after the launch end (`--after-launch`).
            public var afterLaunch: Double?
            /// `libImgtraceAgent.so`.
            public var agentPath: String
            /// Whether programs the app starts load the agent too.
            public var children = false
            /// Stack frames each request keeps (`--backtrace`), unwound by the agent in the program.
            public var frames = 0

            public init(
                program: [String], objcMethods: [String], symbols: [(name: String, argument: Int)], launchEnd: String?, duration: Double?,
                agentPath: String
            ) {
                self.program = program
                self.objcMethods = objcMethods
                self.symbols = symbols
                self.launchEnd = launchEnd
                self.duration = duration
                self.agentPath = agentPath
            }
        }

        /// The most frames the agent keeps per request.
        public static let maxFrames = Int(IMGTRACE_AGENT_MAX_FRAMES)

        let request: Request
        /// Takes whole lines as bytes, each with its line break, a batch at a time (a line a
        /// request: no String between, no call per line).
        let emit: (UnsafeBufferPointer<UInt8>) -> Void
        /// The API of each index the agent writes: Objective-C methods, then symbols, then the launch end.
        private let apiNames: [String]
        /// The lines composed and not yet written.
        var lines: HeldLines
        var hits = 0
        /// Names longer than the agent's limit, recorded cut.
        var cutNames = 0
        var launchEndMarked = false
        var pid: pid_t = 0
        /// Read from a file (`agent-log`), perhaps from another machine: nothing is looked up in /proc.
        var fromFile = false
        /// When the program was started and when its launch ended (the marker's record), in ns.
        private var startedAt: Int?
        var launchEndedAt: Int?
        /// Names the frames the agent writes, from the libraries the program maps (each read once).
        var namer: Unwinder?
        var librariesRead = Set<String>()
        /// Copies the rings while the program runs (nil when reading a file).
        var collector: RingCollector?
        /// The region shared with the program while it is recorded.
        var region: UnsafeMutablePointer<imgtrace_agent_shared>?
        /// Addresses in no library known when met: the maps are read again once for each.
        var unplacedAddresses = Set<UInt64>()
        /// A recorder whose lines go to `output`, one String each, without its line break.
        public convenience init(_ request: Request, output: @escaping (String) -> Void) {
            self.init(
                request,
                lines: { bytes in
                    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() { output(String(decoding: line, as: UTF8.self)) }
                })
        }

        /// A recorder whose lines go to `lines` as bytes: whole lines, each ending with its line
        /// break, as many as are ready at a time.
        public init(_ request: Request, lines: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
            self.request = request
            emit = lines
            apiNames = request.objcMethods + request.symbols.map(\.name) + request.contexts + request.decoders + (request.launchEnd.map { [$0] } ?? [])
            self.lines = HeldLines(apiNames: apiNames, tracksImageObjects: !request.decoders.isEmpty)
        }

        func emit(_ text: String) { Array((text + "\n").utf8).withUnsafeBufferPointer { emit($0) } }

        /// The log of a file an agent wrote by itself (IMGTRACE_AGENT_FILE, for an app that ran
        /// without imgtrace beside it: a scheme's or `simctl`'s DYLD_INSERT_LIBRARIES). Its API
        /// list is read from the file; the end line says the program's end is unknown.
        /// A file in a shared folder may be anyone's: one another user owns is refused unless
        /// `trustOwner`. `warning` gets what the reader should know (the process that wrote it
        /// wrapped nothing).
        public static func log(
            fromFile path: String, trustOwner: Bool = false, warning: (String) -> Void = { _ in }, output: @escaping (String) -> Void
        ) throws -> RecordingEnd {
            var problem: Int32 = 0
            var owner: UInt32 = 0
            guard let shared = imgtrace_agent_open_file(path, &problem, &owner) else {
                switch Int(problem) {
                case Int(IMGTRACE_AGENT_FILE_UNOPENED): throw RecordError(description: "\(path): cannot read it: \(errnoText())")
                case Int(IMGTRACE_AGENT_FILE_SHAPE):
                    throw RecordError(description: "\(path): not a file the imgtrace agent wrote (IMGTRACE_AGENT_FILE): not a regular file of its size")
                case Int(IMGTRACE_AGENT_FILE_VERSION):
                    throw RecordError(
                        description:
                            "\(path): written by another version of the imgtrace agent (this imgtrace reads versions \(IMGTRACE_AGENT_OLDEST_VERSION) to \(IMGTRACE_AGENT_VERSION)); record it again"
                    )
                default: throw RecordError(description: "\(path): not a file the imgtrace agent wrote (IMGTRACE_AGENT_FILE): no agent header at offset 0")
                }
            }
            defer { munmap(shared, MemoryLayout<imgtrace_agent_shared>.size) }
            guard trustOwner || owner == getuid() else {
                throw RecordError(
                    description:
                        "\(path): owned by another user (uid \(owner)), not by you: anyone can leave a file in a shared folder; read it with --trust-owner if you know where it came from"
                )
            }
            if imgtrace_agent_patched(shared) == 0 {
                warning("\(path): the process that wrote it (pid \(imgtrace_agent_pid(shared))) wrapped none of the image APIs, so it recorded nothing")
            }
            // The list is the file's: bounded by its field, and each name one a log line can carry.
            let apis = imgtrace_agent_apis(shared)!
            let text = String(decoding: UnsafeRawBufferPointer(start: apis, count: strnlen(apis, Int(IMGTRACE_AGENT_NOTES_BYTES))), as: UTF8.self)
            var names: [String] = []
            var launchEnd: String?
            var decodes = false
            for entry in AgentAPIList.parse(text[...]).entries {
                let name = CaptureScript.unsafeSymbol(entry.apiName) != nil ? "api#\(names.count)" : entry.apiName
                names.append(name)
                if case .launchEnd = entry { launchEnd = name }
                if case .decode = entry { decodes = true }
            }
            let request = Request(program: [], objcMethods: names, symbols: [], launchEnd: nil, duration: nil, agentPath: "")
            let recorder = AgentRecorder(request, output: output)
            // The file may come from another machine: its pid and thread ids mean nothing here.
            recorder.fromFile = true
            recorder.lines.tracksImageObjects = decodes
            recorder.pid = imgtrace_agent_pid(shared)
            let collector = RingCollector(shared)
            collector.stop()
            recorder.write(collector.take(), shared, final: true)
            var end = RecordingEnd(
                hits: recorder.hits, launchEnd: launchEnd == nil ? .notWatched : (recorder.launchEndMarked ? .reached : .notReached),
                program: .other("unknown"), lost: Int(clamping: imgtrace_agent_lost(shared)))
            end.cutNames = recorder.cutNames
            output(end.text)
            return end
        }

        /// What the agent told: the APIs it could not wrap and why.
        public private(set) var notes: [String] = []

        /// The targets as the agent reads them from IMGTRACE_AGENT_APIS.
        var apiList: AgentAPIList {
            var entries = request.objcMethods.map(AgentAPIList.Entry.method)
            entries += request.symbols.map { .symbol($0.name, argument: $0.argument) }
            entries += request.contexts.map(AgentAPIList.Entry.context)
            entries += request.decoders.map(AgentAPIList.Entry.decode)
            // A method's first return ends the launch; a C function's too, wrapped through the GOT
            // like a symbol (so called from another module, as an app calls its toolkit).
            if let end = request.launchEnd { entries.append(.launchEnd(end)) }
            return AgentAPIList(entries)
        }

        /// Runs the program to its end (or `duration`, or SIGINT/SIGTERM to imgtrace), writes the
        /// log's last line and returns it.
        public func run() throws -> RecordingEnd {
            guard let path = request.program.first else { throw RecordError(description: "no program to run") }
            guard apiNames.count <= AgentAPIList.limit else {
                throw RecordError(description: "the agent wraps at most \(AgentAPIList.limit) APIs; \(apiNames.count) were asked for")
            }
            try Tracee.checkExecutable(path)
            guard FileManager.default.isReadableFile(atPath: request.agentPath) else {
                throw RecordError(
                    description: "\(request.agentPath): the agent library is missing (build it with `swift build --product ImgtraceAgent`)")
            }
            var created: UnsafeMutablePointer<imgtrace_agent_shared>?
            let fd = imgtrace_agent_region_create(&created)
            guard fd >= 0, let shared = created else { throw RecordError(description: "cannot create the agent's shared memory: \(errnoText())") }
            region = shared
            defer {
                region = nil
                close(fd)
                munmap(shared, MemoryLayout<imgtrace_agent_shared>.size)
            }
            StopSignals.install()
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            startedAt = now.tv_sec * 1_000_000_000 + now.tv_nsec
            pid = try spawn(path, fd: fd)
            // Where the program's life starts on the lines' clock: the launch end (launch-ms) is placed from it.
            emit("imgtrace-recording-start " + lines.format(seconds: now.tv_sec, nanoseconds: now.tv_nsec))
            if let duration = request.duration { StopSignals.arm(duration) }
            let collector = RingCollector(shared)
            collector.start(mapsOf: request.frames > 0 ? pid : nil)
            self.collector = collector
            let (programEnd, stopReason) = follow(shared, collector)
            collector.stop()
            write(collector.take(), shared, final: true)
            notes = readNotes(shared)
            if imgtrace_agent_ready(shared) == 0, hits == 0, imgtrace_agent_wrapped_nothing(shared) > 0 {
                throw RecordError(
                    description:
                        "\(path): the agent ran but the program has none of the \(apiNames.count) APIs asked for (check --symbol and --objc); "
                        + "the program \((stopReason ?? programEnd).sentence)"
                )
            }
            if imgtrace_agent_ready(shared) == 0, hits == 0 {
                throw RecordError(
                    description:
                        "\(path): the agent did not start in the program (a static or set-user-ID program ignores LD_PRELOAD); the program \((stopReason ?? programEnd).sentence)"
                )
            }
            var end = RecordingEnd(
                hits: hits, launchEnd: request.launchEnd == nil ? .notWatched : (launchEndMarked ? .reached : .notReached),
                program: stopReason ?? programEnd, lost: Int(clamping: imgtrace_agent_lost(shared)))
            if let startedAt, let launchEndedAt, launchEndedAt >= startedAt { end.launchMilliseconds = (launchEndedAt - startedAt) / 1_000_000 }
            end.cutNames = cutNames
            emit(end.text)
            return end
        }

        /// Writes the program's records as they come until it ends (or is stopped: `stopReason`).
        private func follow(
            _ shared: UnsafeMutablePointer<imgtrace_agent_shared>, _ collector: RingCollector
        ) -> (programEnd: RecordingEnd.ProgramEnd, stopReason: RecordingEnd.ProgramEnd?) {
            var nap: useconds_t = 50
            var programEnd: RecordingEnd.ProgramEnd?
            var stopReason: RecordingEnd.ProgramEnd?
            while programEnd == nil {
                if stopSignal != 0, stopReason == nil {
                    stopReason = StopSignals.reason(stopSignal)
                    kill(pid, SIGKILL)
                }
                var status: Int32 = 0
                let waited = waitpid(pid, &status, WNOHANG)
                if waited == pid {
                    programEnd = (status & 0x7F) == 0 ? .exited(Int((status >> 8) & 0xFF)) : .signaled(Int(status & 0x7F))
                } else if waited < 0 && errno != EINTR {
                    programEnd = .other("unknown")
                }
                // The libraries the program starts with, read while it runs (it may end before
                // its records are drained).
                if request.frames > 0, namer == nil, imgtrace_agent_ready(shared) != 0 { readLibraries() }
                // Write without a pause while records come; when none do, nap longer, up to 0.2 ms.
                var pending = collector.take()
                let written = write(pending, shared)
                collector.recycle(&pending)
                if written > 0 {
                    nap = 50
                } else if programEnd == nil {
                    usleep(nap)
                    nap = min(nap * 2, 200)
                }
            }
            return (programEnd ?? .other("unknown"), stopReason)
        }

        // MARK: Starting

        private func spawn(_ path: String, fd: Int32) throws -> pid_t {
            var environment = ProcessInfo.processInfo.environment
            let preload = environment["LD_PRELOAD"].map { request.agentPath + ":" + $0 } ?? request.agentPath
            environment["LD_PRELOAD"] = preload
            environment["IMGTRACE_AGENT_FD"] = String(fd)
            environment["IMGTRACE_AGENT_APIS"] = apiList.text()
            environment["IMGTRACE_AGENT_FRAMES"] = request.frames > 0 ? String(request.frames) : nil
            if request.children { environment["IMGTRACE_AGENT_CHILDREN"] = "1" } else { environment["IMGTRACE_AGENT_CHILDREN"] = nil }
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            let argv = request.program.map { strdup($0) } + [nil]
            defer {
                for pointer in envp { free(pointer) }
                for pointer in argv { free(pointer) }
            }
            var child: pid_t = 0
            let result = posix_spawn(&child, path, nil, nil, argv, envp)
            guard result == 0 else { throw RecordError(description: "\(path): cannot start the program: \(String(cString: strerror(result)))") }
            return child
        }
        // Draining the rings: AgentRecorder+Draining.swift.
    }
#endif
