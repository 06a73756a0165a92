/// The breakpoints a log sets up, the actions they run and the API each one stands for, with
/// the caches that keep the per-hit lookups cheap. Every change bumps `version`, which drops
/// the caches built from the table.
struct BreakpointTable {
    /// An echoed command, classified once: actions repeat on every hit.
    struct Command {
        var bytes: [UInt8]
        var kind: CommandKind
        /// It begins a new hit (see `startsHit`).
        var startsHit: Bool
        /// The breakpoint whose first action it is, when exactly one is.
        var breakpoint: String?
    }

    /// Who a hit belongs to.
    typealias Attribution = (breakpoint: String?, api: String?)

    private(set) var breakpoints: [BreakpointInfo] = []
    private var index: [String: Int] = [:]
    private var version = 0
    /// A `breakpoint set` command whose confirmation line has not been read yet.
    var pendingSetup: BreakpointSetup?
    /// Some breakpoint is pending: only then does a hit need to mark its breakpoint resolved.
    private(set) var anyPending = false

    private(set) var commands: [Command] = []
    private var commandsVersion = -1
    private var attributions: [String: Attribution] = [:]
    private var attributionsVersion = -1
    private var lastAttribution: (key: String, result: Attribution)?

    // MARK: Changes

    /// Records the breakpoint a confirmation line reports, with the set-up command before it.
    mutating func register(id: String, symbol: String?, line: Int) {
        let setup = pendingSetup
        pendingSetup = nil
        version += 1
        let info = BreakpointInfo(id: id, symbol: symbol, actions: setup?.actions ?? [], oneShot: setup?.oneShot ?? false, line: line)
        if let at = index[id] {
            breakpoints[at] = info
        } else {
            index[id] = breakpoints.count
            breakpoints.append(info)
        }
    }

    mutating func setActions(id: String, _ actions: [String]) {
        guard let at = index[id] else { return }
        breakpoints[at].actions = actions
        version += 1
    }

    mutating func markPending(_ id: String, _ pending: Bool) {
        guard let at = index[id] else { return }
        breakpoints[at].pending = pending
        if pending { anyPending = true }
    }

    /// The last breakpoint set, which lldb's `Unable to resolve` warning is about.
    var lastID: String? { breakpoints.last?.id }

    /// A gdb stop names the function: it fills in a symbol the set-up line did not give.
    mutating func recordStopSymbol(id: String, text: String, line: Int) {
        // `0x… in SYMBOL (args) …` or `SYMBOL (args) at …`.
        var rest = Substring(text)
        if rest.hasPrefix("0x"), let inRange = rest.range(of: " in ") { rest = rest[inRange.upperBound...] }
        if let paren = rest.range(of: " (") { rest = rest[..<paren.lowerBound] }
        let symbol = String(rest)
        if let at = index[id] {
            if breakpoints[at].symbol == nil, symbol != "??" {
                breakpoints[at].symbol = symbol
                version += 1
            }
        } else {
            register(id: id, symbol: symbol == "??" ? nil : symbol, line: line)
        }
    }

    /// A hit proves its breakpoint resolved, whatever the log said when it was set.
    mutating func hitResolves(_ breakpoint: String) {
        guard anyPending, let number = breakpoint.split(separator: ".").first, let at = index[String(number)],
            breakpoints[at].pending
        else { return }
        breakpoints[at].pending = false
    }

    // MARK: Lookups

    /// Where the classified form of an echoed command (`trimmed`: the echo without its prompt)
    /// is in the cache; read it with `commands[index]` in place, as actions run on every hit.
    mutating func commandIndex(_ trimmed: ByteLine) -> Int {
        if commandsVersion != version {
            commands.removeAll(keepingCapacity: true)
            commandsVersion = version
        }
        if let cached = commands.firstIndex(where: { trimmed.equals($0.bytes) }) { return cached }
        let text = trimmed.string
        let kind = DebuggerCommand.classify(text)
        let command = Command(
            bytes: trimmed.bytes, kind: kind, startsHit: startsHit(text, kind: kind),
            breakpoint: breakpoint(withFirstAction: text))
        if commands.count >= 16 { commands.removeFirst() }
        commands.append(command)
        return commands.count - 1
    }

    /// The breakpoint whose first action is `command`, when exactly one is.
    private func breakpoint(withFirstAction command: String) -> String? {
        let matches = breakpoints.filter { !$0.oneShot && $0.actions.first == command }
        return matches.count == 1 ? matches[0].id : nil
    }

    /// Whether an echoed action begins a new hit: it is the first action of a breakpoint the
    /// log set up, or, when the set-up is not in the log, any command that prints a value.
    private func startsHit(_ command: String, kind: CommandKind) -> Bool {
        // A one-shot breakpoint's actions (the launch-end marker, a set-up stop) are never loads,
        // nor is the marker's action on the launch end's return, set while the program runs.
        if breakpoints.contains(where: { $0.oneShot && $0.actions.contains(command) }) { return false }
        if command.contains(LaunchMarker.text) { return false }
        var matchesLater = false
        for bp in breakpoints where !bp.oneShot && !bp.actions.isEmpty {
            if bp.actions[0] == command { return true }
            if bp.actions.contains(command) { matchesLater = true }
        }
        if matchesLater { return false }
        return kind != .backtrace
    }

    /// The API of a hit from its breakpoint id (`1.1` → breakpoint 1's symbol); a hit with no
    /// id belongs to the only breakpoint that is not one-shot, when there is just one.
    mutating func attribute(_ id: String?) -> Attribution {
        // A log that shows no breakpoint attributes nothing: its every hit asks.
        if id == nil, breakpoints.isEmpty { return (nil, nil) }
        if attributionsVersion != version {
            attributions.removeAll(keepingCapacity: true)
            lastAttribution = nil
            attributionsVersion = version
        }
        let key = id ?? ""
        if lastAttribution?.key == key { return lastAttribution!.result }
        if let cached = attributions[key] {
            lastAttribution = (key, cached)
            return cached
        }
        var result: Attribution = (id, nil)
        if let id {
            let number = String(id.split(separator: ".").first ?? "")
            if let at = index[number] { result.api = breakpoints[at].symbol }
        } else {
            let candidates = breakpoints.filter { !$0.oneShot }
            if candidates.count == 1 { result = (candidates[0].id, candidates[0].symbol) }
        }
        attributions[key] = result
        lastAttribution = (key, result)
        return result
    }
}
