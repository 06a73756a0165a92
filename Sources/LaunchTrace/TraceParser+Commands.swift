/// Echoed debugger commands: `(lldb)  po $arg3` (an action), `(lldb) bt` (typed), `(gdb) …`.
extension TraceParser {
    mutating func echo(_ rest: ByteLine, number: Int, debugger: DebuggerKind) throws {
        endText()
        section = .plain
        diagnostic.inside = false
        // Breakpoint actions are echoed with two spaces after `(lldb)`, typed commands with one.
        let isAction = debugger == .lldb && rest.hasPrefix("  ")
        let index = breakpoints.commandIndex(rest.trimmed())
        if isAction {
            try echoedAction(index, number: number)
        } else {
            try typedCommand(breakpoints.commands[index], number: number)
        }
    }

    private mutating func echoedAction(_ index: Int, number: Int) throws {
        echoMode = true
        summary.actionsEchoed = true
        let kind = breakpoints.commands[index].kind
        switch kind {
        case .printObject, .printValue, .backtrace:
            if breakpoints.commands[index].startsHit || current == nil || current?.fromStop == true {
                try settleOpenHit()
                current = OpenHit(line: number, breakpoint: breakpoints.commands[index].breakpoint)
            }
            collecting = .hit
            if kind == .backtrace { section = .backtrace }
            current?.collectingText = kind == .printObject
        default:
            collecting = .none
        }
    }

    /// A command typed at the prompt. Its output belongs to the open hit only while the
    /// process is stopped at a breakpoint (the open hit came from that stop).
    private mutating func typedCommand(_ command: BreakpointTable.Command, number: Int) throws {
        let atBreakpointStop = current?.fromStop == true
        switch command.kind {
        case .setBreakpoint(let setup):
            breakpoints.pendingSetup = setup
            collecting = .ignore
        case .setActions(let id, let actions):
            breakpoints.setActions(id: id, actions)
            collecting = .ignore
        case .printObject, .printValue:
            if atBreakpointStop {
                collecting = .hit
                current?.collectingText = command.kind == .printObject
            } else {
                summary.typedPrintsOutsideStops += 1
                if summary.firstTypedPrintLine == nil { summary.firstTypedPrintLine = number }
                collecting = .ignore
            }
        case .backtrace:
            if atBreakpointStop {
                section = .backtrace
                collecting = .hit
            } else {
                collecting = .ignore
            }
        case .resume:
            try settleOpenHit()
            collecting = .ignore
        case .other:
            collecting = .ignore
        }
    }
}
