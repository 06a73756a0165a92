import ArgumentParser
import ImgtraceSupport
import LaunchTrace
import Reporters

enum CaptureFormat: String, ExpressibleByArgument, CaseIterable {
    case lldb, xcode, gdb
}

extension CaptureArch: ExpressibleByArgument {}
extension CaptureAPI: ExpressibleByArgument {}
extension CaptureStyle: ExpressibleByArgument {}

/// `imgtrace lldb-script`: writes the capture so nobody has to click through Xcode or know `$x2`.
struct LldbScriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lldb-script",
        abstract: "Print debugger breakpoints that log every image name an app loads.",
        discussion: CommandHelp.discussion(
            "Without --api or --symbol the breakpoints sit on the funnels every image request passes (UIKit, storyboards and xibs, SwiftUI's and trait changes' CoreUI lookups, SF Symbols, data assets, file paths, AppKit), and one Python callback prints each request once, at the outermost image API, with its thread and kind. The script only sets breakpoints: start the app (`run`) or attach (`process attach --name App --waitfor`) yourself.",
            examples: [
                "imgtrace lldb-script > imgtrace.lldb",
                "imgtrace lldb-script --format xcode > Breakpoints_v2.xcbkptlist",
            ])
    )

    @Option(help: "Where the name argument sits: arm64 ($x2), armv7 ($r2), x86_64 ($rdx) or portable ($arg3).")
    var arch: CaptureArch = .portable

    // argument-parser lists the values itself.
    @Option(name: .customLong("api"), help: "An image API to break on (repeatable).")
    var apis: [CaptureAPI] = []

    @Option(
        name: .customLong("symbol"), parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Another function whose argument ARG (1-based, default 3) is a C-string name, read from its register by the ABI (repeatable), as `record --symbol` takes it.",
            valueName: "name[:arg]"))
    var symbols: [String] = []

    @Option(
        help: ArgumentHelp(
            "Print this many backtrace frames after each name: they tell the app's loads from the toolkit's (default 8 with the Python callback, 0 with --style print or --format gdb).",
            valueName: "n"))
    var backtrace: Int?

    @Option(help: "requests (one line per request from a Python callback) or print (a `p` action per breakpoint, one line per hit).")
    var style: CaptureStyle = .requests

    @Flag(help: "Start each request's line with the time of the hit.")
    var timestamps = false

    // Unconditional: a method's name (`-[NSApplication finishLaunching]`) starts with a dash.
    @Option(name: .customLong("launch-end"), parsing: .unconditional, help: "The function whose first call ends the launch window.")
    var launchEnd: String = CaptureOptions.defaultLaunchEndSymbol

    @Flag(help: "Do not set the launch-end marker breakpoint.")
    var noLaunchEnd = false

    @Option(help: "Output: lldb (command file), xcode (Breakpoints_v2.xcbkptlist) or gdb (command file).")
    var format: CaptureFormat = .lldb

    func validate() throws {
        try BacktraceOption.check(backtrace ?? 0)
        if format == .gdb, arch == .portable {
            throw ValidationError("gdb has no $arg3: pass --arch arm64, armv7 or x86_64 with --format gdb")
        }
        if timestamps, style == .print { throw ValidationError("--timestamps needs the Python callback: leave out --style print") }
        // A name goes into a debugger command line: a line break would start a command of its own.
        let parsed = try symbols.map(RecordCommand.parseSymbol)
        for (option, value) in parsed.map({ ("--symbol", $0.name) }) + [("--launch-end", launchEnd)] {
            if let problem = CaptureScript.unsafeSymbol(value) { throw ValidationError("\(option) \(SafeText.visible(value)): \(problem)") }
        }
        for symbol in parsed where arch.register(argument: symbol.argument) == nil {
            throw ValidationError(
                "--symbol \(SafeText.visible(symbol.name)):\(symbol.argument): \(arch.rawValue) passes argument \(symbol.argument) on the stack, not in a register")
        }
    }

    /// The Python callback reads frames through lldb's API at little cost; a `bt` command per hit
    /// (print style, gdb) costs a debugger round trip, so those print frames only when asked.
    var backtraceFrames: Int {
        backtrace ?? (style == .requests && format != .gdb ? BacktraceOption.defaultFrames : 0)
    }

    func run() throws {
        let parsed = try symbols.map(RecordCommand.parseSymbol)
        var options = CaptureOptions(
            arch: arch, apis: apis.isEmpty && symbols.isEmpty ? CaptureAPI.funnels : apis,
            symbols: parsed.map(\.name), backtraceFrames: backtraceFrames, timestamps: timestamps,
            launchEndSymbol: noLaunchEnd ? nil : launchEnd, style: style)
        options.symbolArguments = Dictionary(parsed.map { ($0.name, $0.argument) }, uniquingKeysWith: { _, last in last })
        let text: String
        switch format {
        case .lldb: text = CaptureScript.lldb(options)
        case .xcode: text = CaptureScript.xcode(options)
        case .gdb: text = CaptureScript.gdb(options)
        }
        let sink = ByteSink(consumer: .terminal)
        sink.write(text)
        try ReportFile.finishStandardOutput(sink)
    }
}
