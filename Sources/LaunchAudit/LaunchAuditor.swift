import AppBundle
import AuditModel
import AuditPolicy
import ImgtraceSupport
import LaunchTrace

/// Resolves a stream of loads against an inventory and judges them.
///
/// Feed each log's events in order between `beginLog` and `endLog`, then call `finish`. Memory
/// grows with the number of distinct names, not with the number of loads, so a log of any size
/// can be streamed through; `add` returns each load's resolution for reporters that list loads.
public final class LaunchAuditor {
    public let device: DeviceProfile
    public let config: AuditConfig
    /// The baseline's launch figures, when the run is compared with one.
    let baseline: PhaseMetrics?
    let baselineImages: [ImageRecord]?
    public let inventory: BundleInventory
    /// `--system-images` folders: the toolkit's images, told apart from the app's in figures and findings.
    let systemBundles: Set<String>
    private let resolver: NameResolver
    /// The app's module names (executables of the app and its nested bundles): a backtrace
    /// frame in one of them makes a load the app's.
    let appModules: Set<String>
    /// Whether any backtrace showed a frame of the app's modules. Backtraces in which the app
    /// never appears (the log of another program, a bundle whose executable is named otherwise)
    /// cannot tell whose a load is: then only `toolkit.names` decides.
    var sawAppFrame = false
    var loadsJudgedByFrames = 0

    /// What the audit counts of one slot while it reads, beside the slot's `NameUse`.
    struct SlotTally {
        /// The APIs that asked for it, and the last one (consecutive loads mostly share it).
        var apis: Set<String> = []
        var lastAPI: String?
        /// Launch loads without a backtrace: the toolkit's if the name is in `toolkit.names`,
        /// which `finish` asks once per name that has any.
        var launchLoadsWithoutFrames: Int32 = 0
        /// Loads of the current log, in the launch window and after it.
        var logLaunch = 0
        var logAfter = 0
    }

    struct Key: Hashable {
        var kind: RequestKind
        var status: LoadStatus
        var name: String?
    }
    /// Slots by name, for loads the fast path does not find. Names and paths of one log find
    /// theirs by the reader's name id: they enter it only when a next log or a load without an id
    /// needs it (`indexEveryName`), which saves the dictionary's 70 bytes per name of a single log.
    var index: [Key: Int] = [:]
    private var indexesEveryName = false
    private var unindexedNames = 0
    /// Per slot (a distinct name of a kind and status): what the result keeps of it, and what
    /// only the audit needs while it reads (`tallies`, same slots).
    var uses: [NameUse] = []
    var tallies: [SlotTally] = []
    /// Each distinct resolution text once (`Resolution.how`), shared by every name it explains.
    private var explanations: [Phrase: Phrase] = [:]
    /// Slot per (reader name id × 2 + path bit), for the current log; -1 when unseen.
    var slotForNameID: [Int] = []
    private var lastKind: (api: String?, load: LoadKind?, kind: RequestKind)?
    var unreadable: [LoadStatus: UnreadableHits] = [:]
    private var logUnreadable = (launch: 0, after: 0)
    /// Whether the current log (one process) has made its first image request yet.
    private var logSawRequest = false
    /// The current log's timed launch requests, in all and per name (slot: main-thread time).
    private var logTime = ImageTime()
    private var logMainTime: [Int: Int] = [:]
    var logs: [LogReport] = []
    /// The current log's bare lines set aside, and whether each bare name seen resolves (a console
    /// repeats its app's lines: each is resolved once).
    private var logSetAside = SetAsideLines()
    private var bareNameResolves: [String: Bool] = [:]
    /// The shape of each bare name of the current log not loaded yet, by the reader's name id.
    private var bareShapes: [Int: NameShape] = [:]
    /// Per log, the slots of its unresolved names at launch and after: whether each is missing
    /// from the app is settled only at `finish`, once the toolkit's names are known.
    var logUnresolved: [(launch: [Int], after: [Int])] = []
    private var currentLog = -1
    private var currentPath = ""

