#if os(Linux)
    import CPtrace

    /// A stopped thread's memory as one stop reads it: the pages a hit needs first (the name's and
    /// the stack from the stack pointer up) fetched by one `process_vm_readv`, every other read
    /// passed through. A ptrace stop costs a few system calls; each saved one is a share of the
    /// cost of a hit.
    struct StopMemory: MemoryReading {
        let pid: pid_t
        private var ranges: [(address: UInt64, bytes: [UInt8])] = []

        /// Fetches up to 256 bytes of `name` (to its page's end), then `stackBytes` of the stack
        /// from `stackPointer`; what is not there is read when asked for, one by one.
        init(pid: pid_t, name: UInt64?, stackPointer: UInt64, stackBytes: Int) {
            self.pid = pid
            var addresses: [UInt64] = [], lengths: [UInt] = []
            if let name, name != 0 {
                addresses.append(name)
                lengths.append(UInt(min(256, 4096 - name % 4096)))
            }
            addresses.append(stackPointer)
            lengths.append(UInt(stackBytes))
            var first = [UInt8](repeating: 0, count: Int(lengths[0]))
            var second = [UInt8](repeating: 0, count: lengths.count == 2 ? Int(lengths[1]) : 0)
            let total: Int = first.withUnsafeMutableBytes { firstBytes in
                guard lengths.count == 2 else { return cptrace_read(pid, addresses[0], firstBytes.baseAddress, lengths[0]) }
                return second.withUnsafeMutableBytes { secondBytes in
                    let pointers: [UnsafeMutableRawPointer?] = [firstBytes.baseAddress, secondBytes.baseAddress]
                    return pointers.withUnsafeBufferPointer { cptrace_readv(pid, addresses, $0.baseAddress, lengths, 2) }
                }
            }
            var left = max(total, 0)
            for (index, buffer) in [first, second].prefix(lengths.count).enumerated() where left > 0 {
                let got = min(left, Int(lengths[index]))
                ranges.append((addresses[index], Array(buffer[..<got])))
                left -= got
            }
        }

        /// From the fetched bytes when the string ends in them; else page by page.
        func cString(at address: UInt64, limit: Int) -> [UInt8]? {
            for range in ranges where address >= range.address && address - range.address < UInt64(range.bytes.count) {
                let start = Int(address - range.address)
                let end = min(range.bytes.count, start + limit)
                if let nul = range.bytes[start..<end].firstIndex(of: 0) { return Array(range.bytes[start..<nul]) }
                if end - start == limit { return Array(range.bytes[start..<end]) }
            }
            return pagedCString(at: address, limit: limit)
        }

        func loadWord(_ address: UInt64) -> UInt64? {
            for range in ranges where address >= range.address && address - range.address <= UInt64(range.bytes.count) {
                let start = Int(address - range.address)
                if range.bytes.count - start >= 8 {
                    return range.bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: UInt64.self)) }
                }
            }
            return MemoryOf(pid: pid).loadWord(address)
        }

        func read(_ address: UInt64, count: Int) -> [UInt8]? {
            for range in ranges where address >= range.address && address - range.address <= UInt64(range.bytes.count) {
                let start = Int(address - range.address)
                if range.bytes.count - start >= count { return Array(range.bytes[start..<(start + count)]) }
            }
            return MemoryOf(pid: pid).read(address, count: count)
        }
    }
#endif
