import AppBundle
import AssetCatalog
import AuditModel
import AuditPolicy
import AuditRules
import ImgtraceSupport
import LaunchAudit
import LaunchTrace
import Reporters
import TestSupport
import UnusedAudit

/// The whole of `imgtrace analyze` on one log, against an app built once in memory: the names
/// in the log reach the resolver, the rules and every report format.
enum Pipeline {
    /// A small app with a catalog, loose files with scale variants, a huge image and a nib.
    static let inventory: BundleInventory = {
        let tree = MemoryTree([
            "Info.plist": Seeds.infoPlist,
            "Assets.car": Seeds.catalogs()[0].bytes,
            "tab@2x.png": Seeds.smallPNG,
            "tab@3x.png": Seeds.smallPNG,
            "hero.jpg": Seeds.hugeJPEG,
            "en.lproj/title.png": Seeds.smallPNG,
            "Main.nib": NibWriter.nib(imageNames: ["tab", "hero.jpg"]),
        ])
        return (try? BundleReader.inventory(ofTree: tree, name: "App.app")) ?? BundleInventory()
    }()

    nonisolated(unsafe) static let discard = ByteSink(fd: open("/dev/null", O_WRONLY))

    static func audit(_ bytes: [UInt8]) {
        let auditor = LaunchAuditor(inventory: inventory, device: .default, config: AuditConfig())
        let loads = LoadRecords()
        auditor.beginLog("fuzz.log")
        guard
            let summary = try? bytes.withUnsafeBytes({ raw in
                try TraceReader.read(raw, options: TraceOptions()) { load in
                    loads.add(load, log: 0, resolution: auditor.add(load))
                }
            })
        else { return }
        auditor.endLog(summary)
        var result = auditor.finish()
        (result.bundlePaths, result.logPaths) = (["App.app"], ["fuzz.log"])
        let input = ReportInput(result: result, toolVersion: "fuzz", loads: loads)
        // Every registered format, so a new one is fuzzed without a change here.
        for reporter in AuditReporters.all { reporter.render(input, to: discard) }
        discard.flush()
    }

    /// `trace --format json` on one log: the events written from the spill must be the bytes the
    /// guard makes of each load encoded alone (a mismatch stops the fuzzer, like a crash).
    static func traceDocument(_ bytes: [UInt8]) {
        let report = TraceJSONReport()
        var loads: [ImageLoad] = []
        guard
            let summary = try? bytes.withUnsafeBytes({ raw in
                try TraceReader.read(raw, options: TraceOptions()) { load in
                    report.add(load)
                    loads.append(load)
                }
            })
        else { return }
        let sink = ByteSink(collecting: .json)
        report.write(summary: summary, to: sink)
        var plain = JSONText()
        plain.beginArray()
        for load in loads { TraceJSONReport.encode(load, into: &plain) }
        plain.endArray()
        let expected = ByteSink(collecting: .json)
        expected.write(Array(",\"events\":".utf8))
        expected.write(plain.bytes + Array("}\n".utf8))
        let document = sink.collected, events = expected.collected
        precondition(document.count >= events.count && Array(document.suffix(events.count)) == events, "trace JSON events differ from the loads encoded alone")
    }
}