    /// `baseline`: the launch figures of the baseline the run is compared with (`--baseline`), for
    /// `baseline-regression`; `baselineImages` its launch's image names, when it kept them, so a
    /// worse figure names the images that moved it.
    public init(
        inventory: BundleInventory, device: DeviceProfile, config: AuditConfig = AuditConfig(), baseline: PhaseMetrics? = nil,
        baselineImages: [ImageRecord]? = nil
    ) {
        self.baseline = baseline
        self.baselineImages = baselineImages
        self.inventory = inventory
        systemBundles = Set(inventory.bundles.filter { $0.kind == .systemImages }.map(\.id))
        self.device = device
        self.config = config
        resolver = NameResolver(inventory: inventory, device: device)
        appModules = Self.modules(of: inventory)
    }

    /// The file names of the executables the app ships: each bundle's `CFBundleExecutable`, or
    /// its folder name without the extension.
    static func modules(of inventory: BundleInventory) -> Set<String> {
        var modules = Set<String>()
        for bundle in inventory.bundles where bundle.kind != .systemImages && bundle.kind != .sourceCatalog && bundle.kind != .folder {
            if let executable = bundle.info?.executable { modules.insert(executable) }
            let folder = PathText.fileName(bundle.name)
            if let dot = folder.lastIndex(of: "."), dot > folder.startIndex { modules.insert(String(folder[..<dot])) }
        }
        return modules
    }

    /// Starts the next log; loads added until `endLog` belong to it.
    public func beginLog(_ path: String) {
        currentLog = logs.count
        currentPath = path
        for i in tallies.indices {
            tallies[i].logLaunch = 0
            tallies[i].logAfter = 0
        }
        logUnreadable = (0, 0)
        logSawRequest = false
        logSetAside = SetAsideLines()
        bareShapes = [:]
        slotForNameID.removeAll(keepingCapacity: true)
        if !uses.isEmpty { indexEveryName() }
    }

    private func indexEveryName() {
        indexesEveryName = true
        guard unindexedNames > 0 else { return }
        for (slot, use) in uses.enumerated() { index[Key(kind: use.kind, status: use.status, name: use.name)] = slot }
        unindexedNames = 0
    }

    /// `RequestKind.of`, remembered for the last API and kind seen: consecutive hits mostly share them.
    private func requestKind(_ load: LoadKind?, api: String?, name: String) -> RequestKind {
        guard let api else { return RequestKind.of(load, api: nil, name: name) }
        if let last = lastKind, last.api == api, last.load == load { return last.kind }
        let kind = RequestKind.of(load, api: api, name: name)
        lastKind = (api, load, kind)
        return kind
    }

    /// Resolves one load and counts it. Returns the resolution, or nil for a hit without a name
    /// (error, address only, skipped), which only counts towards `trace-unreadable`, and for a
    /// bare console line set aside as the app's output (a named bare line with no resolution:
    /// no load at all, which a listing of every load leaves out).
    @discardableResult
    public func add(_ load: ImageLoad) -> Resolution? {
        let here = LogLine(log: currentLog, line: load.line)
        let launch = load.phase == .launch
        switch load.status {
        case .error, .addressOnly, .skipped:
            var hits = unreadable[load.status] ?? UnreadableHits(status: load.status, count: 0, lines: [])
            hits.count += 1
            if hits.lines.count < Finding.maxLines { hits.lines.append(here) }
            unreadable[load.status] = hits
            if launch { logUnreadable.launch += 1 } else { logUnreadable.after += 1 }
            return nil
        case .ok, .nil, .empty:
            break
        }
        let name = load.status == .ok ? load.name : nil
        // A bare line set aside is no load: nil, as a named load never is.
        if load.fromBareLine, let name, !config.namesOnly, setsAside(name, id: load.nameID, line: load.line) { return nil }
        let kind = name.map { requestKind(load.kind, api: load.api, name: $0) } ?? .name
        let slot = slot(for: load, name: name, kind: kind, at: here)
        if let api = load.api, tallies[slot].lastAPI != api {
            tallies[slot].lastAPI = api
            tallies[slot].apis.insert(api)
        }
        if launch {
            if !logSawRequest {
                // The process's first request carries the toolkit's one-time set-up.
                logSawRequest = true
                uses[slot].includesFirstRequest = true
            }
            uses[slot].addLaunchLoad(at: here)
            if load.kind == .nib { uses[slot].nibLaunchLoads += 1 }
            // Without the app's module names a backtrace cannot show an app frame: it decides nothing.
            var owner = LoadOwner.unknown
            if !load.backtrace.isEmpty, !appModules.isEmpty {
                // A nib, a SwiftUI view or a trait change names the app's image, whoever looks it up.
                let anyAppFrame = load.kind == .nib || load.kind == .swiftui || load.kind == .trait
                owner = LoadOwner.of(load.backtrace, appModules: appModules, rule: anyAppFrame ? .anyAppFrame : .immediateCaller)
            }
            switch owner {
            case .toolkit:
                uses[slot].toolkitLaunchLoads += 1
                loadsJudgedByFrames += 1
            case .app:
                sawAppFrame = true
                loadsJudgedByFrames += 1
            case .unknown:
                tallies[slot].launchLoadsWithoutFrames += 1
            }
            tallies[slot].logLaunch += 1
            if let microseconds = load.microseconds {
                uses[slot].launchTime.add(microseconds, own: load.ownMicroseconds, onMainThread: load.isOnMainThread)
                logTime.add(microseconds, own: load.ownMicroseconds, onMainThread: load.isOnMainThread)
                logMainTime[slot, default: 0] += load.isOnMainThread ? microseconds : 0
            }
        } else {
            uses[slot].afterLaunchLoads += 1
            tallies[slot].logAfter += 1
        }
        return uses[slot].resolution
    }

