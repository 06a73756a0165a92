import AuditModel
import BuildHistory
import ImgtraceSupport

/// `imgtrace history show`: a history's builds as a table and where each figure moved most
/// (text), every build with its figures and names (JSON), or one page of line charts (HTML).
public enum HistoryReports {
    /// How a figure's value reads: as every launch report words it.
    typealias Unit = FigureUnit

    /// The figures shown, by their JSON names.
    static let figures: [(key: String, label: String, unit: Unit, value: @Sendable (PhaseMetrics) -> Int?)] = [
        ("loads", "loads", .count, { $0.loads }), ("images", "images", .count, { $0.images }),
        ("decodedBytes", "decoded", .bytes, { $0.decodedBytes }), ("bytesOnDisk", "on disk", .bytes, { $0.bytesOnDisk }),
        ("missing", "missing", .count, { $0.missing }), ("repeated", "repeated", .count, { $0.repeated }),
        ("mainThreadImageMicroseconds", "main-thread image time", .microseconds, { $0.typicalMainThreadImageMicroseconds }),
    ]

    /// The names each build added and dropped against the build before it.
    static func moves(_ builds: [BuildRecord]) -> [(added: [String], gone: [String])] {
        var previous: Set<String>?
        return builds.map { build in
            let names = Set(build.images.map(\.record.name))
            defer { previous = names }
            guard let before = previous else { return ([], []) }
            return (names.subtracting(before).sorted(), before.subtracting(names).sorted())
        }
    }

    /// Each figure over the builds, then the build where each moved most from the one before.
    public static func text(_ builds: [BuildRecord], location: String, width: Int) -> String {
        guard !builds.isEmpty else { return "\(SafeText.visible(location)): no builds recorded\n" }
        var out = "imgtrace history: \(SafeText.visible(location)), \(counted(builds.count, "build"))\n\n"
        let header = ["BUILD", "DATE", "BRANCH", "LOADS", "IMAGES", "DECODED", "ON DISK", "MISSING"]
        let rows = builds.map { b -> [String] in
            let m = b.launch
            return [
                b.identity.build, String(b.identity.date.prefix(10)), b.identity.branch, String(m.loads), String(m.images), kibibytes(m.decodedBytes),
                kibibytes(m.bytesOnDisk), String(m.missing),
            ]
        }
        out += TextTable.render(header: header, rows: rows, rightAligned: [3, 4, 5, 6, 7], width: width)
        out += "\nMOVED MOST\n"
        for figure in figures {
            var best: (build: String, from: Int, to: Int)?
            for (before, after) in zip(builds, builds.dropFirst()) {
                guard let from = figure.value(before.launch), let to = figure.value(after.launch) else { continue }
                if abs(to - from) > abs((best?.to ?? 0) - (best?.from ?? 0)) { best = (after.identity.build, from, to) }
            }
            let timed = builds.contains { figure.value($0.launch) != nil }
            let moved = best.map { "\(figure.unit.shown($0.from)) → \(figure.unit.shown($0.to)) at \(SafeText.visible($0.build))" } ?? (timed ? "unchanged" : "not measured")
            out += "  \(figure.label): \(moved)\n"
        }
        let named = zip(builds, moves(builds)).filter { !$0.1.added.isEmpty || !$0.1.gone.isEmpty }
        if !named.isEmpty {
            out += "\nNAMES THAT CAME AND WENT\n"
            for (build, move) in named {
                var parts: [String] = []
                if !move.added.isEmpty { parts.append("+ " + move.added.map { SafeText.quoted($0) }.joined(separator: ", ")) }
                if !move.gone.isEmpty { parts.append("− " + move.gone.map { SafeText.quoted($0) }.joined(separator: ", ")) }
                out += TextTable.wrapped(parts.joined(separator: "; "), width: width, first: "  \(SafeText.visible(build.identity.build)): ", rest: "    ") + "\n"
            }
        }
        return out
    }

    /// Every build, oldest first, with its identity, figures and image names.
    public static func json(_ builds: [BuildRecord], location: String) -> [UInt8] {
        var w = JSONText()
        w.beginObject()
        w.field("kind", "imgtrace-history")
        w.field("location", location)
        w.key("builds")
        w.beginArray()
        for (build, move) in zip(builds, moves(builds)) {
            w.beginObject()
            w.field("build", build.identity.build)
            w.field("commit", build.identity.commit)
            w.field("branch", build.identity.branch)
            w.field("date", build.identity.date)
            w.field("app", build.app)
            w.field("device", build.device)
            w.field("launches", build.launches)
            w.key("figures")
            w.beginObject()
            for figure in figures { w.field(figure.key, figure.value(build.launch)) }
            w.endObject()
            w.key("images")
            w.beginArray()
            for image in build.images {
                w.beginObject()
                w.field("name", image.record.name)
                w.field("image", image.record.image)
                w.field("loads", image.record.loads)
                w.field("decodedBytes", image.record.decodedBytes)
                w.field("bytesOnDisk", image.record.bytesOnDisk)
                if let time = image.mainThreadMicroseconds { w.field("mainThreadMicroseconds", time) }
                w.endObject()
            }
            w.endArray()
            w.field("added", strings: move.added)
            w.field("gone", strings: move.gone)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes + [0x0A]
    }
}
