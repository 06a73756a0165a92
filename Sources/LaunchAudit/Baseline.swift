import AuditModel
import AuditRules
import ImgtraceSupport

/// What `imgtrace baseline write` records: the launch figures and every finding's fingerprint.
/// Pretty-printed, one finding per line, sorted by fingerprint, so it diffs well in review.
public struct Baseline: Equatable, Sendable {
    /// One recorded finding: its fingerprint and what it said.
    public struct Entry: Equatable, Sendable {
        public init(
            fingerprint: String, rule: String, severity: String, message: String, formerly: [String] = [], gates: Bool = true, rules: [String] = []
        ) {
            self.fingerprint = fingerprint
            self.rule = rule
            self.severity = severity
            self.message = message
            self.formerly = formerly
            self.gates = gates
            self.rules = rules
        }

        public var fingerprint: String
        public var rule: String
        public var severity: String
        public var message: String
        /// The fingerprints schema-1 baselines knew this finding by (an image's finding, which
        /// replaced one finding per rule); an older baseline that holds one of them holds this.
        public var formerly: [String] = []
        /// False for the toolkit's own lookups, which never fail a run (`Finding.gates`).
        public var gates = true
        /// For an image's finding, the rules that fired (`Finding.foldedRules`): the baseline
        /// accepts the image for these only. Empty in schema 2 files, which accepted any.
        public var rules: [String] = []
    }

    /// The schema `render` writes. Schema 5 records the app and the image names the launch asked
    /// for, each with its loads and bytes. Schema 4 records per-launch figures: the median launch's,
    /// the number of launches and their range. Schema 3 recorded which of an image's rules fired
    /// (and figures that summed several launches); schema 2 gave each image one finding
    /// (`ImageFindings`); schema 1 files are read and matched through `Entry.formerly`.
    public static let schemaVersion = 5
    /// The first schema whose launch figures are one launch's whatever the number of launches.
    static let perLaunchSchema = 4

    /// Which command's findings a baseline holds. A file of one is refused by the other: its
    /// findings would all read as fixed, and the other's as new.
    public enum Scope: String, Sendable {
        /// `imgtrace analyze` and `baseline write` (files without a `scope` field).
        case launch
        /// `imgtrace unused --write-baseline`.
        case unused
    }

    public var scope = Scope.launch
    public var device: String
    /// The median launch's figures, with the number of launches and their range.
    public var launchSpread: PhaseSpread
    /// The median launch's figures, what a comparison compares.
    public var launch: PhaseMetrics { launchSpread.median }
    /// The schema the file was written in (`schemaVersion` for one made here).
    public var schema = Baseline.schemaVersion
    /// Whether its launch figures may be the sum of several launches (a file written before
    /// schema 4 from several logs): compared as they are, and said in a warning.
    public var mayHoldSummedLaunches: Bool { schema < Self.perLaunchSchema }
    public var findings: [Entry]
    /// The app the launch was of (its bundle's name); nil in files before schema 5.
    public var app: String?
    /// The image names the median launch asked for, by name; nil in files before schema 5.
    public var images: [ImageRecord]?
    /// Entries whose fingerprint an earlier entry already had: read once (a file of copies
    /// would otherwise count every copy fixed), and said in a warning.
    public var duplicateEntries = 0

    /// Rules whose findings a baseline never accepts: they fail every run they appear in.
    public static let alwaysJudged: Set<String> = [NoEvidenceRule.id, BudgetExceededRule.id, BaselineRegressionRule.id]

    /// What a baseline records of `result`, in the scope of the command that made it.
    public init<Result: CommandResult>(_ result: Result) {
        scope = Result.baselineScope
        device = result.device.id
        launchSpread = result.launchFigures
        findings = result.findings.map { Entry($0) }
            .sorted { $0.fingerprint < $1.fingerprint }
        app = result.bundleNames.first
        if let audit = result as? AuditResult { images = ImageRecord.of(audit.uses, launches: audit.launchFigures.launches) }
    }

    /// The figures a baseline keeps, by their JSON names.
    static func figures(_ m: PhaseMetrics) -> [(String, Int)] {
        [
            ("loads", m.loads), ("names", m.names), ("images", m.images), ("decodedBytes", m.decodedBytes),
            ("bytesOnDisk", m.bytesOnDisk), ("missing", m.missing), ("repeated", m.repeated), ("unreadable", m.unreadable),
            ("largestImageDecodedBytes", m.largestImageDecodedBytes),
        ]
    }

