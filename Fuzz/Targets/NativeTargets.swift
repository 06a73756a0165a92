#if os(Linux)
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
        ]
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
