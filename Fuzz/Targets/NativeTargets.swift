#if os(Linux)
    import CAgentShared
    import Foundation
    import NativeTrace
    import TestSupport

    /// Fuzz targets of the native tracer's readers (`imgtrace record`): a library's ELF file and
    /// Objective-C metadata, and a traced program's memory. Both hold whatever a hostile program
    /// put there, and a trap in the recorder would leave the program with breakpoint bytes.
    enum NativeTargets {
        static let all: [FuzzTarget] = [
            FuzzTarget(
                id: "elf", summary: "a library mapped by a traced program: ELF, symbols, GCC Objective-C metadata",
                run: { bytes in
                    guard let image = try? ElfImage(bytes: bytes, path: "fuzz.so") else { return }
                    _ = ObjCMethods.find(className: "NSImage", selector: "imageNamed:", classMethod: true, in: image)
                    _ = ObjCMethods.all(in: image)
                    _ = image.functions(named: "image_named")
                    _ = image.functionStarts
                }, seeds: NativeSeeds.libraries),
            FuzzTarget(
                id: "remotestrings", summary: "a traced program's memory holding a name: C strings and GNUstep NSString layouts",
                run: { bytes in
                    let memory = FuzzMemory(bytes)
                    _ = RemoteStrings.gnustepString(at: memory.pointer, in: memory)
                    _ = RemoteStrings.cString(at: memory.pointer, in: memory)
                }, seeds: NativeSeeds.memories),
            FuzzTarget(
                id: "agent-file", summary: "a file the in-process agent wrote (`agent-log`): header, API list, a ring of records",
                run: { bytes in
                    guard let path = AgentFileInput.write(bytes) else { return }
                    defer { unlink(path) }
                    _ = try? AgentRecorder.log(fromFile: path) { _ in }
                }, seeds: AgentFileInput.seeds),
        ]
    }

    /// An agent file made of fuzz bytes, sparse like the agent's: the input is `head` and `tail`
    /// (8 bytes each) of ring 0, the `lost` count (8), the API list's length (1) and text, and
    /// then the ring's bytes, written at `tail`. Everything else is the agent's valid header.
    enum AgentFileInput {
        private static let path = NSTemporaryDirectory() + "imgtrace-fuzz-\(getpid()).agent"
        private static let shared = MemoryLayout<imgtrace_agent_shared>.self
        private static let ring = MemoryLayout<imgtrace_agent_ring>.self

        static func write(_ input: [UInt8]) -> String? {
            guard input.count >= 25 else { return nil }
            func word(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(input[at + $1]) << (8 * UInt64($1)) } }
            let apiLength = min(Int(input[24]), input.count - 25)
            let apis = Array(input[25..<(25 + apiLength)])
            let records = Array(input[(25 + apiLength)...])
            let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { return nil }
            defer { close(fd) }
            guard ftruncate(fd, off_t(shared.size)) == 0 else { return nil }
            func write(_ bytes: [UInt8], at offset: Int) { _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) } }
            func put<T>(_ value: T, at offset: Int) { write(withUnsafeBytes(of: value) { Array($0) }, at: offset) }
            put(UInt64(IMGTRACE_AGENT_MAGIC), at: shared.offset(of: \.magic)!)
            put(UInt32(IMGTRACE_AGENT_VERSION), at: shared.offset(of: \.version)!)
            put(UInt32(1), at: shared.offset(of: \.ready)!)
            put(word(16), at: shared.offset(of: \.lost)!)
            put(Int32(1), at: shared.offset(of: \.pid)!)
            // `notes` and then `apis` follow the 64 status bytes (arrays this large are not imported).
            write(apis, at: shared.offset(of: \.api_status)! + 64 + Int(IMGTRACE_AGENT_NOTES_BYTES))
            let ring0 = shared.offset(of: \.rings)!
            let tail = word(8)
            put(word(0), at: ring0 + ring.offset(of: \.head)!)
            put(tail, at: ring0 + ring.offset(of: \.tail)!)
            put(Int32(4242), at: ring0 + ring.offset(of: \.tid)!)
            let start = Int(tail % UInt64(IMGTRACE_AGENT_RING_BYTES))
            let room = Int(IMGTRACE_AGENT_RING_BYTES) - start
            write(Array(records.prefix(room)), at: ring0 + ring.offset(of: \.thread)! + 28 + start)
            return path
        }

        /// Records as the agent writes them: a name, a launch end, a padding record.
        static func seeds() -> [(name: String, bytes: [UInt8])] {
            func word(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
            func record(
                seq: UInt64, api: UInt16, kind: UInt8, name: String, frames: UInt8 = 0, seconds: UInt64 = 1_764_000_000,
                nanoseconds: [UInt8] = [0x40, 0x4B, 0x4C, 0], payload: [UInt8]? = nil
            ) -> [UInt8] {
                let text = payload ?? Array(name.utf8)
                var bytes = word(seq) + word(seconds) + nanoseconds + [UInt8(api & 0xFF), UInt8(api >> 8), kind, 0]
                bytes += [UInt8(text.count), 0, 0, 0] + [0xFF, 0xFF, frames, 0] + text
                while bytes.count % 8 != 0 { bytes.append(0) }
                for frame in 0..<UInt64(frames) { bytes += word(0x5555_5555_0000 + frame * 0x10) }
                return bytes
            }
            let apis = Array("objc +[NSImage imageNamed:]\nend -[NSApplication finishLaunching]\nsymbol image_named 0\n".utf8)
            let body =
                record(seq: 0, api: 0, kind: 0, name: "AppIcon", frames: 3) + record(seq: 1, api: 2, kind: 0, name: "tab_home")
                + record(seq: 2, api: 1, kind: 3, name: "")
            func file(head: UInt64, tail: UInt64, lost: UInt64, records: [UInt8], apiList: [UInt8] = apis) -> [UInt8] {
                word(head) + word(tail) + word(lost) + [UInt8(apiList.count)] + apiList + records
            }
            // Issue 40's hostile shapes: a time at the top of its range, a blank API line, an API name
            // that would forge a log line's quoted name.
            let late = record(seq: 0, api: 0, kind: 0, name: "late", seconds: 1 << 63, nanoseconds: [0xFF, 0xFF, 0xFF, 0xFF])
            let blankLine = Array("   \nobjc +[NSImage imageNamed:]\n".utf8)
            let forged = Array("objc +[NSImage imageNamed:]: \"FORGED\": \"real\"\n".utf8)
            // Issue 43's returns: one that times its request, one naming another, one of 2^64 − 1 ns.
            let returned = UInt8(IMGTRACE_AGENT_RETURN.rawValue)
            let timed =
                record(seq: 0, api: 0, kind: 0, name: "hero")
                + record(seq: 1, api: 0, kind: returned, name: "", payload: word(0) + word(20_257_000) + word(0x5555_0000) + word(1_000_000))
                + record(seq: 2, api: 0, kind: 0, name: "star") + record(seq: 3, api: 0, kind: returned, name: "", payload: word(9) + word(1) + word(0) + word(0))
                + record(seq: 4, api: 0, kind: 0, name: "moon") + record(seq: 5, api: 0, kind: returned, name: "", payload: word(4) + word(.max) + word(0x5555_0000) + word(.max))
            // Decodes: of the object hero's lookup returned, timed; and one of a short payload.
            let decode = UInt8(IMGTRACE_AGENT_DECODE.rawValue)
            let decodes =
                timed + record(seq: 6, api: 1, kind: decode, name: "", payload: word(0x5555_0000))
                + record(seq: 7, api: 1, kind: returned, name: "", payload: word(6) + word(624_000) + word(1) + word(0))
                + record(seq: 8, api: 1, kind: decode, name: "", payload: [1, 2, 3])
            return [
                ("decodes", file(head: UInt64(decodes.count), tail: 0, lost: 0, records: decodes)),
                ("timed-requests", file(head: UInt64(timed.count), tail: 0, lost: 0, records: timed)),
                ("three-records", file(head: UInt64(body.count), tail: 0, lost: 0, records: body)),
                ("lost-all", file(head: UInt64(body.count), tail: 0, lost: .max, records: body)),
                ("head-near-the-top", file(head: .max - 7, tail: 0, lost: 0, records: record(seq: 0, api: 0, kind: 4, name: ""))),
                ("wrapped", file(head: UInt64(IMGTRACE_AGENT_RING_BYTES) + 64, tail: UInt64(IMGTRACE_AGENT_RING_BYTES) - 16, lost: 0, records: body)),
                ("time-at-the-top", file(head: UInt64(late.count), tail: 0, lost: 0, records: late)),
                ("blank-api-line", file(head: UInt64(body.count), tail: 0, lost: 0, records: body, apiList: blankLine)),
                ("forged-api-name", file(head: UInt64(body.count), tail: 0, lost: 0, records: body, apiList: forged)),
            ]
        }
    }

    /// Process memory made of fuzz bytes: the input is mapped twice, at `base` and at the very
    /// top of the address space (where sums wrap), and its first word is the name argument.
    struct FuzzMemory: MemoryReading {
        static let base: UInt64 = 0x10000
        let bytes: [UInt8]
        let top: UInt64

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            top = UInt64.max - UInt64(max(bytes.count, 1)) + 1
        }

        var pointer: UInt64 {
            guard bytes.count >= 8 else { return 0 }
            return (0..<8).reduce(0) { $0 | UInt64(bytes[$1]) << (8 * UInt64($1)) }
        }

        func read(_ address: UInt64, count: Int) -> [UInt8]? {
            guard count >= 0, !bytes.isEmpty else { return nil }
            for start in [Self.base, top] where address >= start {
                let offset = address - start
                guard offset <= UInt64(bytes.count), UInt64(count) <= UInt64(bytes.count) - offset else { continue }
                return Array(bytes[Int(offset)..<(Int(offset) + count)])
            }
            return nil
        }
    }

    enum NativeSeeds {
        static func libraries() -> [(name: String, bytes: [UInt8])] {
            [
                ("objc-library", ElfWriter.objcLibrary()),
                ("method-list-at-the-top", ElfWriter.objcLibrary(methodList: 0xFFFF_FFFF_FFFF_FFF9)),
                ("implementation-at-the-top", ElfWriter.objcLibrary(implementation: 0xFFFF_FFFF_FFFF_FFF0)),
                ("long-names", ElfWriter.objcLibrary(className: String(repeating: "C", count: 300), selector: String(repeating: "s:", count: 200))),
            ]
        }

        /// Memory images: the pointer word, then objects and classes laid out as the GCC runtime does.
        static func memories() -> [(name: String, bytes: [UInt8])] {
            func word(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
            let base = FuzzMemory.base
            // pointer → object at +0x10 {isa → class at +0x40, contents → +0x80, count 4}; class name → +0x60.
            var constant = word(base + 0x10) + [UInt8](repeating: 0, count: 0x98)
            constant.replaceSubrange(0x10..<0x18, with: word(base + 0x40))
            constant.replaceSubrange(0x18..<0x20, with: word(base + 0x80))
            constant.replaceSubrange(0x20..<0x24, with: [4, 0, 0, 0])
            constant.replaceSubrange(0x50..<0x58, with: word(base + 0x60))
            constant.replaceSubrange(0x60..<0x71, with: Array("NSConstantString\0".utf8))
            constant.replaceSubrange(0x80..<0x84, with: Array("hero".utf8))
            var wide = constant
            wide.replaceSubrange(0x60..<0x69, with: Array("GSString\0".utf8))
            wide.replaceSubrange(0x24..<0x28, with: [1, 0, 0, 0])
            var wild = constant
            wild.replaceSubrange(0x10..<0x18, with: word(0xFFFF_FFFF_FFFF_FFF8))
            return [
                ("constant-string", constant), ("wide-string", wide), ("wild-class", wild),
                ("c-string", word(base + 8) + Array("AppIcon\0".utf8)), ("at-the-top", word(UInt64.max - 15) + Array("top".utf8)),
            ]
        }
    }
#endif
