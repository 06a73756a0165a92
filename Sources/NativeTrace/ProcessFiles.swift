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

    /// The bytes of a file a program maps, when it is a regular ELF file of at most
    /// `maxLibraryBytes`: a program may map `/dev/zero`, a FIFO or a huge data file, and none of
    /// those is read past its first bytes.
    package func readMappedLibrary(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= 64, info.st_size <= maxLibraryBytes else { return nil }
        var magic = [UInt8](repeating: 0, count: 4)
        guard magic.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 4, 0) }) == 4, magic == [0x7F, 0x45, 0x4C, 0x46] else { return nil }
        let size = Int(info.st_size)
        // Filled by the reads, not zeroed first: a launch reads a hundred libraries, some of
        // tens of MB, and zeroing them cost as much as reading them.
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            while done < size {
                let n = pread(fd, buffer.baseAddress! + done, size - done, off_t(done))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
            // Whatever a short read left is zeroed, so no byte of the array is uninitialized.
            if done < size { (buffer.baseAddress! + done).initialize(repeating: 0, count: size - done) }
            count = size
        }
        return done == size ? bytes : nil
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