    /// Whether a bare console line is set aside, not a load: it resolves to no image and does
    /// not have a name's shape (`NameShape`). Counted either way it is set aside. A name the log
    /// already loaded is judged by its reader id alone: the shape is read once per name.
    private func setsAside(_ name: String, id: Int?, line: Int) -> Bool {
        if let id, id * 2 + 1 < slotForNameID.count, slotForNameID[id * 2] >= 0 || slotForNameID[id * 2 + 1] >= 0 { return false }
        if let id, let known = bareShapes[id] {
            if known == .name { return false }
            return countSetAside(name, shape: known, line: line)
        }
        let shape = NameShape.of(name)
        // A name's shape needs no memory: its load makes a slot, which the first line checks.
        guard shape != .name else { return false }
        if let id, bareShapes.count < 65_536 { bareShapes[id] = shape }
        return countSetAside(name, shape: shape, line: line)
    }

    /// Counts a bare line that does not have a name's shape, unless it resolves: then it is a load.
    private func countSetAside(_ name: String, shape: NameShape, line: Int) -> Bool {
        let resolves: Bool
        if let known = bareNameResolves[name] {
            resolves = known
        } else {
            resolves = resolver.resolve(name, kind: .name).image != nil
            if bareNameResolves.count < 65_536 { bareNameResolves[name] = resolves }
        }
        guard !resolves else { return false }
        if shape == .output { logSetAside.addOutput(name, line: line) } else { logSetAside.addUnsure(name, line: line) }
        return true
    }

    /// The slot of the load's name (of its kind and status), made and resolved on its first load.
    private func slot(for load: ImageLoad, name: String?, kind: RequestKind, at here: LogLine) -> Int {
        // The reader's interned id finds the slot without hashing the name (a 1 GB log has millions of hits).
        // Names and paths (nearly every load) get a slot per id; other kinds go through the dictionary.
        let fastIndex = kind.ordinal < 2 ? load.nameID.map { $0 * 2 + kind.ordinal } : nil
        var slot = -1
        if let fastIndex, fastIndex < slotForNameID.count { slot = slotForNameID[fastIndex] }
        if slot < 0, fastIndex == nil { indexEveryName() }
        if slot < 0, let found = index[Key(kind: kind, status: load.status, name: name)] {
            slot = found
        } else if slot < 0 {
            slot = uses.count
            if fastIndex == nil || indexesEveryName {
                index[Key(kind: kind, status: load.status, name: name)] = slot
            } else {
                unindexedNames += 1
            }
            let resolution: Resolution
            switch load.status {
            case .nil: resolution = Resolution(image: nil, how: "the app passed nil (UIKit logs `Invalid asset name supplied: '(null)'`)", cause: .nilName)
            case .empty: resolution = Resolution(image: nil, how: "the app passed an empty name", cause: .emptyName)
            default:
                var found = resolver.resolve(name ?? "", kind: kind)
                // Most missing names share one explanation: keep one copy of its text, not one per name.
                if let shared = explanations[found.how] { found.how = shared } else if explanations.count < 4096 { explanations[found.how] = found.how }
                resolution = found
            }
            uses.append(NameUse(name: name, status: load.status, kind: kind, resolution: resolution, firstLine: here))
            tallies.append(SlotTally())
        }
        if let fastIndex {
            if fastIndex >= slotForNameID.count { slotForNameID += repeatElement(-1, count: fastIndex + 1 - slotForNameID.count + 1024) }
            slotForNameID[fastIndex] = slot
        }
        return slot
    }

