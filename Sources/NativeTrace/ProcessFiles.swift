#if os(Linux)
    import CPtrace
    import Foundation

    /// A traced process's memory, read with `process_vm_readv`.
    struct MemoryOf: MemoryReading {
        var pid: pid_t
        func read(_ address: UInt64, count: Int) -> [UInt8]? {
            guard count > 0 else { return [] }
            var buffer = [UInt8](repeating: 0, count: count)
            let n = buffer.withUnsafeMutableBytes { cptrace_read(pid, address, $0.baseAddress, UInt(count)) }
            return n == count ? buffer : nil
        }
    }

    func errnoText() -> String { String(cString: strerror(errno)) }

    /// The largest file mapped into a program that is read as a library.
    package let maxLibraryBytes = 1 << 30

    /// The bytes of an ELF file, owned: a copy, or a file's private mapping, so a library of tens
    /// of MB costs the pages its headers, symbols and unwind tables are on, not a read and a
    /// copy of the whole file (that was most of `record`'s time at each library a launch maps).
    package final class LibraryBytes {
        let base: UnsafeMutableRawPointer
        let count: Int
        private let mapped: Bool

        init(copying input: [UInt8]) {
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, input.count), alignment: 16)
            input.withUnsafeBytes { if let source = $0.baseAddress { copy.copyMemory(from: source, byteCount: input.count) } }
            base = copy
            count = input.count
            mapped = false
        }

        private init(mapping: UnsafeMutableRawPointer, count: Int) {
            base = mapping
            self.count = count
            mapped = true
        }

        deinit {
            if mapped { munmap(base, count) } else { base.deallocate() }
        }

        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

        /// A file a program maps, when it is a regular ELF file of at most `maxLibraryBytes`: a
        /// program may map `/dev/zero`, a FIFO or a huge data file, and none of those is read past
        /// its first bytes. Mapped privately: libelf may write to its image, the file never changes.
        package static func map(_ path: String) -> LibraryBytes? {
            let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 64, info.st_size <= maxLibraryBytes else { return nil }
            var magic = [UInt8](repeating: 0, count: 4)
            guard magic.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 4, 0) }) == 4, magic == [0x7F, 0x45, 0x4C, 0x46] else { return nil }
            let size = Int(info.st_size)
            guard let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0), mapping != MAP_FAILED else { return nil }
            return LibraryBytes(mapping: mapping, count: size)
        }
    }

    /// The whole of a file, `/proc` files included (their size is not known in advance).
    func readProcFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return out
    }
#endif
