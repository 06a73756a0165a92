import ImgtraceSupport
/// The image APIs a capture script can break on: single methods, or families matched by prefix
/// (selectors drift between OS releases: ../shared/docs/apple-image-paths.md).
public enum CaptureAPI: String, CaseIterable, Sendable {
    case imageNamed = "image-named"
    case imageNamedInBundle = "image-named-in-bundle"
    case imageNamedWithConfiguration = "image-named-with-configuration"
    case assetManager = "asset-manager"
    case systemImage = "system-image"
    case coreUI = "core-ui"
    case dataAsset = "data-asset"
    case imageWithContentsOfFile = "image-with-contents-of-file"
    case initWithContentsOfFile = "init-with-contents-of-file"
    case nsImageNamed = "ns-image-named"
    case nsBundleImage = "ns-bundle-image"

    /// The funnels of the call graph, which the default capture breaks on: every path of a
    /// request passes at least one, and the callback prints only at the outermost.
    public static let funnels: [CaptureAPI] = [
        .imageNamedWithConfiguration, .assetManager, .systemImage, .coreUI, .dataAsset, .initWithContentsOfFile, .nsImageNamed,
        .nsBundleImage,
    ]

    /// The public class methods apps call (and `record` traces by default on GNUstep).
    public static let classMethods: [CaptureAPI] = [
        .imageNamed, .imageNamedInBundle, .imageNamedWithConfiguration, .imageWithContentsOfFile, .initWithContentsOfFile, .nsImageNamed,
    ]

    /// The Objective-C symbol of a single method, or the first of a family's iOS 18 symbols.
    public var symbol: String { symbols[0] }

    /// Symbol starts that select the family's methods (lldb matches them by regular expression);
    /// empty for a single method, matched by its whole name.
    public var prefixes: [String] {
        switch self {
        case .assetManager: return ["-[_UIAssetManager imageNamed:"]
        case .systemImage: return ["+[UIImage systemImageNamed:", "+[UIImage _systemImageNamed:"]
        case .coreUI: return ["-[CUICatalog imageWithName:", "-[CUICatalog namedLookupWithName:", "-[CUICatalog namedVectorGlyphWithName:"]
        case .dataAsset: return ["-[NSDataAsset initWithName:", "-[CUICatalog dataWithName:"]
        default: return []
        }
    }

    /// The whole symbols as iOS 18 ships them, for debuggers that match no prefix (gdb, Xcode's
    /// breakpoint list); the name or path is the third argument of each.
    public var symbols: [String] {
        switch self {
        case .imageNamed: return ["+[UIImage imageNamed:]"]
        case .imageNamedInBundle: return ["+[UIImage imageNamed:inBundle:compatibleWithTraitCollection:]"]
        case .imageNamedWithConfiguration: return ["+[UIImage imageNamed:inBundle:withConfiguration:]"]
        case .assetManager, .systemImage, .dataAsset:
            return ImageAPIs.table.filter { api in !api.prefix && prefixes.contains { api.symbol.hasPrefix($0) } }.map(\.symbol)
        case .coreUI: return ImageAPIs.coreUISymbols
        case .imageWithContentsOfFile: return ["+[UIImage imageWithContentsOfFile:]"]
        case .initWithContentsOfFile: return ["-[UIImage initWithContentsOfFile:]"]
        case .nsImageNamed: return ["+[NSImage imageNamed:]"]
        case .nsBundleImage: return ["-[NSBundle imageForResource:]"]
        }
    }
}

/// Where the third argument of a call sits.
public enum CaptureArch: String, CaseIterable, Sendable {
    case arm64, armv7, x86_64, portable

    /// The register lldb (and gdb) name for the third argument; `$arg3` lets lldb pick.
    public var register: String {
        switch self {
        case .arm64: return "$x2"
        case .armv7: return "$r2"
        case .x86_64: return "$rdx"
        case .portable: return "$arg3"
        }
    }

    /// The register of a C function's integer argument `argument` (1-based) by the ABI, or nil
    /// where the ABI passes it on the stack (armv7 past the fourth).
    public func register(argument: Int) -> String? {
        let registers: [String]
        switch self {
        case .arm64: registers = ["$x0", "$x1", "$x2", "$x3", "$x4", "$x5"]
        case .armv7: registers = ["$r0", "$r1", "$r2", "$r3"]
        case .x86_64: registers = ["$rdi", "$rsi", "$rdx", "$rcx", "$r8", "$r9"]
        case .portable: registers = (1...6).map { "$arg\($0)" }
        }
        return (1...registers.count).contains(argument) ? registers[argument - 1] : nil
    }
}