    /// Ends the current log with its summary.
    public func endLog(_ summary: TraceSummary) {
        for i in uses.indices where tallies[i].logLaunch > uses[i].maxLaunchLoadsPerLog { uses[i].maxLaunchLoadsPerLog = tallies[i].logLaunch }
        var metrics = AuditMetrics()
        var unresolved: (launch: [Int], after: [Int]) = ([], [])
        metrics.launch = phaseMetrics(unreadable: logUnreadable.launch, unresolved: &unresolved.launch) { tallies[$0].logLaunch }
        addDecodes(summary.decodes)
        metrics.launch.time = logTime
        if logTime.isTimed { metrics.launch.typicalMainThreadImageMicroseconds = logTime.mainThreadMicroseconds.addingSaturating(logTime.mainThreadDecodeMicroseconds) }
        metrics.launch.lengthMilliseconds = summary.recording?.launchMilliseconds
        logTime = ImageTime()
        for (slot, microseconds) in logMainTime { uses[slot].mainThreadMicrosecondsPerLaunch.append(microseconds) }
        logMainTime = [:]
        if summary.launchEnd != nil {
            metrics.afterLaunch = phaseMetrics(unreadable: logUnreadable.after, unresolved: &unresolved.after) { tallies[$0].logAfter }
        }
        var report = LogReport(path: currentPath, summary: summary, metrics: metrics)
        // The sentences the reader set aside are the app's output too.
        report.setAside = logSetAside
        report.setAside.output += summary.proseLines
        if let first = summary.firstProseLine, report.setAside.firstOutputLine.map({ first < $0 }) ?? true { report.setAside.firstOutputLine = first }
        logs.append(report)
        logUnresolved.append(unresolved)
    }

    /// The log's launch decodes, each to the name whose lookup returned the image it decodes.
    private func addDecodes(_ decodes: [ImageDecode]) {
        for decode in decodes where !decode.afterLaunch {
            guard let microseconds = decode.microseconds else { continue }
            let onMain = ImageLoad.isMainThread(decode.thread)
            let slot = decode.name.flatMap { name in uses.firstIndex { $0.name == name && $0.launchLoads > 0 } }
            logTime.addDecode(microseconds, onMainThread: onMain, attributed: slot != nil)
            guard let slot else { continue }
            uses[slot].launchTime.addDecode(microseconds, onMainThread: onMain, attributed: true)
            if onMain { logMainTime[slot, default: 0] += microseconds }
        }
    }

    /// The figures of one phase, `count(slot)` being each slot's loads in it; `unresolved` gets
    /// the slots of names that resolved to nothing (`missing` is settled by `settleMissing`).
    private func phaseMetrics(unreadable: Int, unresolved: inout [Int], count: (Int) -> Int) -> PhaseMetrics {
        var m = PhaseMetrics()
        var seen = Set<String>()
        m.unreadable = unreadable
        m.loads = unreadable
        for (i, use) in uses.enumerated() {
            let loads = count(i)
            guard loads > 0 else { continue }
            if use.kind == .data {
                // Data, not an image: apart from every image figure.
                m.dataLoads += loads
                continue
            }
            m.loads += loads
            m.names += 1
            m.repeated += loads - 1
            if use.kind == .symbol { m.symbols += 1 }
            guard let image = use.resolution.image else {
                unresolved.append(i)
                continue
            }
            guard seen.insert(image.id).inserted else { continue }
            m.images += 1
            m.decodedBytes = m.decodedBytes.addingSaturating(image.decodedBytes ?? 0)
            m.bytesOnDisk = m.bytesOnDisk.addingSaturating(image.bytesOnDisk)
            m.largestImageDecodedBytes = max(m.largestImageDecodedBytes, image.decodedBytes ?? 0)
            if systemBundles.contains(image.bundle) {
                m.systemImages += 1
                m.systemDecodedBytes = m.systemDecodedBytes.addingSaturating(image.decodedBytes ?? 0)
            }
        }
        return m
    }
}
