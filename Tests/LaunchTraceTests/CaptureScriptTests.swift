import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import LaunchTrace
import XCTest

final class CaptureScriptTests: XCTestCase {
    func testRegisterPerArchitectureAndObjectiveCExpression() {
        for (arch, register) in [(CaptureArch.arm64, "$x2"), (.armv7, "$r2"), (.x86_64, "$rdx"), (.portable, "$arg3")] {
            let script = CaptureScript.lldb(CaptureOptions(arch: arch, apis: [.imageNamed]))
            XCTAssertTrue(
                script.contains(#"breakpoint set --name "+[UIImage imageNamed:]" -G true -C "p (const char *)[(id)\#(register) UTF8String] /* +[UIImage imageNamed:] */""#), script)
        }
    }

    func testDefaultCoversEveryAPIAndTheLaunchMarker() {
        let script = CaptureScript.lldb(CaptureOptions())
        for api in CaptureAPI.allCases { XCTAssertTrue(script.contains("--name \"\(api.symbol)\""), api.symbol) }
        XCTAssertTrue(script.contains(#"--name "-[UIViewController viewDidAppear:]" -o true -G true -C "script print('imgtrace-launch-end')""#))
        XCTAssertFalse(CaptureScript.lldb(CaptureOptions(launchEndSymbol: nil)).contains("imgtrace-launch-end"))
    }

    func testTimestampsUseOnePythonCallbackPerBreakpoint() {
        let script = CaptureScript.lldb(CaptureOptions(apis: [.imageNamed], symbols: ["load_image"], timestamps: true))
        XCTAssertEqual(script.components(separatedBy: "breakpoint command add -F imgtrace_hit").count - 1, 2)
        XCTAssertTrue(script.contains("script exec(\"def imgtrace_hit(frame, bp_loc, extra_args, internal_dict):\\n"))
        XCTAssertTrue(script.contains(#"-k api -v "load_image" -k expr -v "(const char *)$arg3 /* load_image */""#))
    }

    func testXcodeBreakpointListIsWellFormedAndStable() throws {
        let options = CaptureOptions(arch: .arm64, apis: [.imageNamed, .imageWithContentsOfFile], backtraceFrames: 5)
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
    }

    func testGdbCommandFile() {
        let script = CaptureScript.gdb(CaptureOptions(arch: .x86_64, apis: [.nsImageNamed]))
        XCTAssertTrue(script.contains("break +[NSImage imageNamed:]\ncommands\nsilent\nprint (const char *)[(id)$rdx UTF8String] /* +[NSImage imageNamed:] */\ncontinue\nend\n"))
        XCTAssertTrue(script.contains("tbreak -[UIViewController viewDidAppear:]"))
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
