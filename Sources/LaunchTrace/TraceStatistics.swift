import ImgtraceSupport
/// What the reader counts while it reads: names and their tallies, hits by status, which
/// debugger's lines it saw, and the first line of each kind of trouble for the warnings.
struct TraceStatistics {
    var names = NameStatistics()
    private var statusCounts = [Int](repeating: 0, count: LoadStatus.allCases.count)
    private(set) var hits = 0
    /// Hits merged into the request they belong to (`RequestMerger`).
    var mergedHits = 0
    /// Of them, those whose lines named no thread: joined by the call graph alone.
    var mergedWithoutThread = 0
    /// Requests whose lines named no thread that began at an API other image APIs call: each may
    /// be another thread's request's inner call.
    var startedInsideWithoutThread = 0
    /// The last API asked about: a log names one API hit after hit, and the table's lookup by
    /// prefix is a scan.
    private var lastAPI: (name: String, calledByAnother: Bool)?

    /// Whether other image APIs call `api` (`ImageAPIs.calledByAnother`).
    mutating func isCalledByAnother(_ api: String) -> Bool {
        if let lastAPI, lastAPI.name == api { return lastAPI.calledByAnother }
        let answer = ImageAPIs.index(of: api).map { ImageAPIs.calledByAnother & (1 << UInt64($0)) != 0 } ?? false
        lastAPI = (api, answer)
        return answer
    }
    /// Loads by kind, where the log tells, in `LoadKind.allCases` order (counted per request:
    /// an array, not a dictionary).
    var kindCounts = [Int](repeating: 0, count: LoadKind.allCases.count)

    /// Loads by kind, the kinds seen only.
    var kinds: [LoadKind: Int] {
        var out: [LoadKind: Int] = [:]
        for (kind, count) in zip(LoadKind.allCases, kindCounts) where count > 0 { out[kind] = count }
        return out
    }
    var lldbEvidence = 0
    var gdbEvidence = 0
    /// lldb ≤ 16 prints `(type) $N = value`, lldb 17+ `(type) value`.
    var lldbOld = 0
    var lldbNew = 0
    private var invalidNames = 0
    private var firstInvalidNameLine: Int?
    private var firstSkipLine: Int?
    private var firstErrorLine: Int?
    private var firstErrorDetail: String?

    /// Counts one settled hit; `detail` is read only for the first error (a copy per hit is a retain).
    mutating func record(status: LoadStatus, line: Int, detail: @autoclosure () -> String?) {
        hits += 1
        statusCounts[status.ordinal] += 1
        switch status {
        case .skipped:
            if firstSkipLine == nil { firstSkipLine = line }
        case .error:
            if firstErrorLine == nil {
                firstErrorLine = line
                firstErrorDetail = detail()
            }
        default:
            break
        }
    }

    /// Counts a delivered name that was not valid UTF-8.
    mutating func recordInvalidName(line: Int) {
        invalidNames += 1
        if firstInvalidNameLine == nil { firstInvalidNameLine = line }
    }

    var countsByStatus: [LoadStatus: Int] {
        var out: [LoadStatus: Int] = [:]
        for status in LoadStatus.allCases { out[status] = statusCounts[status.ordinal] }
        return out
    }

    /// The debugger the lines point to, and its era when the value lines tell.
    var debugger: (kind: DebuggerKind, version: String?) {
        let kind: DebuggerKind = lldbEvidence > 0 && lldbEvidence >= gdbEvidence ? .lldb : (gdbEvidence > 0 ? .gdb : .unknown)
        switch kind {
        case .lldb:
            if lldbNew > lldbOld { return (kind, "lldb 17 or newer (Xcode 15+)") }
            return (kind, lldbOld > 0 ? "lldb 16 or older" : nil)
        case .gdb: return (kind, "gdb")
        case .unknown: return (kind, hits > 0 ? "no debugger lines (Xcode console?)" : nil)
        }
    }

    // MARK: Warnings