/// How each breakpoint reports its hit.
public enum CaptureStyle: String, CaseIterable, Sendable {
    /// One Python callback for every breakpoint: it prints once per request, at the outermost
    /// image API on the thread's stack, with thread, kind and API, and reads the name from memory
    /// where it can (docs/capture.md).
    case requests
    /// A `p` action per breakpoint (no Python): one line per hit; the reader merges nested hits.
    case print
}

/// What to capture: which functions, how to print their name argument, and extras.
public struct CaptureOptions: Sendable {
    public var arch: CaptureArch
    public var apis: [CaptureAPI]
    /// Other functions whose third argument is a C string name (not an NSString).
    public var symbols: [String]
    /// For functions of `symbols` whose name is another argument than the third: that argument (1-based).
    public var symbolArguments: [String: Int] = [:]
    /// Frames of backtrace printed after each name; 0 for none.
    public var backtraceFrames: Int
    /// Start each line with the time of the hit (the `requests` style; `print` turns into a callback).
    public var timestamps: Bool
    /// A function whose first call marks the end of launch; `nil` for no marker.
    public var launchEndSymbol: String?
    public var style: CaptureStyle

    public static let defaultLaunchEndSymbol = "-[UIViewController viewDidAppear:]"

    public init(
        arch: CaptureArch = .portable, apis: [CaptureAPI] = CaptureAPI.funnels, symbols: [String] = [],
        backtraceFrames: Int = 0, timestamps: Bool = false, launchEndSymbol: String? = CaptureOptions.defaultLaunchEndSymbol,
        style: CaptureStyle = .requests
    ) {
        self.arch = arch
        self.apis = apis
        self.symbols = symbols
        self.backtraceFrames = backtraceFrames
        self.timestamps = timestamps
        self.launchEndSymbol = launchEndSymbol
        self.style = timestamps ? .requests : style
    }

    /// The `print` style's breakpoints: symbol and the expression that yields its name as a
    /// `const char *`. The trailing comment makes every breakpoint's echoed action unique, so the
    /// reader can tell which API a hit came from even when the debugger prints no stop report.
    var targets: [(symbol: String, expression: String)] {
        let register = arch.register
        return apis.flatMap(\.symbols).map { ($0, "(const char *)[(id)\(register) UTF8String] /* \($0) */") }
            + symbols.map { ($0, "(const char *)\(nameRegister(of: $0)) /* \($0) */") }
    }

    /// The register that holds the name a function of `symbols` is given.
    func nameRegister(of symbol: String) -> String {
        symbolArguments[symbol].flatMap(arch.register(argument:)) ?? arch.register
    }
}

/// Writes capture scripts whose output `TraceReader` understands best: lldb command files,
/// Xcode breakpoint lists and gdb command files.
public enum CaptureScript {
    /// An lldb command file: `lldb -s FILE -- ./App` or `command source FILE`, then `run` or `process attach`.
    public static func lldb(_ options: CaptureOptions) -> String {
        var out = """
            # imgtrace lldb-script: breakpoints that print every image request an app makes.
            # Load with `lldb -s THIS_FILE -- /path/to/App` (or `command source THIS_FILE` in Xcode's console),
            # then `run`, or `process attach --name App --waitfor`. Save the console to a file and give it
            # to `imgtrace trace` or `imgtrace analyze`. Each breakpoint continues by itself.

            """
        switch options.style {
        case .requests:
            out += "# One line per request, at the outermost image API on the thread's stack: [thread] (kind) api: \"name\".\n"
            out += "script exec(\(pythonLiteral(CaptureCallback.lldb(options))))\n"
            for breakpoint in breakpoints(options) {
                out += "breakpoint set \(breakpoint) \(entry) -G true\nbreakpoint command add -F imgtrace_request\n"
            }
            if looksUpMethods(options) {
                out += "# A method no symbol names (a stripped library) is found through the Objective-C runtime at main.\n"
                out += "breakpoint set --name main -o true -G true -C \(quote("script imgtrace_find_methods(lldb.frame)"))\n"
            }
        case .print:
            for target in options.targets {
                var line = "breakpoint set --name \(quote(target.symbol)) \(entry) -G true -C \(quote("p \(target.expression)"))"
                if options.backtraceFrames > 0 { line += " -C \(quote("bt \(options.backtraceFrames)"))" }
                out += line + "\n"
            }
        }
        if let marker = options.launchEndSymbol {
            // The launch ends when the function returns: its entry sets a breakpoint at the return.
            out += "script exec(\(pythonLiteral(CaptureCallback.lldbLaunchEnd)))\n"
            out += "breakpoint set --name \(quote(marker)) -o true -G true \(entry) -C \(quote("script imgtrace_launch_end(lldb.frame)"))\n"
        }
        return out
    }

