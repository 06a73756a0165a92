#if os(Linux)
    import CElfutils
    import CPtrace
    import ImgtraceSupport

    /// An ELF file read with libelf from bytes in memory: its load segments, symbols and dynamic
    /// relocations, and reads at the virtual addresses the loader gives it. A pure function of the
    /// bytes: nothing is mapped or run. Malformed input is a `FormatError` with the offset.
    public final class ElfImage {
        /// A symbol of `.dynsym` or `.symtab`.
        public struct Symbol: Equatable, Sendable {
            public var name: String
            /// The link-time address; add the load bias for the run-time one.
            public var value: UInt64
            public var size: UInt64
            public var isFunction: Bool
        }

        /// A `PT_LOAD` segment: which file bytes appear at which addresses.
        public struct Segment: Equatable, Sendable {
            public var address: UInt64
            public var memorySize: UInt64
            public var offset: UInt64
            public var fileSize: UInt64
            public var executable: Bool
        }

        public let path: String
        public private(set) var segments: [Segment] = []
        /// `.dynsym` first, then `.symtab` (absent from stripped libraries).
        public private(set) var symbols: [Symbol] = []
        /// Whether the file carries GCC Objective-C metadata (its modules register through `__objc_exec_class`).
        public private(set) var hasObjCMetadata = false
        /// `R_X86_64_RELATIVE` relocations of `.rela.dyn`: the pointer stored at `offset` (a link-time
        /// address) is `addend` plus the load bias. In a position-independent library every pointer
        /// in its data is one of these.
        public var relativePointers: RelativePointers {
            if let built = relativeCache { return built }
            var places: [UInt64] = [], targets: [UInt64] = []
            for (offset, count) in relaSections {
                places.reserveCapacity(places.count + count)
                targets.reserveCapacity(targets.count + count)
                for index in 0..<count {
                    let at = offset + index * 24
                    guard let place = try? reader.u64le(at), let info = try? reader.u64le(at + 8), let addend = try? reader.u64le(at + 16)
                    else { break }
                    if info & 0xFFFF_FFFF == UInt64(R_X86_64_RELATIVE) {
                        places.append(place)
                        targets.append(addend)
                    }
                }
            }
            let built = RelativePointers(places: places, targets: targets)
            relativeCache = built
            return built
        }
        /// Built on first use: only libraries with Objective-C metadata need it.
        private var relativeCache: RelativePointers?
        /// File offset and entry count of each `SHT_RELA` section (24-byte `Elf64_Rela` entries).
        private var relaSections: [(offset: Int, count: Int)] = []
        /// Where `.eh_frame_hdr` is (the `PT_GNU_EH_FRAME` segment): its address and file offset.
        private var frameIndex: (address: UInt64, offset: Int, size: Int)?
        /// Whether it is a shared object or position-independent executable (loaded with a bias).
        public private(set) var isPositionIndependent = false

        /// The file's bytes, owned here: libelf reads them in place.
        private let storage: LibraryBytes
        private var bytes: UnsafeRawBufferPointer { storage.bytes }
        private var reader: ByteReader { ByteReader(bytes) }

        /// Reads `bytes` (the whole file); `path` names it in errors.
        public convenience init(bytes input: [UInt8], path: String) throws {
            try self.init(storage: LibraryBytes(copying: input), path: path)
        }

        /// The library a program maps at `path`, read from the file's mapping (`LibraryBytes.map`);
        /// nil when it is no ELF file to read.
        package static func mapped(_ path: String) -> ElfImage? {
            guard let mapped = LibraryBytes.map(path) else { return nil }
            return try? ElfImage(storage: mapped, path: path)
        }

        private init(storage: LibraryBytes, path: String) throws {
            let input = storage.bytes
            guard input.count >= 64, input[0] == 0x7F, input[1] == 0x45, input[2] == 0x4C, input[3] == 0x46 else {
                throw FormatError(offset: 0, reason: "not an ELF file (no \\x7fELF magic)")
            }
            guard input[4] == 2, input[5] == 1 else {
                throw FormatError(offset: 4, reason: "not a 64-bit little-endian ELF file; the tracer reads x86-64 only")
            }
            self.path = path
            self.storage = storage
            _ = elf_version(UInt32(EV_CURRENT))
            let base = storage.base.assumingMemoryBound(to: CChar.self)
            guard let elf = elf_memory(base, input.count) else {
                throw FormatError(offset: 0, reason: "libelf cannot read it: \(String(cString: elf_errmsg(-1)))")
            }
            defer { elf_end(elf) }
            try readHeader(elf)
            try readSegments(elf)
            try readSections(elf)
        }

        // MARK: Reading with libelf

        private func readHeader(_ elf: OpaquePointer) throws {
            var header = GElf_Ehdr()
            guard gelf_getehdr(elf, &header) != nil else { throw FormatError(offset: 0, reason: "no ELF header") }
            guard header.e_machine == UInt16(EM_X86_64) else {
                throw FormatError(offset: 18, reason: "machine \(header.e_machine) is not x86-64")
            }
            isPositionIndependent = header.e_type == UInt16(ET_DYN)
        }

        private func readSegments(_ elf: OpaquePointer) throws {
            var count = 0
            guard elf_getphdrnum(elf, &count) == 0 else { throw FormatError(offset: 32, reason: "unreadable program headers") }
            for index in 0..<min(count, 4096) {
                var header = GElf_Phdr()
                guard gelf_getphdr(elf, Int32(index), &header) != nil else { continue }
                if header.p_type == UInt32(PT_GNU_EH_FRAME), header.p_offset <= UInt64(bytes.count),
                    header.p_filesz <= UInt64(bytes.count) - header.p_offset
                {
                    frameIndex = (header.p_vaddr, Int(header.p_offset), Int(header.p_filesz))
                }
                guard header.p_type == UInt32(PT_LOAD) else { continue }
                guard header.p_offset <= UInt64(bytes.count), header.p_filesz <= UInt64(bytes.count) - header.p_offset else {
                    throw FormatError(offset: Int(clamping: header.p_offset), reason: "a load segment runs past the end of the file")
                }
                // Every later address sum stays inside a segment: one that wraps past 2⁶⁴ is no segment.
                guard header.p_vaddr.checkedAdding(max(header.p_memsz, header.p_filesz)) != nil else {
                    throw FormatError(offset: Int(clamping: header.p_offset), reason: "a load segment wraps past the end of the address space")
                }
                segments.append(
                    Segment(
                        address: header.p_vaddr, memorySize: header.p_memsz, offset: header.p_offset,
                        fileSize: header.p_filesz, executable: header.p_flags & UInt32(PF_X) != 0))
            }
        }

        private func readSections(_ elf: OpaquePointer) throws {
            var stringsIndex = 0
            guard elf_getshdrstrndx(elf, &stringsIndex) == 0 else { throw FormatError(offset: 62, reason: "no section name table") }
            var dynamic: [Symbol] = [], table: [Symbol] = []
            var section = elf_nextscn(elf, nil)
            while let current = section {
                defer { section = elf_nextscn(elf, current) }
                var header = GElf_Shdr()
                guard gelf_getshdr(current, &header) != nil, let data = elf_getdata(current, nil) else { continue }
                switch header.sh_type {
                case UInt32(SHT_DYNSYM): dynamic = symbols(in: elf, data: data, header: header)
                case UInt32(SHT_SYMTAB): table = symbols(in: elf, data: data, header: header)
                case UInt32(SHT_RELA):
                    // Read straight from the bytes later (`relativePointers`), when and if needed.
                    if header.sh_entsize == 24, header.sh_offset <= UInt64(bytes.count), header.sh_size <= UInt64(bytes.count) - header.sh_offset {
                        relaSections.append((Int(header.sh_offset), Int(header.sh_size / 24)))
                    }
                default: break
                }
            }
            symbols = dynamic + table
            hasObjCMetadata = symbols.contains { $0.name == "__objc_exec_class" }
        }

        private func symbols(in elf: OpaquePointer, data: UnsafeMutablePointer<Elf_Data>, header: GElf_Shdr) -> [Symbol] {
            guard header.sh_entsize > 0 else { return [] }
            let count = Int(min(header.sh_size / header.sh_entsize, 1 << 24))
            var out: [Symbol] = []
            out.reserveCapacity(count)
            for index in 0..<count {
                var symbol = GElf_Sym()
                guard gelf_getsym(data, Int32(index), &symbol) != nil, symbol.st_name != 0,
                    let name = elf_strptr(elf, Int(header.sh_link), Int(symbol.st_name))
                else { continue }
                let type = Int32(symbol.st_info & 0xF)
                out.append(
                    Symbol(
                        name: String(cString: name), value: symbol.st_value, size: symbol.st_size,
                        isFunction: type == STT_FUNC || type == STT_GNU_IFUNC))
            }
            return out
        }

        // MARK: Addresses

        /// The first load segment's address: a library's load bias is where its file offset 0 is
        /// mapped minus this.
        public var firstLoadAddress: UInt64 { segments.first?.address ?? 0 }

        /// The function symbols with this name, `.dynsym` before `.symtab`.
        public func functions(named name: String) -> [Symbol] {
            symbols.filter { $0.isFunction && $0.value != 0 && $0.name == name }
        }

        /// The file offset that holds the byte at link-time address `address`, when a segment maps one.
        public func fileOffset(of address: UInt64) -> Int? {
            for segment in segments where address >= segment.address && address - segment.address < segment.fileSize {
                return Int(segment.offset + (address - segment.address))
            }
            return nil
        }

        /// Every link-time address holding this NUL-terminated string (with a NUL before it too,
        /// so `NSImage` never matches the tail of `GSNSImage`).
        public func addresses(ofString text: String) -> [UInt64] {
            let needle = [0] + [UInt8](text.utf8) + [0]
            var out: [UInt64] = []
            guard needle.count > 2, let base = bytes.baseAddress else { return out }
            for segment in segments where !segment.executable {
                let start = Int(segment.offset), end = Int(segment.offset + segment.fileSize)
                var at = start
                // memmem finds each candidate at C speed; the leading NUL rules out tails of longer names.
                while at < end, let found = needle.withUnsafeBytes({ cptrace_memmem(base + at, UInt(end - at), $0.baseAddress, UInt(needle.count)) }) {
                    let offset = UnsafeRawPointer(found) - base + 1
                    out.append(segment.address + UInt64(offset - start))
                    at = offset + needle.count - 1
                }
                // A name at the very start of a segment has no NUL before it.
                if end - start >= needle.count - 1, matches(Array(needle.dropFirst()), at: start) { out.append(segment.address) }
            }
            return out
        }

        private func matches(_ needle: [UInt8], at offset: Int) -> Bool {
            for i in 0..<needle.count where bytes[offset + i] != needle[i] { return false }
            return true
        }

        /// The 64-bit word at link-time address `address`; a relocated pointer reads as its target.
        public func word(at address: UInt64) -> UInt64? {
            if let target = relativePointers.target(of: address) { return target }
            return fileOffset(of: address).flatMap { try? reader.u64le($0) }
        }

        /// The start of every function the call-frame information covers (static functions too),
        /// sorted: the binary-search table of `.eh_frame_hdr`. Empty when the table is absent or
        /// encoded other than the usual way (`datarel|sdata4` entries, as GCC and Clang write them).
        public var functionStarts: [UInt64] {
            guard let index = frameIndex, index.size >= 12 else { return [] }
            let o = index.offset
            let version = bytes[o], pointerEncoding = bytes[o + 1], countEncoding = bytes[o + 2], tableEncoding = bytes[o + 3]
            // eh_frame_ptr: a 4-byte value (sdata4/udata4, any base); fde_count: udata4; table: datarel sdata4.
            guard version == 1, pointerEncoding & 0x0F == 0x0B || pointerEncoding & 0x0F == 0x03, countEncoding == 0x03, tableEncoding == 0x3B else {
                return []
            }
            guard let count = (try? reader.u32le(o + 8)).map(Int.init) else { return [] }
            guard count <= (index.size - 12) / 8 else { return [] }
            var starts: [UInt64] = []
            starts.reserveCapacity(count)
            for entry in 0..<count {
                guard let word = try? reader.u32le(o + 12 + entry * 8) else { break }
                let relative = Int32(bitPattern: word)
                starts.append(UInt64(bitPattern: Int64(bitPattern: index.address) &+ Int64(relative)))
            }
            return starts.sorted()
        }

        /// The 32-bit word at `address`.
        public func word32(at address: UInt64) -> UInt32? {
            fileOffset(of: address).flatMap { try? reader.u32le($0) }
        }

        /// The NUL-terminated string at `address`, at most `limit` bytes.
        public func string(at address: UInt64, limit: Int = 4096) -> String? {
            guard let offset = fileOffset(of: address) else { return nil }
            var end = offset
            while end < bytes.count, end - offset < limit, bytes[end] != 0 { end += 1 }
            guard end < bytes.count, bytes[end] == 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
        }
    }

    /// A library's relative relocations: the place of each pointer the loader fills and its
    /// link-time target, sorted by place. Linkers write them sorted already (`-z combreloc`), so
    /// this is a copy of the table, searched by halving: a hash table of a GUI library's tens of
    /// thousands of them cost `record` a third of each library scan while the program waited.
    public struct RelativePointers: Sequence {
        private let places: [UInt64]
        private let targets: [UInt64]

        init(places: [UInt64], targets: [UInt64]) {
            if zip(places, places.dropFirst()).allSatisfy({ $0 <= $1 }) {
                (self.places, self.targets) = (places, targets)
            } else {
                let order = places.indices.sorted { places[$0] < places[$1] || (places[$0] == places[$1] && $0 < $1) }
                (self.places, self.targets) = (order.map { places[$0] }, order.map { targets[$0] })
            }
        }

        public var isEmpty: Bool { places.isEmpty }

        /// The target of the pointer at `place` (the last relocation there, as the loader applies them).
        public func target(of place: UInt64) -> UInt64? {
            var low = 0, high = places.count
            while low < high {
                let middle = (low + high) / 2
                if places[middle] <= place { low = middle + 1 } else { high = middle }
            }
            return low > 0 && places[low - 1] == place ? targets[low - 1] : nil
        }

        public func makeIterator() -> Zip2Sequence<[UInt64], [UInt64]>.Iterator { zip(places, targets).makeIterator() }
    }
#endif
