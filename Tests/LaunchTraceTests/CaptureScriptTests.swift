import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import LaunchTrace
import XCTest

final class CaptureScriptTests: XCTestCase {
    func testPrintStyleRegisterPerArchitectureAndObjectiveCExpression() {
        for (arch, register) in [(CaptureArch.arm64, "$x2"), (.armv7, "$r2"), (.x86_64, "$rdx"), (.portable, "$arg3")] {
            let script = CaptureScript.lldb(CaptureOptions(arch: arch, apis: [.imageNamed], style: .print))
            let expression = #"p (const char *)[(id)\#(register) UTF8String] /* +[UIImage imageNamed:] */"#
            XCTAssertTrue(script.contains(#"breakpoint set --name "+[UIImage imageNamed:]" --skip-prologue false -G true -C "\#(expression)""#), script)
            XCTAssertTrue(CaptureScript.lldb(CaptureOptions(arch: arch)).contains("IMGTRACE_REGISTER = '\(register.dropFirst())'"))
        }
    }

    /// The default breaks on the funnels of the call graph, families by regular expression, each
    /// with the one callback; and every family's expression matches exactly its own iOS 18 symbols.
    func testDefaultBreaksOnTheFunnelsWithTheCallback() throws {
        let script = CaptureScript.lldb(CaptureOptions())
        let lines = script.split(separator: "\n").filter { $0.hasPrefix("breakpoint ") }
        XCTAssertEqual(lines.filter { $0 == "breakpoint command add -F imgtrace_request" }.count, CaptureAPI.funnels.count)
        XCTAssertTrue(
            script.contains(#"breakpoint set --func-regex "^(-\\[_UIAssetManager imageNamed:|_i__UIAssetManager__imageNamed_)" --skip-prologue false -G true"#),
            script)
        XCTAssertTrue(
            script.contains(
                #"breakpoint set --name "+[UIImage imageNamed:inBundle:withConfiguration:]" --name "_c_UIImage__imageNamed_inBundle_withConfiguration_" --skip-prologue false -G true"#
            ))
        // The launch end is marked at the function's return: its entry sets that breakpoint.
        XCTAssertTrue(
            script.contains(#"--name "-[UIViewController viewDidAppear:]" -o true -G true --skip-prologue false -C "script imgtrace_launch_end(lldb.frame)""#))
        XCTAssertTrue(script.contains("def imgtrace_launch_end(frame):"))
        XCTAssertFalse(CaptureScript.lldb(CaptureOptions(launchEndSymbol: nil)).contains("imgtrace-launch-end"))
        let every = CaptureAPI.allCases.flatMap(\.symbols)
        for api in CaptureAPI.allCases where !api.prefixes.isEmpty {
            let pattern = "^(" + api.prefixes.map(CaptureScript.regexLiteral).joined(separator: "|") + ")"
            let regex = try NSRegularExpression(pattern: pattern)
            let matched = every.filter { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
            XCTAssertEqual(Set(matched), Set(api.symbols), api.rawValue)
        }
    }

    /// The callback's Python, run by python3 with a stand-in for gdb's module: GCC's symbols for
    /// the table's methods (what lldb shows of a method gcc -O2 split in two) are named back, and
    /// GNUstep strings are read from memory (here, bytes standing in for it) without running code.
    func testTheCallbackNamesGCCSymbolsAndReadsGNUstepStrings() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("needs python3") }
        let script = CaptureScript.gdb(CaptureOptions(arch: .x86_64))
        let body = try XCTUnwrap(script.components(separatedBy: "\npython\n").dropFirst().first?.components(separatedBy: "\nend\n").first)
        let program = """
            class gdb:
                class Breakpoint: pass
            \(body)
            for symbol in ('_c_UIImage__imageNamed_inBundle_withConfiguration_', '_i__UIAssetManager__imageNamed_idiom_subtype_.cold',
                           '_i_CUICatalog__namedLookupWithName_scaleFactor_', '_i_NSObject__description', 'main', None):
                print(imgtrace_method(symbol))
            memory = bytearray(0x6000)
            def put(at, data): memory[at:at + len(data)] = data
            def word(value, size=8): return value.to_bytes(size, 'little')
            def read(at, size):
                if at < 0 or at + size > len(memory): raise ValueError('unmapped')
                return bytes(memory[at:at + size])
            # A GSString subclass imgtrace does not know (its superclass is one), 8-bit and UTF-16.
            put(0x2000, word(0) + word(0x3000) + word(0x4000))
            put(0x3000, word(0) + word(0) + word(0x4100))
            put(0x4000, b'GSCBufferString\\0'); put(0x4100, b'GSString\\0')
            put(0x1000, word(0x2000) + word(0x5000) + word(5, 4) + word(0, 4)); put(0x5000, b'hello')
            put(0x1100, word(0x2000) + word(0x5100) + word(2, 4) + word(1, 4)); put(0x5100, 'hé'.encode('utf-16-le'))
            # Not a string (a class named otherwise, no superclass), and a pointer into nothing.
            put(0x2100, word(0) + word(0) + word(0x4200)); put(0x4200, b'NSArray\\0'); put(0x1200, word(0x2100))
            put(0x1300, word(0x7000))
            for address in (0x1000, 0x1100, 0x1200, 0x1300):
                print(imgtrace_gnustep_string(read, address))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", program]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, output)
        XCTAssertEqual(
            output.split(separator: "\n").map(String.init),
            [
                "+[UIImage imageNamed:inBundle:withConfiguration:]", "-[_UIAssetManager imageNamed:idiom:subtype:]",
                "-[CUICatalog namedLookupWithName:scaleFactor:]", "_i_NSObject__description", "main", "None",
                "b'hello'", "b'h\\xc3\\xa9'", "None", "None",
            ])
    }

    func testOptionsReachTheCallback() {
        let script = CaptureScript.lldb(CaptureOptions(apis: [.imageNamed], symbols: ["load_image"], backtraceFrames: 3, timestamps: true))
        XCTAssertEqual(script.components(separatedBy: "breakpoint command add -F imgtrace_request").count - 1, 2)
        XCTAssertTrue(script.contains("IMGTRACE_C_STRINGS = {'load_image': 'arg3'}"))
        XCTAssertTrue(script.contains("IMGTRACE_TIMESTAMPS = True"))
        XCTAssertTrue(script.contains("IMGTRACE_BACKTRACE = 3"))
        XCTAssertTrue(script.contains(#"breakpoint set --name "load_image" --skip-prologue false -G true"#))
    }

    func testXcodeBreakpointListIsWellFormedAndStable() throws {
        let options = CaptureOptions(arch: .arm64, apis: [.imageNamed, .imageWithContentsOfFile], backtraceFrames: 5, style: .print)
        let xml = CaptureScript.xcode(options)
        XCTAssertEqual(xml, CaptureScript.xcode(options), "same options, same bytes")
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = AttributeCollector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        XCTAssertEqual(collector.symbols, ["+[UIImage imageNamed:]", "+[UIImage imageWithContentsOfFile:]", "-[UIViewController viewDidAppear:]"])
        XCTAssertEqual(collector.commands.first, "p (const char *)[(id)$x2 UTF8String] /* +[UIImage imageNamed:] */")
        XCTAssertTrue(collector.commands.contains("bt 5"))
        XCTAssertEqual(Set(collector.continues), ["Yes"])
        XCTAssertEqual(Set(collector.uuids).count, collector.uuids.count, "every uuid is distinct")
        let requests = CaptureScript.xcode(CaptureOptions(apis: [.coreUI]))
        XCTAssertTrue(requests.contains("imgtrace_request(None, None, None, None)"))
        XCTAssertEqual(requests.components(separatedBy: "symbolName = \"-[CUICatalog ").count - 1, 3, "a family's iOS 18 symbols, one by one")
    }

    func testGdbCommandFile() {
        let script = CaptureScript.gdb(CaptureOptions(arch: .x86_64, apis: [.nsImageNamed], style: .print))
        // gdb's expressions take no C comment.
        XCTAssertTrue(script.contains("break +[NSImage imageNamed:]\ncommands\nsilent\nprint (const char *)[(id)$rdx UTF8String]\ncontinue\nend\n"))
        XCTAssertTrue(script.contains("tbreak -[UIViewController viewDidAppear:]"))
        let requests = CaptureScript.gdb(CaptureOptions(arch: .x86_64, apis: [.nsImageNamed]))
        XCTAssertTrue(requests.contains("break +[NSImage imageNamed:]\ncommands\nsilent\npython imgtrace_request()\ncontinue\nend\n"))
        XCTAssertTrue(requests.contains("python\nimport datetime\n"))
    }
}

private final class AttributeCollector: NSObject, XMLParserDelegate {
    var symbols: [String] = [], commands: [String] = [], continues: [String] = [], uuids: [String] = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
        if let symbol = attributes["symbolName"] { symbols.append(symbol) }
        if let command = attributes["consoleCommand"] { commands.append(command) }
        if let value = attributes["continueAfterRunningActions"] { continues.append(value) }
        if let uuid = attributes["uuid"] { uuids.append(uuid) }
    }
}