    /// Whether the script breaks on an Objective-C method by exact name (an image API or the
    /// launch end), which a stripped library may hold without a symbol
    /// (`CaptureCallback.runtimeMethods`).
    static func looksUpMethods(_ options: CaptureOptions) -> Bool {
        (options.apis.filter { $0.prefixes.isEmpty }.flatMap(\.symbols) + [options.launchEndSymbol].compactMap { $0 }).contains {
            $0.hasPrefix("+[") || $0.hasPrefix("-[")
        }
    }

    /// Breakpoints stop at a function's first instruction, where the name is still in its
    /// argument register: past the prologue that lldb finds from debug information, a function
    /// may already have left (gcc -O2 tests a nil name before its prologue and returns).
    static let entry = "--skip-prologue false"

    /// lldb's `breakpoint set` arguments: a family by regular expression, a method by name.
    /// Each method also by GCC's symbol for it, which is all lldb finds of a GNUstep method that
    /// gcc -O2 split in two (the callback names it back).
    static func breakpoints(_ options: CaptureOptions) -> [String] {
        options.apis.map { api in
            if api.prefixes.isEmpty {
                return ([api.symbol] + [ImageAPIs.gccSymbol(api.symbol)].compactMap { $0 }).map { "--name \(quote($0))" }.joined(separator: " ")
            }
            let alternatives = api.prefixes + api.prefixes.compactMap(ImageAPIs.gccSymbol)
            return "--func-regex \(quote("^(" + alternatives.map(regexLiteral).joined(separator: "|") + ")"))"
        } + options.symbols.map { "--name \(quote($0))" }
    }