    public func render() -> [UInt8] {
        var out = "{\n  \"schemaVersion\": \(Self.schemaVersion),\n  \"kind\": \"imgtrace-baseline\",\n"
        if scope != .launch { out += "  \"scope\": \"\(scope.rawValue)\",\n" }
        if let app { out += "  \"app\": " + Self.quoted(app) + ",\n" }
        out += "  \"device\": " + Self.quoted(device) + ",\n  \"launch\": {"
        out += Self.figureFields(launch) + "},\n"
        out += "  \"launches\": \(launchSpread.launches),\n"
        out += "  \"launchRange\": {\"min\": {\(Self.figureFields(launchSpread.range.min))}, \"max\": {\(Self.figureFields(launchSpread.range.max))}},\n"
        out += "  \"findings\": ["
        // Budget, evidence and regression findings are judged afresh every run: none is recorded.
        let recorded = findings.filter { !Self.alwaysJudged.contains($0.rule) }
        out +=
            recorded.isEmpty
            ? ""
            : "\n"
                + recorded.map { entry in
                    "    {\"fingerprint\": \(Self.quoted(entry.fingerprint)), \"rule\": \(Self.quoted(entry.rule)), "
                        + "\"severity\": \(Self.quoted(entry.severity)), \"message\": \(Self.quoted(entry.message))"
                        + (entry.formerly.isEmpty ? "" : ", \"formerly\": [" + entry.formerly.map(Self.quoted).joined(separator: ", ") + "]")
                        + (entry.rules.isEmpty ? "" : ", \"rules\": [" + entry.rules.map(Self.quoted).joined(separator: ", ") + "]")
                        + (entry.gates ? "" : ", \"gates\": false") + "}"
                }.joined(separator: ",\n") + "\n  "
        out += "]"
        if let images {
            // One image a line, by name: a review sees which images a new baseline adds or drops.
            out += ",\n  \"images\": [" + (images.isEmpty ? "" : "\n")
            out += images.map { record in
                "    {\"name\": \(Self.quoted(record.name)), " + (record.image.map { "\"image\": \(Self.quoted($0)), " } ?? "")
                    + "\"loads\": \(record.loads), \"decodedBytes\": \(record.decodedBytes), \"bytesOnDisk\": \(record.bytesOnDisk)}"
            }.joined(separator: ",\n")
            out += images.isEmpty ? "]" : "\n  ]"
        }
        out += "\n}\n"
        return Array(out.utf8)
    }

    /// A launch's figures as JSON fields, by their names; main-thread image time only when the
    /// capture timed it (`record --agent`): a baseline without it compares no time.
    private static func figureFields(_ m: PhaseMetrics) -> String {
        var figures = Self.figures(m)
        if let time = m.typicalMainThreadImageMicroseconds { figures.append(("mainThreadImageMicroseconds", time)) }
        return figures.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ")
    }

    private static func quoted(_ text: String) -> String {
        var w = JSONText()
        w.string(text)
        return String(decoding: w.bytes, as: UTF8.self)
    }

    /// Reads a baseline file of `scope` (nil: of either); anything else is an `InputError` naming the file.
    public static func load(path: String, scope: Scope? = .launch) throws -> Baseline {
        let baseline = try parse(try SmallFile.read(path, maxBytes: SmallFile.maxBaselineBytes), path: path)
        if let scope, baseline.scope != scope {
            let writer = [Scope.launch: "`imgtrace baseline write`", .unused: "`imgtrace unused --write-baseline`"]
            throw InputError(path: path, reason: "a baseline written by \(writer[baseline.scope]!), not by \(writer[scope]!)")
        }
        return baseline
    }

    /// Parses a baseline's bytes; `path` names it in errors.
    public static func parse(_ bytes: [UInt8], path: String) throws -> Baseline {
        // Our own small JSON reader: a baseline of 100,000 findings costs about twice its text,
        // where Foundation's object graph cost fifteen times.
        let object: JSONValue
        do { object = try JSONValue.parse(bytes) } catch let error as FormatError {
            // A log or a report given by mistake: say what the file is not before where JSON broke.
            throw InputError(path: path, location: "offset \(error.offset)", reason: "not an imgtrace baseline: not JSON (\(error.reason))")
        }
        guard case .object = object else { throw InputError(path: path, reason: "not a JSON object") }
        guard object["kind"]?.string == "imgtrace-baseline", let version = object["schemaVersion"]?.int, (1...schemaVersion).contains(version) else {
            throw InputError(path: path, reason: "not an imgtrace baseline (schemaVersion 1 or \(schemaVersion), kind imgtrace-baseline)")
        }
        guard let device = object["device"]?.string, let launch = object["launch"], case .object = launch,
            let entries = object["findings"]?.array
        else {
            throw InputError(path: path, reason: "a baseline needs `device`, `launch` and `findings`")
        }
        var spread = PhaseSpread(single: try figures(of: launch, at: "launch", path: path))
        if version >= perLaunchSchema {
            guard let launches = object["launches"]?.int, launches >= 1 else {
                throw InputError(path: path, reason: "`launches` is missing or not a whole number ≥ 1")
            }
            spread.launches = launches
            if let range = object["launchRange"] {
                guard let low = range["min"], let high = range["max"], case .object = low, case .object = high else {
                    throw InputError(path: path, reason: "`launchRange` needs objects `min` and `max`")
                }
                spread.range = PhaseRange(
                    min: try figures(of: low, at: "launchRange.min", path: path), max: try figures(of: high, at: "launchRange.max", path: path))
            }
        }
        let (findings, duplicates) = try Self.entries(entries, path: path)
        var baseline = Baseline(device: device, launchSpread: spread, findings: findings)
        baseline.duplicateEntries = duplicates
        baseline.app = object["app"]?.string
        if let images = object["images"] {
            baseline.images = try imageRecords(images, path: path)
        }
        baseline.schema = version
        if let scope = object["scope"] {
            guard let name = scope.string, let known = Scope(rawValue: name) else {
                throw InputError(path: path, reason: "`scope` is neither \"launch\" nor \"unused\"")
            }
            baseline.scope = known
        }
        return baseline
    }

