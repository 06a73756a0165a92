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
            // One buffer per range and no other allocation: this runs on every hit.
            let nameLength = name.map { $0 == 0 ? 0 : Int(min(256, 4096 - $0 % 4096)) } ?? 0
            var nameBytes = [UInt8](repeating: 0, count: nameLength)
            var stack = [UInt8](repeating: 0, count: stackBytes)
            let total: Int = stack.withUnsafeMutableBytes { stackBuffer in
                guard nameLength > 0, let name else { return cptrace_read(pid, stackPointer, stackBuffer.baseAddress, UInt(stackBytes)) }
                return nameBytes.withUnsafeMutableBytes { nameBuffer in
                    var addresses = (name, stackPointer)
                    var buffers = (nameBuffer.baseAddress, stackBuffer.baseAddress)
                    var lengths = (UInt(nameLength), UInt(stackBytes))
                    return withUnsafePointer(to: &addresses) { addressPointer in
                        withUnsafePointer(to: &buffers) { bufferPointer in
                            withUnsafePointer(to: &lengths) { lengthPointer in
                                addressPointer.withMemoryRebound(to: UInt64.self, capacity: 2) { addressList in
                                    bufferPointer.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 2) { bufferList in
                                        lengthPointer.withMemoryRebound(to: UInt.self, capacity: 2) { cptrace_readv(pid, addressList, bufferList, $0, 2) }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            // The bytes read fill the ranges in order, the name's first.
            var left = max(total, 0)
            func keep(_ address: UInt64, _ bytes: inout [UInt8]) {
                guard !bytes.isEmpty, left > 0 else { return }
                let got = min(left, bytes.count)
                if got < bytes.count { bytes.removeLast(bytes.count - got) }
                ranges.append((address, bytes))
                left -= got
            }
            keep(name ?? 0, &nameBytes)
            keep(stackPointer, &stack)
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
