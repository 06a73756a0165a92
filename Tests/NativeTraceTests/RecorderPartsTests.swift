import Foundation
import ImgtraceSupport
import LaunchTrace
import NativeTrace
import TestSupport
import XCTest

/// The recorder's pure parts: the lines it writes (read back by `LaunchTrace`), the entry
/// instructions it carries out itself, `/proc/PID/maps`, and GNUstep strings in memory.
final class RecorderPartsTests: XCTestCase {
    // MARK: Hit lines

    func testEveryNameSurvivesTheLineAndTheReader() throws {
        var generator = SystemRandomNumberGenerator()
        var names: [[UInt8]?] = [
            nil, [], Array("AppIcon".utf8), Array("quote\"back\\slash".utf8), Array("new\nline\ttab\r".utf8),
            [0x62, 0x61, 0x64, 0xFF, 0xFE, 0x31, 0x32], Array("émoji 🙂 1f".utf8), [0x5C, 0x78, 0x34, 0x31],
            // What the output guard would otherwise rewrite: the runner's `##[`, C1, bidi, separators.
            Array("logo##[warning]x".utf8), Array("###".utf8), Array("c1\u{85}\u{9B}31m".utf8), Array("\u{202E}gnp\u{2066}".utf8),
            Array("ls\u{2028}ps\u{2029}".utf8), Array("  ::stop-commands::x".utf8),
        ]
        for _ in 0..<200 { names.append((0..<Int.random(in: 1...24, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }) }
        var log = ""
        for (i, name) in names.enumerated() {
            let thread = ["main", "worker ]7", "cr\r\nlf", "\u{1B}]0;t\u{07}"][i % 4]
            log += HitLine.format(timestamp: "2026-11-22 20:00:00.\(100 + i % 900)", thread: thread, api: "image_named", name: name) + "\n"
        }
        // The log goes out through the terminal guard (`record --pid` may print it): it must pass
        // unchanged, or a recorded name would be rewritten.
        XCTAssertEqual(ConsumerModels.rawControls(log), [])
        XCTAssertEqual(ConsumerModels.runnerCommands(log), [])
        var guardrail = OutputGuard(consumer: .terminal)
        var guarded: [UInt8] = []
        var text = log
        text.withUTF8 { guardrail.filter($0, into: &guarded) }
        guardrail.finish(into: &guarded)
        XCTAssertEqual(String(decoding: guarded, as: UTF8.self), log)
        var events: [ImageLoad] = []
        let bytes = Array(log.utf8)
        _ = try bytes.withUnsafeBytes { try TraceReader.read($0, options: TraceOptions()) { events.append($0) } }
        XCTAssertEqual(events.count, names.count)
        for (event, name) in zip(events, names) {
            switch name {
            case nil: XCTAssertEqual(event.status, .nil)
            case .some(let bytes) where bytes.isEmpty: XCTAssertEqual(event.status, .empty)
            case .some(let bytes):
                XCTAssertEqual(event.status, .ok)
                XCTAssertEqual(event.name, String(decoding: bytes, as: UTF8.self), "\(bytes)")
            }
            XCTAssertEqual(event.api, "image_named")
        }
    }

    // MARK: Entry instructions

    func testEntryInstructionsThatSetNoFlagsAreDecoded() {
        XCTAssertEqual(EntryInstruction.decode([0xF3, 0x0F, 0x1E, 0xFA, 0x55]), .skip(length: 4))
        XCTAssertEqual(EntryInstruction.decode([0x55, 0x48]), .push(register: 5, length: 1))
        XCTAssertEqual(EntryInstruction.decode([0x41, 0x57]), .push(register: 15, length: 2))
        XCTAssertEqual(EntryInstruction.decode([0x48, 0x89, 0xD0]), .move(destination: 0, source: 2, wide: true, length: 3))  // mov %rdx,%rax
        XCTAssertEqual(EntryInstruction.decode([0x49, 0x89, 0xFC]), .move(destination: 12, source: 7, wide: true, length: 3))  // mov %rdi,%r12
        XCTAssertEqual(EntryInstruction.decode([0x89, 0xF8]), .move(destination: 0, source: 7, wide: false, length: 2))  // mov %edi,%eax
        XCTAssertEqual(EntryInstruction.decode([0x48, 0x8B, 0xC7]), .move(destination: 0, source: 7, wide: true, length: 3))  // mov %rdi,%rax
        XCTAssertNil(EntryInstruction.decode([0x48, 0x83, 0xEC, 0x08]), "sub sets flags: single-stepped")
        XCTAssertNil(EntryInstruction.decode([0x48, 0x89, 0x7C, 0x24, 0x08]), "a store to memory is not emulated")
        XCTAssertNil(EntryInstruction.decode([]))
        XCTAssertNil(EntryInstruction.decode([0x48]))
    }

    // MARK: /proc/PID/maps

    func testMapsGiveEachFileItsLoadBase() {
        let maps = """
            55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 1234   /usr/bin/prog
            55d0c0a01000-55d0c0a02000 r-xp 00001000 08:01 1234   /usr/bin/prog
            7f0000000000-7f0000021000 rw-p 00000000 00:00 0
            7f1000000000-7f1000028000 r--p 00000000 08:01 99     /usr/lib/x86_64-linux-gnu/libc.so.6
            7f1000028000-7f10001bd000 r-xp 00028000 08:01 99     /usr/lib/x86_64-linux-gnu/libc.so.6
            7f2000000000-7f2000001000 r--p 00000000 08:01 7      /tmp/a file with spaces.so
            7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0      [stack]
            garbage line
            """
        let mappings = MemoryMapping.parse(maps)
        XCTAssertEqual(mappings.count, 7)
        XCTAssertTrue(mappings[1].executable)
        let bases = MemoryMapping.loadBases(mappings)
        XCTAssertEqual(bases.map(\.path), ["/usr/bin/prog", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/tmp/a file with spaces.so"])
        XCTAssertEqual(bases.map(\.base), [0x55d0_c0a0_0000, 0x7f10_0000_0000, 0x7f20_0000_0000])
    }

    // MARK: GNUstep strings

    /// Memory built in code: words at addresses, as the GCC runtime lays objects and classes out.
    private struct FakeMemory: MemoryReading {
        var bytes: [UInt64: UInt8] = [:]
        mutating func put(_ address: UInt64, _ data: [UInt8]) { for (i, b) in data.enumerated() { bytes[address + UInt64(i)] = b } }
        mutating func word(_ address: UInt64, _ value: UInt64) { put(address, (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }) }
        mutating func word32(_ address: UInt64, _ value: UInt32) { put(address, (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }) }
        mutating func cString(_ address: UInt64, _ text: String) { put(address, Array(text.utf8) + [0]) }
        func read(_ address: UInt64, count: Int) -> [UInt8]? {
            var out: [UInt8] = []
            for i in 0..<count {
                guard let b = bytes[address + UInt64(i)] else { return nil }
                out.append(b)
            }
            return out
        }
        /// A class at `at` named `name` whose superclass is `superclass`.
        mutating func makeClass(_ at: UInt64, _ name: String, superclass: UInt64) {
            word(at + 8, superclass)
            word(at + 16, at + 0x100)
            cString(at + 0x100, name)
        }
    }

    func testGNUstepStringLayoutsAreReadWithoutRunningCode() {
        var memory = FakeMemory()
        memory.makeClass(0x1000, "NSObject", superclass: 0)
        memory.makeClass(0x2000, "NSString", superclass: 0x1000)
        memory.makeClass(0x3000, "GSString", superclass: 0x2000)
        memory.makeClass(0x4000, "GSCInlineString", superclass: 0x3000)
        memory.makeClass(0x5000, "NSConstantString", superclass: 0x2000)
        memory.makeClass(0x6000, "GSUnicodeString", superclass: 0x3000)
        memory.makeClass(0x7000, "NSAttributedString", superclass: 0x1000)
        // An 8-bit GSString subclass.
        memory.word(0x10000, 0x4000)
        memory.word(0x10008, 0x10100)
        memory.word32(0x10010, 7)
        memory.word32(0x10014, 0)
        memory.put(0x10100, Array("AppIcon".utf8))
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0x10000, in: memory), .name(Array("AppIcon".utf8)))
        // A literal.
        memory.word(0x11000, 0x5000)
        memory.word(0x11008, 0x11100)
        memory.word32(0x11010, 4)
        memory.put(0x11100, Array("logo".utf8))
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0x11000, in: memory), .name(Array("logo".utf8)))
        // A wide string: UTF-16 with a surrogate pair.
        let units = Array("é🙂".utf16)
        memory.word(0x12000, 0x6000)
        memory.word(0x12008, 0x12100)
        memory.word32(0x12010, UInt32(units.count))
        memory.word32(0x12014, 1)
        memory.put(0x12100, units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0x12000, in: memory), .name(Array("é🙂".utf8)))
        // nil, an unknown class, and an object whose class cannot be read.
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0, in: memory), .nilName)
        memory.word(0x13000, 0x7000)
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0x13000, in: memory), .unknownClass("NSAttributedString"))
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0x99999, in: memory), .unreadable)
        // A count that claims more than memory holds.
        memory.word(0x14000, 0x4000)
        memory.word(0x14008, 0x10100)
        memory.word32(0x14010, 1 << 30)
        memory.word32(0x14014, 0)
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0x14000, in: memory), .unreadable)
        // A C string.
        memory.cString(0x15000, "image.png")
        XCTAssertEqual(RemoteStrings.cString(at: 0x15000, in: memory), .name(Array("image.png".utf8)))
        XCTAssertEqual(RemoteStrings.cString(at: 0, in: memory), .nilName)
    }

    /// Pointers at the top of the address space: every sum on them is checked, nothing traps.
    func testPointersThatWouldWrapReadAsUnreadable() {
        var memory = FakeMemory()
        memory.word(0x1000, 0xFFFF_FFFF_FFFF_FFF8)  // an object whose class pointer wraps
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0x1000, in: memory), .unreadable)
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0xFFFF_FFFF_FFFF_FFF9, in: memory), .unreadable)
        memory.makeClass(0x2000, "Odd", superclass: 0xFFFF_FFFF_FFFF_FFFC)
        memory.word(0x3000, 0x2000)
        XCTAssertEqual(RemoteStrings.gnustepString(at: 0x3000, in: memory), .unreadable)
        memory.put(0xFFFF_FFFF_FFFF_FFF0, Array("top of mem".utf8) + [0x41, 0x42, 0x43, 0x44, 0x45, 0x46])
        XCTAssertEqual(RemoteStrings.cString(at: 0xFFFF_FFFF_FFFF_FFF0, in: memory), .name(Array("top of memABCDEF".utf8)))
    }

    #if os(Linux)
        /// Only regular ELF files of a program's maps are read: never a device, a pipe, a data
        /// file or one beyond the size bound, and never more than their first bytes to find out.
        func testOnlyRegularELFFilesOfTheMapsAreRead() throws {
            XCTAssertNotNil(LibraryBytes.map("/bin/true"))
            XCTAssertNil(LibraryBytes.map("/dev/zero"))
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-maps-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let fifo = folder.appendingPathComponent("pipe").path
            XCTAssertEqual(mkfifo(fifo, 0o600), 0)
            XCTAssertNil(LibraryBytes.map(fifo), "a FIFO is neither opened for long nor read")
            for (name, size, elf) in [("data.bin", 600 << 20, false), ("huge.so", maxLibraryBytes + 1, true)] {
                let path = folder.appendingPathComponent(name).path
                let fd = open(path, O_CREAT | O_WRONLY, 0o600)
                if elf { _ = write(fd, [0x7F, 0x45, 0x4C, 0x46], 4) }
                XCTAssertEqual(ftruncate(fd, off_t(size)), 0)
                close(fd)
                XCTAssertNil(LibraryBytes.map(path), name)
            }
        }
    #endif
}