    /// What a user should know about the capture as a whole.
    /// `typedPrints`: the print commands typed at the prompt outside any stop, and the first's line.
    func warnings(truncatedAt: Int?, launchEndPattern: String?, launchEndFound: Bool, typedPrints: (count: Int, line: Int)? = nil) -> [TraceWarning] {
        var out: [TraceWarning] = []
        let counts = countsByStatus
        let ok = counts[.ok] ?? 0
        if hits == 0, let typed = typedPrints, typed.count > 0 {
            // A session typed by hand: say exactly why its output is not read.
            out.append(
                TraceWarning(
                    line: typed.line,
                    message:
                        "\(counted(typed.count, "print command")) typed at the prompt, with no breakpoint stop before \(typed.count == 1 ? "it" : "them"): their output is not read as loads, since nothing shows the process stopped in an image API; keep the `Process … stopped … imageNamed:` lines of each stop, or capture with `imgtrace lldb-script`"
                ))
        } else if hits == 0 {
            out.append(
                TraceWarning(
                    line: nil, message: "no image loads found: expected the output of a breakpoint action such as `po $arg3` on +[UIImage imageNamed:] (see `imgtrace lldb-script`)"
                ))
        } else if ok == 0 {
            out.append(noNameWarning(counts))
        } else {
            if let errors = counts[.error], errors > 0 {
                out.append(TraceWarning(line: firstErrorLine, message: "\(counted(errors, "hit")) failed: \(firstErrorDetail ?? "the action reported an error")"))
            }
            if let addresses = counts[.addressOnly], addresses > 0 {
                out.append(TraceWarning(line: nil, message: "\(counted(addresses, "hit")) printed only an address, not a name"))
            }
        }
        if let skips = counts[.skipped], skips > 0 {
            out.append(
                TraceWarning(
                    line: firstSkipLine,
                    message:
                        "\(skips) hit\(skips == 1 ? " was" : "s were") skipped by the debugger: \(skips == 1 ? "its name is" : "their names are") lost and the audit is incomplete")
            )
        }
        if invalidNames > 0 {
            out.append(
                TraceWarning(
                    line: firstInvalidNameLine, message: "\(counted(invalidNames, "name")) contained invalid UTF-8, kept with U+FFFD replacement characters"))
        }
        if mergedWithoutThread > 0 || startedInsideWithoutThread > 0 {
            out.append(
                TraceWarning(
                    line: nil,
                    message:
                        "the capture names no thread (`--style print`): \(counted(mergedWithoutThread, "hit")) joined an open request and \(counted(startedInsideWithoutThread, "request")) began at an API other image APIs call, by the call graph alone; if threads loaded images at once, the count of requests may be up to \(mergedWithoutThread) too low or \(startedInsideWithoutThread) too high (a capture that names threads, `lldb-script`'s default, counts them exactly)"
                ))
        }
        if let truncatedAt {
            out.append(TraceWarning(line: truncatedAt, message: "the log ends inside a hit (truncated capture)"))
        }
        if let launchEndPattern, !launchEndFound {
            out.append(TraceWarning(line: nil, message: "launch-end pattern \(SafeText.quoted(launchEndPattern)) never matched: the whole log is treated as launch"))
        }
        return out
    }

    /// Why a log with hits gave no name at all, with the fix when the cause is known.
    private func noNameWarning(_ counts: [LoadStatus: Int]) -> TraceWarning {
        if counts[.error] == hits {
            if let register = ErrorText.undeclaredRegister(firstErrorDetail) {
                return TraceWarning(line: firstErrorLine, message: "every hit failed: \(SafeText.quoted(register)) is not a register on this architecture — use `$arg3`")
            }
            return TraceWarning(line: firstErrorLine, message: "every hit failed: \(firstErrorDetail ?? "the action reported an error")")
        }
        if (counts[.addressOnly] ?? 0) > 0 && (counts[.error] ?? 0) == 0 && (counts[.skipped] ?? 0) == 0 {
            return TraceWarning(
                line: nil, message: "every hit printed an address, not a name: the debugger found no object description — print the string with `p (char *)[$arg3 UTF8String]`")
        }
        return TraceWarning(line: nil, message: "no hit printed a name")
    }
}
