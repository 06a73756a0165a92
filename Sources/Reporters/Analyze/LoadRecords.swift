import ImgtraceSupport
import LaunchAudit
import LaunchTrace

/// Every load of an audit with what it resolved to, encoded as it streams by and held in a
/// `SpillBuffer`: a log of any size is listed with bounded memory, after figures that must come
/// first. Made by the caller when a chosen format `needsLoadRecords`.
public final class LoadRecords {
    private let loads = SpillBuffer()
    private var first = true
    private var writer = JSONText()

    public init() {}

    /// Encodes one load of log `log` with what it resolved to (nil for hits without a name).
    public func add(_ load: ImageLoad, log: Int, resolution: Resolution?) {
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
            writer.field("how", resolution?.how)
            writer.endObject()
        } else {
            writer.null()
        }
        writer.field("missingReason", resolution?.image == nil ? resolution?.how : nil)
        writer.endObject()
        if !first { loads.append([UInt8(ascii: ",")]) }
        first = false
        loads.append(writer.bytes)
    }

    /// Writes the records held, comma-separated, keeping them for another report.
    func replay(into sink: ByteSink) {
        loads.replay(into: sink)
    }
}
