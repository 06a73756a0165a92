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
        mutating func reset() { seen.removeAll() }

        /// Reads every file `pid` maps now that was not read before and sets its breakpoints;
        /// `unwinder` learns that the maps changed and, for `--backtrace`, the functions of each.
        mutating func scan(pid: pid_t, launchEndSeen: Bool, breakpoints: inout BreakpointSet, unwinder: inout Unwinder?) {
            guard let maps = readProcFile("/proc/\(pid)/maps") else { return }
            for (path, base) in MemoryMapping.loadBases(MemoryMapping.parse(bytes: maps)) {
                guard seen.insert(path).inserted, let bytes = readMappedLibrary(path), let image = try? ElfImage(bytes: bytes, path: path) else { continue }
                searched.append(PathText.lastComponent(path))
                let bias = image.isPositionIndependent ? base &- (image.firstLoadAddress & ~0xFFF) : 0
                // The unwinder judges extents too, so it exists without `--backtrace`; only the
                // frame lines need the names.
                if unwinder == nil { unwinder = Unwinder(pid: pid) }
                unwinder?.librariesChanged()
                unwinder?.addFunctionStarts(image.functionStarts.map { $0 &+ bias })
                if request.backtrace > 0 { unwinder?.addMethods(ObjCMethods.all(in: image).map { ($0.implementation &+ bias, $0.name) }) }
                for symbol in request.symbols {
                    for function in image.functions(named: symbol.name) {
                        foundAny = breakpoints.insert(function.value &+ bias, .hit(api: symbol.name, argument: symbol.argument, objc: false), in: pid) || foundAny
                    }
                }
                let methods = ObjCMethods.find(request.objcMethods + request.contexts, in: image)
                for method in request.objcMethods {
                    guard let found = methods[method] else { continue }
                    foundAny = breakpoints.insert(found &+ bias, .hit(api: method, argument: 3, objc: true), in: pid) || foundAny
                }
                for method in request.contexts {
                    guard let found = methods[method] else { continue }
                    breakpoints.insert(found &+ bias, .context(api: method), in: pid)
                }
                if let end = request.launchEnd, !launchEndSeen {
                    if ObjCMethods.parse(end) != nil {
                        if let found = Self.method(end, in: image) { breakpoints.insert(found &+ bias, .launchEnd, in: pid) }
                    } else {
                        for function in image.functions(named: end) { breakpoints.insert(function.value &+ bias, .launchEnd, in: pid) }
                    }
                }
                // The dynamic linker calls `r_debug.r_brk` (the third word) after every change to the loaded libraries.
                if let rDebug = image.symbols.first(where: { $0.name == "_r_debug" && $0.value != 0 }),
                    let brk = MemoryOf(pid: pid).word(at: rDebug.value &+ bias &+ 16), brk != 0
                {
                    breakpoints.insert(brk, .rendezvous, in: pid)
                }
            }
        }

        /// The implementation address of `-[Class selector]` / `+[Class selector]` in `image`, unbiased.
        private static func method(_ name: String, in image: ElfImage) -> UInt64? {
            guard let parts = ObjCMethods.parse(name) else { return nil }
            return ObjCMethods.find(className: parts.className, selector: parts.selector, classMethod: parts.classMethod, in: image)?.implementation
        }
    }
#endif