    /// `text` matched literally by a POSIX extended regular expression.
    public static func regexLiteral(_ text: String) -> String {
        var out = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// A Python string literal (double-quoted) for the `script exec(...)` one-liner. A backtick is
    /// written as its escape: lldb runs the text between two backticks of a command line as an
    /// expression before the command sees it.
    static func pythonLiteral(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "`": out += "\\x60"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// An lldb argument in double quotes (backslash and quote escaped).
    /// Why `symbol` cannot be a breakpoint's function name in a script, or nil when it can: a
    /// line break (or any control character) would end the command and start one of the
    /// caller's choosing (`platform shell …`), and a quote would end the string early.
    public static func unsafeSymbol(_ symbol: String) -> String? {
        if symbol.isEmpty { return "a function name is needed" }
        if symbol.unicodeScalars.contains(where: SafeText.needsEscape) {
            return "a function name is one line of printable characters"
        }
        if symbol.contains("\"") || symbol.contains("'") || symbol.contains("\\") { return "a function name holds no quotes or backslashes" }
        // gdb reads words after a location as options and a condition (`NAME -force-condition if
        // …` runs code when sourced): a blank belongs only between an Objective-C method's class
        // and selector, and a leading '-' only to an instance method.
        let isMethod = (symbol.hasPrefix("+[") || symbol.hasPrefix("-[")) && symbol.hasSuffix("]")
        if isMethod ? symbol.filter({ $0 == " " }).count != 1 : symbol.contains(" ") {
            return "a function name holds no blanks (an Objective-C method one, between class and selector)"
        }
        if symbol.hasPrefix("-"), !isMethod { return "a function name does not start with '-'" }
        return nil
    }

    static func quote(_ text: String) -> String {
        "\"" + text.replacingAll("\\", with: "\\\\").replacingAll("\"", with: "\\\"") + "\""
    }

    /// A shareable Xcode `Breakpoints_v2.xcbkptlist` with the same breakpoints (debugger-command actions, auto-continue).
    public static func xcode(_ options: CaptureOptions) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Bucket
               uuid = "\(uuid("bucket"))"
               type = "1"
               version = "2.0">
               <Breakpoints>

            """
        var entries: [(symbol: String, commands: [String])]
        switch options.style {
        case .requests:
            // Xcode's list holds no script of its own: the action defines the callback on its first
            // run; assignments, so that lldb echoes no value the reader could take for a name.
            let call =
                "script _ = exec(\(pythonLiteral(CaptureCallback.lldb(options)))) if 'imgtrace_request' not in globals() else None; "
                + "_ = imgtrace_request(None, None, None, None)"
            entries = (options.apis.flatMap(\.symbols) + options.symbols).map { ($0, [call]) }
        case .print:
            entries = options.targets.map { (symbol: $0.symbol, commands: ["p \($0.expression)"] + (options.backtraceFrames > 0 ? ["bt \(options.backtraceFrames)"] : [])) }
        }
        if let marker = options.launchEndSymbol { entries.append((marker, [xcodeLaunchEndAction])) }
        for entry in entries {
            out += """
                      <BreakpointProxy
                         BreakpointExtensionID = "Xcode.Breakpoint.SymbolicBreakpoint">
                         <BreakpointContent
                            uuid = "\(uuid(entry.symbol))"
                            shouldBeEnabled = "Yes"
                            ignoreCount = "0"
                            continueAfterRunningActions = "Yes"
                            symbolName = "\(xml(entry.symbol))"
                            moduleName = "">
                            <Actions>

                """
            for command in entry.commands {
                out += """
                                  <BreakpointActionProxy
                                     ActionExtensionID = "Xcode.BreakpointAction.DebuggerCommand">
                                     <ActionContent
                                        consoleCommand = "\(xml(command))">
                                     </ActionContent>
                                  </BreakpointActionProxy>

                    """
            }
            out += """
                            </Actions>
                            <Locations>
                            </Locations>
                         </BreakpointContent>
                      </BreakpointProxy>

                """
        }
        out += "   </Breakpoints>\n</Bucket>\n"
        return out
    }

    /// Xcode's action at the launch end's entry: defines the callback on its first run, as the
    /// request callback is, and marks the launch end at the function's return.
    static let xcodeLaunchEndAction =
        "script _ = exec(\(pythonLiteral(CaptureCallback.lldbLaunchEnd))) if 'imgtrace_launch_end' not in globals() else None; "
        + "_ = imgtrace_launch_end(lldb.frame)"

    /// A gdb command file: `gdb -x THIS_FILE --args ./App`. gdb has no `$arg3`, so an architecture is required.
    public static func gdb(_ options: CaptureOptions) -> String {
        var out = """
            # imgtrace lldb-script --format gdb: breakpoints that print every image request, then continue.
            # Load with `gdb -x THIS_FILE --args /path/to/App`, then `run`.
            set breakpoint pending on
            set pagination off

            """
        switch options.style {
        case .requests:
            out += "python\n" + CaptureCallback.gdb(options) + "end\n"
            for symbol in options.apis.flatMap(\.symbols) + options.symbols {
                out += "break \(symbol)\ncommands\nsilent\npython imgtrace_request()\ncontinue\nend\n"
            }
            if looksUpMethods(options) {
                out += "# A method no symbol names (a stripped library) is found through the Objective-C runtime at main.\n"
                out += "tbreak main\ncommands\nsilent\npython imgtrace_find_methods()\ncontinue\nend\n"
            }
        case .print:
            for target in options.targets {
                // gdb's expressions take no C comment: the breakpoint's commands tell the hits apart.
                let expression = target.expression.components(separatedBy: " /* ").first ?? target.expression
                out += "break \(target.symbol)\ncommands\nsilent\nprint \(expression)\n"
                if options.backtraceFrames > 0 { out += "bt \(options.backtraceFrames)\n" }
                out += "continue\nend\n"
            }
        }
        if let marker = options.launchEndSymbol {
            // The launch ends when the function returns: its entry sets a breakpoint at the return.
            out += "python\n" + CaptureCallback.gdbLaunchEnd + "end\n"
            out += "tbreak \(marker)\ncommands\nsilent\npython imgtrace_launch_end()\ncontinue\nend\n"
        }
        return out
    }

    /// A stable UUID-shaped id for a breakpoint, so the same options give the same file.
    static func uuid(_ seed: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var digits = ""
        for round in 0..<2 {
            for byte in (seed + "#\(round)").utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            let hex = String(hash, radix: 16, uppercase: true)
            digits += String(repeating: "0", count: 16 - hex.count) + hex
        }
        let c = Array(digits)
        return [String(c[0..<8]), String(c[8..<12]), String(c[12..<16]), String(c[16..<20]), String(c[20..<32])].joined(separator: "-")
    }

    static func xml(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("\"", with: "&quot;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }
}

private extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for c in self { if c == target { out += replacement } else { out.append(c) } }
        return out
    }
}
