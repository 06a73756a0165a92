#if os(Linux)
    import Foundation
    import ImgtraceSupport
    @testable import NativeTrace
    import TestSupport
    import XCTest

    /// The ELF side of the native tracer, without running anything: symbols of a program the test
    /// compiles, and Objective-C methods found through class metadata in Debian's stripped GNUstep.
    final class ElfImageTests: XCTestCase {
        private var work: URL!

        override func setUpWithError() throws {
            work = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-elf-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        }

        override func tearDownWithError() throws {
            if let work { try? FileManager.default.removeItem(at: work) }
        }

        /// Compiles `source` with the system C compiler; skips when there is none.
        private func compile(_ source: String, arguments: [String]) throws -> URL {
            do { return try CCompiler.compile(source, to: "program", in: work, flags: arguments) } catch let error as CCompiler.Unavailable { throw XCTSkip(error.description) }
        }

        /// What `nm` says a symbol's address is, the independent check.
        private func nmAddress(_ symbol: String, in binary: URL, dynamic: Bool) throws -> UInt64? {
            let nm = Process(), pipe = Pipe()
            nm.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            nm.arguments = ["nm"] + (dynamic ? ["-D"] : []) + [binary.path]
            nm.standardOutput = pipe
            do { try nm.run() } catch { throw XCTSkip("no nm: \(error)") }
            let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            nm.waitUntilExit()
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ")
                if parts.count == 3, parts[2] == symbol { return UInt64(parts[0], radix: 16) }
            }
            return nil
        }

        private let program = """
            #include <stdio.h>
            const char *image_named(void *cls, void *sel, const char *name) { return name; }
            static const char *hidden_loader(const char *name) { return name; }
            int main(int argc, char **argv) { puts(image_named(0, 0, hidden_loader(argc > 1 ? argv[1] : "x"))); return 0; }
            """

        func testFunctionsAreFoundWhereNmSaysInAProgramAndASharedLibrary() throws {
            let binary = try compile(program, arguments: ["-O0", "-fPIE", "-pie", "-rdynamic"])
            let image = try ElfImage(bytes: [UInt8](try Data(contentsOf: binary)), path: binary.path)
            XCTAssertTrue(image.isPositionIndependent)
            XCTAssertFalse(image.segments.isEmpty)
            let found = try XCTUnwrap(image.functions(named: "image_named").first)
            XCTAssertEqual(found.value, try nmAddress("image_named", in: binary, dynamic: false))
            // A static function is only in `.symtab`; a stripped copy loses it but keeps the export.
            XCTAssertEqual(image.functions(named: "hidden_loader").first?.value, try nmAddress("hidden_loader", in: binary, dynamic: false))
            let library = try compile(program.replacingOccurrences(of: "int main", with: "int not_main"), arguments: ["-O0", "-shared", "-fPIC", "-s"])
            let stripped = try ElfImage(bytes: [UInt8](try Data(contentsOf: library)), path: library.path)
            XCTAssertEqual(stripped.functions(named: "image_named").first?.value, try nmAddress("image_named", in: library, dynamic: true))
            XCTAssertTrue(stripped.functions(named: "hidden_loader").isEmpty)
            // The call-frame index lists every function, the static ones a stripped file has no symbol for.
            let starts = image.functionStarts
            XCTAssertTrue(starts.contains(found.value))
            XCTAssertTrue(starts.contains(try XCTUnwrap(image.functions(named: "hidden_loader").first).value))
            XCTAssertEqual(starts, starts.sorted())
            XCTAssertGreaterThanOrEqual(stripped.functionStarts.count, 3, "image_named, hidden_loader and not_main at least")
            XCTAssertFalse(stripped.relativePointers.isEmpty, "a PIC library relocates its pointers")
        }

        /// A table of string pointers in a position-independent library is relocated data: each
        /// entry reads as its string's address (the relocation's target), found by halving the
        /// sorted table. A table out of order is sorted, and of two relocations of one place the
        /// last counts, as the loader applies them.
        func testRelocatedPointersReadAsTheirTargets() throws {
            let source = """
                const char *const image_names[] = {"tab_home", "tab_search", "onboarding_step1", "AppIcon"};
                const char *image_name(int i) { return image_names[i]; }
                """
            let library = try compile(source, arguments: ["-O1", "-shared", "-fPIC", "-s"])
            let image = try ElfImage(bytes: [UInt8](try Data(contentsOf: library)), path: library.path)
            let table = try XCTUnwrap(image.symbols.first { $0.name == "image_names" }).value
            let names = (0..<4).map { index in image.word(at: table + UInt64(index) * 8).flatMap { image.string(at: $0) } }
            XCTAssertEqual(names, ["tab_home", "tab_search", "onboarding_step1", "AppIcon"])
            XCTAssertNil(image.relativePointers.target(of: table + 4), "no relocation in the middle of a pointer")

            let shuffled = RelativePointers(places: [0x30, 0x10, 0x20, 0x10], targets: [3, 1, 2, 9])
            XCTAssertEqual([0x10, 0x20, 0x30, 0x18, 0x40, 0].map { shuffled.target(of: $0) }, [9, 2, 3, nil, nil, nil])
            XCTAssertEqual(shuffled.map(\.0), [0x10, 0x10, 0x20, 0x30], "in the order of their places")
        }

        func testBytesThatAreNotX8664ELFAreFormatErrorsWithTheOffset() {
            XCTAssertThrowsError(try ElfImage(bytes: Array("#!/bin/sh\necho hi\n".utf8) + [UInt8](repeating: 0, count: 64), path: "script")) { error in
                XCTAssertEqual((error as? FormatError)?.offset, 0, "\(error)")
            }
            var header = [UInt8](repeating: 0, count: 64)
            header[0...3] = [0x7F, 0x45, 0x4C, 0x46]
            header[4] = 1  // 32-bit
            header[5] = 1
            XCTAssertThrowsError(try ElfImage(bytes: header, path: "elf32")) { error in
                XCTAssertEqual((error as? FormatError)?.offset, 4, "\(error)")
            }
            // A 64-bit header whose program headers point past the end.
            header[4] = 2
            header[16] = 3  // ET_DYN
            header[18] = 62  // EM_X86_64
            header[20] = 1  // version
            header[32] = 0xF0  // e_phoff far away
            header[33] = 0xFF
            header[54] = 56  // e_phentsize
            header[56] = 4  // e_phnum
            header[52] = 64  // e_ehsize
            XCTAssertThrowsError(try ElfImage(bytes: header, path: "truncated"))
        }

        func testSelectorsParse() {
            XCTAssertEqual(ObjCMethods.parse("+[NSImage imageNamed:]")?.className, "NSImage")
            XCTAssertEqual(ObjCMethods.parse("-[NSApplication finishLaunching]")?.classMethod, false)
            XCTAssertNil(ObjCMethods.parse("image_named"))
            XCTAssertNil(ObjCMethods.parse("+[NSImage]"))
        }

        /// Metadata built in code: the method is found through its relocated pointers, and a
        /// method list or an implementation at the top of the address space is never summed past it.
        func testMetadataBuiltInCodeIsFoundAndHostilePointersDoNotTrap() throws {
            let image = try ElfImage(bytes: ElfWriter.objcLibrary(implementation: 0x1234), path: "built.so")
            XCTAssertEqual(ObjCMethods.find(className: "NSImage", selector: "imageNamed:", classMethod: true, in: image)?.implementation, 0x1234)
            XCTAssertNil(ObjCMethods.find(className: "NSImage", selector: "imageNamed:", classMethod: false, in: image), "a class method only")
            let wrapping = try ElfImage(bytes: ElfWriter.objcLibrary(methodList: 0xFFFF_FFFF_FFFF_FFF9), path: "wrapping.so")
            XCTAssertNil(ObjCMethods.find(className: "NSImage", selector: "imageNamed:", classMethod: true, in: wrapping))
            XCTAssertEqual(ObjCMethods.all(in: wrapping), [])
            let top = try ElfImage(bytes: ElfWriter.objcLibrary(implementation: 0xFFFF_FFFF_FFFF_FFF0), path: "top.so")
            XCTAssertEqual(ObjCMethods.find(className: "NSImage", selector: "imageNamed:", classMethod: true, in: top)?.implementation, 0xFFFF_FFFF_FFFF_FFF0)
        }

        /// Debian's `libgnustep-gui` is stripped: `+[NSImage imageNamed:]` has no symbol, only metadata.
        func testAStaticObjectiveCMethodIsFoundInStrippedGNUstep() throws {
            let path = "/usr/lib/x86_64-linux-gnu/libgnustep-gui.so.0.29"
            let alternative = "/lib/libgnustep-gui.so.0.29"
            guard let data = FileManager.default.contents(atPath: path) ?? FileManager.default.contents(atPath: alternative) else {
                throw XCTSkip("libgnustep-gui.so.0.29 is not installed (apt-get install gridlock.app)")
            }
            let image = try ElfImage(bytes: [UInt8](data), path: path)
            XCTAssertTrue(image.functions(named: "imageNamed:").isEmpty, "no symbol: the method is static")
            let method = try XCTUnwrap(ObjCMethods.find(className: "NSImage", selector: "imageNamed:", classMethod: true, in: image))
            XCTAssertEqual(method.name, "+[NSImage imageNamed:]")
            // Checked independently by hand (docs/native-tracer.md §2): the metaclass at 0x5cc340 lists it at 0x2f5310.
            XCTAssertEqual(method.implementation, 0x2f5310)
            // The address the metadata gives is code: inside an executable segment.
            XCTAssertTrue(image.segments.contains { $0.executable && method.implementation >= $0.address && method.implementation < $0.address + $0.memorySize })
            XCTAssertNotNil(ObjCMethods.find(className: "NSApplication", selector: "finishLaunching", classMethod: false, in: image))
            XCTAssertNil(ObjCMethods.find(className: "NSImage", selector: "noSuchSelector:", classMethod: true, in: image))
            // Every method, for naming frames: the same one is among them, with thousands of others.
            let all = ObjCMethods.all(in: image)
            XCTAssertTrue(all.contains { $0.name == "+[NSImage imageNamed:]" && $0.implementation == 0x2f5310 })
            XCTAssertTrue(all.contains { $0.name == "-[NSApplication finishLaunching]" })
            XCTAssertGreaterThan(all.count, 1000)
            XCTAssertNil(ObjCMethods.find(className: "NoSuchClass", selector: "imageNamed:", classMethod: true, in: image))
        }
    }
#endif
