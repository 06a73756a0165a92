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
            XCTAssertTrue(
                script.contains(#"breakpoint set --name "+[UIImage imageNamed:]" -G true -C "p (const char *)[(id)\#(register) UTF8String] /* +[UIImage imageNamed:] */""#), script)
            XCTAssertTrue(CaptureScript.lldb(CaptureOptions(arch: arch)).contains("IMGTRACE_REGISTER = '\(register.dropFirst())'"))
        }
    }

    /// The default breaks on the funnels of the call graph, families by regular expression, each
    /// with the one callback; and every family's expression matches exactly its own iOS 18 symbols.
    func testDefaultBreaksOnTheFunnelsWithTheCallback() throws {
        let script = CaptureScript.lldb(CaptureOptions())
        let lines = script.split(separator: "\n").filter { $0.hasPrefix("breakpoint ") }
        XCTAssertEqual(lines.filter { $0 == "breakpoint command add -F imgtrace_request" }.count, CaptureAPI.funnels.count)
        XCTAssertTrue(script.contains(#"breakpoint set --func-regex "^(-\\[_UIAssetManager imageNamed:)" -G true"#), script)
        XCTAssertTrue(script.contains(#"breakpoint set --name "+[UIImage imageNamed:inBundle:withConfiguration:]" -G true"#))
        XCTAssertTrue(script.contains(#"--name "-[UIViewController viewDidAppear:]" -o true -G true -C "script print('imgtrace-launch-end')""#))
        XCTAssertFalse(CaptureScript.lldb(CaptureOptions(launchEndSymbol: nil)).contains("imgtrace-launch-end"))
        let every = CaptureAPI.allCases.flatMap(\.symbols)
        for api in CaptureAPI.allCases where !api.prefixes.isEmpty {
            let pattern = "^(" + api.prefixes.map(CaptureScript.regexLiteral).joined(separator: "|") + ")"
            let regex = try NSRegularExpression(pattern: pattern)
            let matched = every.filter { regex.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
            XCTAssertEqual(Set(matched), Set(api.symbols), api.rawValue)
        }
    }

    func testOptionsReachTheCallback() {
        let script = CaptureScript.lldb(CaptureOptions(apis: [.imageNamed], symbols: ["load_image"], backtraceFrames: 3, timestamps: true))
        XCTAssertEqual(script.components(separatedBy: "breakpoint command add -F imgtrace_request").count - 1, 2)
        XCTAssertTrue(script.contains("IMGTRACE_C_STRINGS = set(['load_image'])"))
        XCTAssertTrue(script.contains("IMGTRACE_TIMESTAMPS = True"))
        XCTAssertTrue(script.contains("IMGTRACE_BACKTRACE = 3"))
        XCTAssertTrue(script.contains(#"breakpoint set --name "load_image" -G true"#))
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
        XCTAssertTrue(script.contains("break +[NSImage imageNamed:]\ncommands\nsilent\nprint (const char *)[(id)$rdx UTF8String] /* +[NSImage imageNamed:] */\ncontinue\nend\n"))
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
