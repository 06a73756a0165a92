#if os(Linux)
    import CPtrace

    /// A stopped thread's memory as one stop reads it: the pages a hit needs first (the name's and
    /// the stack from the stack pointer up) fetched by one `process_vm_readv`, every other read
    /// passed through. A ptrace stop costs a few system calls; each saved one is a share of the
    /// cost of a hit.
    struct StopMemory: MemoryReading {
        let pid: pid_t
        /// The bytes fetched: the name's range, then the stack's, in one buffer (one allocation a hit).
        private var fetched: [UInt8] = []
        private var ranges: (name: FetchedRange, stack: FetchedRange) = (.init(), .init())

        /// Where a fetched range starts in memory and in `fetched`.
        private struct FetchedRange {
            var address: UInt64 = 0
            var offset = 0
            var count = 0
        }

        /// Fetches up to 256 bytes of `name` (to its page's end), then `stackBytes` of the stack
        /// from `stackPointer`; what is not there is read when asked for, one by one.
        init(pid: pid_t, name: UInt64?, stackPointer: UInt64, stackBytes: Int) {
            self.pid = pid
            let nameLength = name.map { $0 == 0 ? 0 : Int(min(256, 4096 - $0 % 4096)) } ?? 0
            var buffer = [UInt8](repeating: 0, count: nameLength + stackBytes)
            let total: Int = buffer.withUnsafeMutableBytes { whole in
                let stackBuffer = whole.baseAddress! + nameLength
                guard nameLength > 0, let name else { return cptrace_read(pid, stackPointer, stackBuffer, UInt(stackBytes)) }
                var addresses = (name, stackPointer)
                var buffers = (whole.baseAddress, Optional(stackBuffer))
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
            // The bytes read fill the ranges in order, the name's first (a short read ends in it).
            let got = max(total, 0)
            if nameLength > 0, let name { ranges.name = FetchedRange(address: name, offset: 0, count: min(got, nameLength)) }
            let stackGot = nameLength > 0 ? max(0, got - nameLength) : got
            ranges.stack = FetchedRange(address: stackPointer, offset: nameLength, count: min(stackGot, stackBytes))
            fetched = buffer
        }

        /// The fetched range holding `address` with at least `count` bytes from it (0: any).
        private func range(holding address: UInt64, count: Int) -> FetchedRange? {
            func holds(_ range: FetchedRange) -> Bool {
                guard range.count > 0, address >= range.address else { return false }
                let start = address - range.address
                return start < UInt64(range.count) && range.count - Int(start) >= count
            }
            return holds(ranges.name) ? ranges.name : holds(ranges.stack) ? ranges.stack : nil
        }

        /// From the fetched bytes when the string ends in them; else page by page.
        func cString(at address: UInt64, limit: Int) -> [UInt8]? {
            if let range = range(holding: address, count: 1) {
                let start = range.offset + Int(address - range.address)
                let end = min(range.offset + range.count, start + limit)
                if let nul = fetched[start..<end].firstIndex(of: 0) { return Array(fetched[start..<nul]) }
                if end - start == limit { return Array(fetched[start..<end]) }
            }
            return pagedCString(at: address, limit: limit)
        }

        func loadWord(_ address: UInt64) -> UInt64? {
            if let range = range(holding: address, count: 8) {
                let start = range.offset + Int(address - range.address)
                return fetched.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: start, as: UInt64.self)) }
            }
            return MemoryOf(pid: pid).loadWord(address)
        }

        func read(_ address: UInt64, count: Int) -> [UInt8]? {
            if let range = range(holding: address, count: max(count, 1)) {
                let start = range.offset + Int(address - range.address)
                return Array(fetched[start..<(start + count)])
            }
            return MemoryOf(pid: pid).read(address, count: count)
        }
    }
#endif
