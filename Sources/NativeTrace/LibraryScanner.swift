#if os(Linux)
    import ImgtraceSupport

    /// Finds what to break at in the files a program maps: the image APIs asked for, the launch
    /// end, and the dynamic linker's rendezvous (told of every later `dlopen`). Each file is read
    /// once, the first time it is seen mapped.
    struct LibraryScanner {
        let request: RecordRequest
        /// Files already read.
        private var seen = Set<String>()
        /// Where the targets were looked for, for the error when none is found.
        private(set) var searched: [String] = []
        /// Some image API was found.
        private(set) var foundAny = false

        init(_ request: RecordRequest) { self.request = request }

        /// The targets as the user named them.
        var targetsText: String { (request.objcMethods + request.symbols.map(\.name)).joined(separator: ", ") }

        /// A new program image (exec): every file is new again.
        mutating func reset() {
            seen.removeAll()
            rendezvousState = nil
            lastLinkMap = nil
        }

        /// Reads every file `pid` maps now that was not read before and sets its breakpoints;
        /// `unwinder` learns that the maps changed and, for `--backtrace`, the functions of each.
        mutating func scan(pid: pid_t, launchEndSeen: Bool, breakpoints: inout BreakpointSet, unwinder: inout Unwinder?) {
            guard let maps = readProcFile("/proc/\(pid)/maps") else { return }
            for (path, base) in MemoryMapping.loadBases(bytes: maps) {
                add(path, pid: pid, load: .base(base), launchEndSeen: launchEndSeen, breakpoints: &breakpoints, unwinder: &unwinder)
            }
            // The dynamic linker's list ends here now: later additions are read from it.
            lastLinkMap = linkMapEnd(pid: pid)
        }

        /// After the dynamic linker's list changed: the libraries appended since the last look,
        /// read from its list (`r_debug.r_map`, each `link_map`: load bias +0, path +8, next +24),
        /// not from the maps, which are the whole process again at every `dlopen` (Gridlock's
        /// ImageMagick loads 116 coders: reading and parsing the maps each time was most of what
        /// `record` added to its launch). A removal, or a list that cannot be read, is a full scan.
        mutating func scanAdded(pid: pid_t, launchEndSeen: Bool, breakpoints: inout BreakpointSet, unwinder: inout Unwinder?) {
            let memory = MemoryOf(pid: pid)
            guard !librariesRemoved, let last = lastLinkMap, var node = memory.word(at: last &+ 24) else {
                // After a removal another library may sit where libdw knew one.
                if librariesRemoved { unwinder?.librariesChanged() }
                librariesRemoved = false
                scan(pid: pid, launchEndSeen: launchEndSeen, breakpoints: &breakpoints, unwinder: &unwinder)
                return
            }
            var tail = last
            for _ in 0..<4096 where node != 0 {
                guard let fields = memory.read(node, count: 32) else { break }
                let bias = fields.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self) }
                let name = fields.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self) }
                if let bytes = memory.cString(at: name, limit: 4096), bytes.first == 0x2F {
                    add(String(decoding: bytes, as: UTF8.self), pid: pid, load: .bias(bias), launchEndSeen: launchEndSeen, breakpoints: &breakpoints, unwinder: &unwinder)
                }
                tail = node
                node = fields.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 24, as: UInt64.self) }
            }
            lastLinkMap = tail
        }

        /// The last `link_map` of the dynamic linker's list, or nil when there is none to read.
        private func linkMapEnd(pid: pid_t) -> UInt64? {
            guard let rendezvousState else { return nil }
            let memory = MemoryOf(pid: pid)
            // r_debug: version +0, r_map +8, r_brk +16, r_state +24.
            guard var node = memory.word(at: rendezvousState &- 16), node != 0 else { return nil }
            for _ in 0..<65536 {
                guard let next = memory.word(at: node &+ 24) else { return nil }
                if next == 0 { return node }
                node = next
            }
            return nil
        }

        /// Where a library is loaded: the start of its mapping at file offset 0, or its load bias.
        enum Load {
            case base(UInt64)
            case bias(UInt64)
        }

        /// Reads one library the first time it is seen and sets its breakpoints.
        private mutating func add(
            _ path: String, pid: pid_t, load: Load, launchEndSeen: Bool, breakpoints: inout BreakpointSet, unwinder: inout Unwinder?
        ) {
            guard seen.insert(path).inserted, let image = ElfImage.mapped(path) else { return }
            searched.append(PathText.lastComponent(path))
            let bias = Self.bias(of: image, load: load)
            // The unwinder judges extents too, so it exists without `--backtrace`; only the
            // frame lines need the names.
            if unwinder == nil { unwinder = Unwinder(pid: pid) }
            unwinder?.librariesAdded()
            unwinder?.learn(image, bias: bias, names: request.backtrace > 0)
            for symbol in request.symbols {
                for function in image.functions(named: symbol.name) {
                    foundAny = breakpoints.insert(function.value &+ bias, .hit(api: symbol.name, argument: symbol.argument, objc: false), in: pid) || foundAny
                }
            }
            // The launch end is looked for in the same pass over the metadata as the image APIs.
            let launchEndMethod = request.launchEnd.flatMap { !launchEndSeen && ObjCMethods.parse($0) != nil ? $0 : nil }
            let methods = ObjCMethods.find(request.objcMethods + request.contexts + [launchEndMethod].compactMap { $0 }, in: image)
            for method in request.objcMethods {
                guard let found = methods[method] else { continue }
                foundAny = breakpoints.insert(found &+ bias, .hit(api: method, argument: 3, objc: true), in: pid) || foundAny
            }
            for method in request.contexts {
                guard let found = methods[method] else { continue }
                breakpoints.insert(found &+ bias, .context(api: method), in: pid)
            }
            if let end = launchEndMethod {
                if let found = methods[end] { breakpoints.insert(found &+ bias, .launchEnd, in: pid) }
            } else if let end = request.launchEnd, !launchEndSeen {
                for function in image.functions(named: end) { breakpoints.insert(function.value &+ bias, .launchEnd, in: pid) }
            }
            // The dynamic linker calls `r_debug.r_brk` (the third word) after every change to the
            // loaded libraries; only one library (the dynamic linker) defines it.
            if rendezvousState == nil, let rDebug = image.symbols.first(where: { $0.name == "_r_debug" && $0.value != 0 }),
                let brk = MemoryOf(pid: pid).word(at: rDebug.value &+ bias &+ 16), brk != 0
            {
                breakpoints.insert(brk, .rendezvous, in: pid)
                rendezvousState = rDebug.value &+ bias &+ 24
            }
        }

        /// What to add to `image`'s addresses for their run-time addresses.
        static func bias(of image: ElfImage, load: Load) -> UInt64 {
            switch load {
            case .base(let base): return image.isPositionIndependent ? base &- (image.firstLoadAddress & ~0xFFF) : 0
            case .bias(let value): return image.isPositionIndependent ? value : 0
            }
        }

        /// Where the dynamic linker says whether its list of libraries is being changed
        /// (`r_debug.r_state`, after `r_brk`).
        private var rendezvousState: UInt64?
        /// The last node of the dynamic linker's list when it was last read.
        private var lastLinkMap: UInt64?
        /// A removal was announced (`RT_DELETE`): the node last looked at may be gone.
        private var librariesRemoved = false

        /// Whether the rendezvous stop of `pid` is the one after a change (`RT_CONSISTENT`): the
        /// dynamic linker also calls `r_brk` before each change (`RT_ADD`, `RT_DELETE`), when
        /// nothing new is mapped yet, and reading the maps then was a second scan per `dlopen`.
        mutating func librariesConsistent(pid: pid_t) -> Bool {
            guard let rendezvousState, let state = MemoryOf(pid: pid).word32(at: rendezvousState) else { return true }
            if state == 2 { librariesRemoved = true }  // RT_DELETE
            return state == 0
        }
    }
#endif