    init(device: String, launchSpread: PhaseSpread, findings: [Entry]) {
        self.device = device
        self.launchSpread = launchSpread
        self.findings = findings
    }

    /// A baseline made elsewhere than from one run: the median of a history's recent builds.
    public init(device: String, app: String?, launchSpread: PhaseSpread, findings: [Entry], images: [ImageRecord]?) {
        self.init(device: device, launchSpread: launchSpread, findings: findings)
        self.app = app
        self.images = images
    }

    /// The `findings` entries, each fingerprint once, and how many repeated one.
    private static func entries(_ entries: [JSONValue], path: String) throws -> (findings: [Entry], duplicates: Int) {
        var findings: [Entry] = []
        var seen = Set<String>()
        var duplicates = 0
        for (index, entry) in entries.enumerated() {
            guard let fingerprint = entry["fingerprint"]?.string, let rule = entry["rule"]?.string else {
                throw InputError(path: path, reason: "finding \(index + 1) needs `fingerprint` and `rule`")
            }
            guard seen.insert(fingerprint).inserted else {
                duplicates += 1
                continue
            }
            findings.append(
                Entry(
                    fingerprint: fingerprint, rule: rule, severity: entry["severity"]?.string ?? "", message: entry["message"]?.string ?? "",
                    formerly: entry["formerly"]?.array?.compactMap(\.string) ?? [], gates: entry["gates"]?.bool ?? true,
                    rules: entry["rules"]?.array?.compactMap(\.string) ?? []))
        }
        return (findings, duplicates)
    }

    /// The `images` array: each an object with `name`, `loads`, `decodedBytes`, `bytesOnDisk` and maybe `image`.
    private static func imageRecords(_ array: JSONValue, path: String) throws -> [ImageRecord] {
        guard let items = array.array else { throw InputError(path: path, reason: "`images` is not an array") }
        return try items.enumerated().map { index, item in
            guard let name = item["name"]?.string, let loads = item["loads"]?.int, let decoded = item["decodedBytes"]?.int,
                let onDisk = item["bytesOnDisk"]?.int, loads >= 0, decoded >= 0, onDisk >= 0
            else {
                throw InputError(path: path, reason: "image \(index + 1) needs `name` and whole numbers ≥ 0 `loads`, `decodedBytes` and `bytesOnDisk`")
            }
            return ImageRecord(name: name, image: item["image"]?.string, loads: loads, decodedBytes: decoded, bytesOnDisk: onDisk)
        }
    }

    /// One launch's figures from the object at `key` (`launch`, `launchRange.min`, …).
    private static func figures(of object: JSONValue, at key: String, path: String) throws -> PhaseMetrics {
        var metrics = PhaseMetrics()
        func figure(_ name: String) throws -> Int {
            guard let value = object[name]?.int, value >= 0 else {
                throw InputError(path: path, reason: "`\(key).\(name)` is missing or not a whole number ≥ 0")
            }
            return value
        }
        metrics.loads = try figure("loads")
        metrics.names = try figure("names")
        metrics.images = try figure("images")
        metrics.decodedBytes = try figure("decodedBytes")
        metrics.bytesOnDisk = try figure("bytesOnDisk")
        metrics.missing = try figure("missing")
        metrics.repeated = try figure("repeated")
        metrics.unreadable = try figure("unreadable")
        metrics.largestImageDecodedBytes = try figure("largestImageDecodedBytes")
        if object["mainThreadImageMicroseconds"] != nil { metrics.typicalMainThreadImageMicroseconds = try figure("mainThreadImageMicroseconds") }
        return metrics
    }
}

extension Baseline.Entry {
    /// What a baseline records of a finding.
    init(_ finding: Finding) {
        self.init(
            fingerprint: finding.fingerprint, rule: finding.rule, severity: finding.severity.rawValue, message: finding.message.text,
            formerly: finding.formerFingerprints, gates: finding.gates, rules: finding.foldedRules)
    }
}
