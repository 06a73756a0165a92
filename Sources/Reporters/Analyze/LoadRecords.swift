import AppBundle
import AuditModel
import ImgtraceSupport
import LaunchTrace

/// Every load of an audit with what it resolved to, encoded as it streams by and held in a
/// `SpillBuffer`: a log of any size is listed with bounded memory, after figures that must come
/// first. Made by the caller when a chosen format `needsLoadRecords`.
public final class LoadRecords {
    private let loads = SpillBuffer()
    private var first = true
    private var writer = JSONText()
    /// The first `maxRows` loads as tables show them (the HTML report), in log order.
    public private(set) var rows: [Row] = []
    /// Every load added, shown or not.
    public private(set) var total = 0
    /// A page of more rows than this is too slow to open; the JSON report lists them all.
    public static let maxRows = 5_000

    /// One load as a table row.
    public struct Row {
        public var log: Int
        public var seq: Int
        public var line: Int
        /// The name, or `(nil)`, `(empty)`, `(unreadable)`.
        public var name: String
        public var afterLaunch: Bool
        public var image: BundleImage?
        /// How the name resolved, or why it did not.
        package var how: Phrase
        /// Its thread, its start on the log's clock and how long it ran, when the capture timed it.
        public var thread: String?
        public var timestamp: LogTimestamp?
        public var microseconds: Int?
    }

    private let keepsRows: Bool

    /// `keepingRows: false` keeps no `rows` (3 MB at 5,000 loads) for formats that list only the encoded loads.
    public init(keepingRows: Bool = true) { keepsRows = keepingRows }

    /// Encodes one load of log `log` with what it resolved to (nil for hits without a name).
    public func add(_ load: ImageLoad, log: Int, resolution: Resolution?) {
        total += 1
        if keepsRows, rows.count < Self.maxRows {
            let name: String
            switch load.status {
            case .ok: name = load.name ?? "(nil)"
            case .nil: name = "(nil)"
            case .empty: name = "(empty)"
            default: name = "(unreadable: \(load.status.rawValue))"
            }
            rows.append(
                Row(
                    log: log, seq: load.seq, line: load.line, name: name, afterLaunch: load.phase == .afterLaunch,
                    image: resolution?.image, how: resolution?.how ?? "no name to resolve", thread: load.thread, timestamp: load.timestamp,
                    microseconds: load.microseconds))
        }
        writer.removeAll()
        writer.beginObject()
        writer.field("log", log)
        TraceJSONReport.encodeFields(load, into: &writer)
        writer.key("resolved")
        if let image = resolution?.image {
            writer.beginObject()
            writer.field("id", image.id)
            writer.field("source", image.source.rawValue)
            writer.field("bundle", image.bundle)
            writer.field("path", image.path)
            writer.field("how", resolution?.how.text)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.field("missingReason", resolution?.image == nil ? resolution?.how.text : nil)
        writer.endObject()
        if !first { loads.append([UInt8(ascii: ",")]) }
        first = false
        writer.withBytes { loads.append($0) }
    }

    /// Writes the records held, comma-separated, keeping them for another report.
    func replay(into sink: ByteSink) {
        loads.replay(into: sink)
    }
}
