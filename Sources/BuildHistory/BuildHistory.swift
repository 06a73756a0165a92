import AuditModel
import Foundation
import LaunchAudit

/// A team's builds, one record each, in an SQLite file or on a PostgreSQL server: what
/// `analyze --history` adds to and gates against, and what `history show` draws.
public final class BuildHistory {
    let store: HistoryStore
    /// The file or URL as given (a URL without its password).
    public var location: String { store.name }

    /// Opens the history at `location` (a path, or `postgres://…`), creating an SQLite file
    /// when absent. Anything that is not an imgtrace history is refused and left untouched.
    public static func open(_ location: String) throws -> BuildHistory {
        if isServer(location) {
            let store = try PostgresStore(url: location)
            try HistorySchema.prepare(store)
            return BuildHistory(store: store)
        }
        let store = try SQLiteStore(path: location)
        do {
            try HistorySchema.prepare(store)
            try store.useWriteAheadLog()
        } catch {
            store.close()
            // A file this open created and could not make a history of is not left behind.
            if store.created { try? FileManager.default.removeItem(atPath: location) }
            throw error
        }
        return BuildHistory(store: store)
    }

    init(store: HistoryStore) { self.store = store }

    /// Whether `location` names a PostgreSQL server rather than a file.
    public static func isServer(_ location: String) -> Bool { PostgresStore.names(location) }

    deinit { store.close() }

    /// Adds `build` in one transaction, replacing an earlier record of the same build id (a
    /// re-run): a run stopped part way leaves the history as it was.
    public func record(_ build: BuildRecord, pauseForTests: (() -> Void)? = nil) throws {
        try store.transaction {
            try store.execute("DELETE FROM builds WHERE build = ?", .text(build.identity.build))
            let m = build.launch
            let figures: [SQLValue] = [
                .int(m.loads), .int(m.names), .int(m.images), .int(m.decodedBytes), .int(m.bytesOnDisk), .int(m.missing), .int(m.repeated),
                .int(m.unreadable), .int(m.largestImageDecodedBytes), m.typicalMainThreadImageMicroseconds.map(SQLValue.int) ?? .null,
            ]
            let id = try store.query(
                """
                INSERT INTO builds (build, commit_id, branch, recorded_at, app, device, launches, loads, names, images, decoded_bytes,
                    bytes_on_disk, missing, repeated, unreadable, largest_image_decoded_bytes, main_thread_image_microseconds)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                """,
                [
                    .text(build.identity.build), build.identity.commit.map(SQLValue.text) ?? .null, .text(build.identity.branch),
                    .text(build.identity.date), build.app.map(SQLValue.text) ?? .null, .text(build.device), .int(build.launches),
                ] + figures
            ).first?.first?.int
            guard let id else { throw store.failure("the database gave the new build no id") }
            for image in build.images {
                let r = image.record
                try store.execute(
                    "INSERT INTO build_images (build_id, name, image, loads, decoded_bytes, bytes_on_disk, main_thread_microseconds) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        .int(id), .text(r.name), r.image.map(SQLValue.text) ?? .null, .int(r.loads), .int(r.decodedBytes), .int(r.bytesOnDisk),
                        image.mainThreadMicroseconds.map(SQLValue.int) ?? .null,
                    ])
            }
            for f in build.findings {
                try store.execute(
                    "INSERT INTO build_findings (build_id, fingerprint, rule, severity, message, gates, rules) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [.int(id), .text(f.fingerprint), .text(f.rule), .text(f.severity), .text(f.message), .int(f.gates ? 1 : 0), .text(f.rules.joined(separator: " "))])
            }
            pauseForTests?()
        }
    }

    /// Removes the build with id `build`; false when there is none.
    public func forget(build: String) throws -> Bool {
        try store.transaction {
            let found = try store.query("SELECT id FROM builds WHERE build = ?", .text(build))
            guard !found.isEmpty else { return false }
            try store.execute("DELETE FROM builds WHERE build = ?", .text(build))
            return true
        }
    }

    /// The branches recorded, most recent build first.
    public func branches() throws -> [String] {
        try store.query("SELECT branch, MAX(id) FROM builds GROUP BY branch ORDER BY MAX(id) DESC", []).compactMap { $0.first?.text }
    }

    /// The builds of `branch` (every branch when nil), oldest first: the last `last` when given.
    /// `except` leaves out one build id (the build being gated, when it is re-run).
    public func builds(branch: String?, last: Int? = nil, except: String? = nil, withFindings: Bool = false) throws -> [BuildRecord] {
        var conditions: [String] = [], arguments: [SQLValue] = []
        if let branch {
            conditions.append("branch = ?")
            arguments.append(.text(branch))
        }
        if let except {
            conditions.append("build <> ?")
            arguments.append(.text(except))
        }
        let filter = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let limit = last.map { " LIMIT \(max(0, $0))" } ?? ""
        let rows = try store.query(
            """
            SELECT id, build, commit_id, branch, recorded_at, app, device, launches, loads, names, images, decoded_bytes, bytes_on_disk,
                missing, repeated, unreadable, largest_image_decoded_bytes, main_thread_image_microseconds
            FROM builds\(filter) ORDER BY id DESC\(limit)
            """, arguments)
        var records: [(id: Int, record: BuildRecord)] = rows.reversed().map { row in
            var m = PhaseMetrics()
            (m.loads, m.names, m.images, m.decodedBytes) = (row[8].int ?? 0, row[9].int ?? 0, row[10].int ?? 0, row[11].int ?? 0)
            (m.bytesOnDisk, m.missing, m.repeated, m.unreadable) = (row[12].int ?? 0, row[13].int ?? 0, row[14].int ?? 0, row[15].int ?? 0)
            m.largestImageDecodedBytes = row[16].int ?? 0
            m.typicalMainThreadImageMicroseconds = row[17].int
            let identity = BuildIdentity(build: row[1].text ?? "", commit: row[2].text, branch: row[3].text ?? "", date: row[4].text ?? "")
            return (
                row[0].int ?? 0,
                BuildRecord(identity: identity, app: row[5].text, device: row[6].text ?? "", launches: row[7].int ?? 1, launch: m, images: [], findings: [])
            )
        }
        guard !records.isEmpty else { return [] }
        let position = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($0.element.id, $0.offset) })
        let ids = records.map { String($0.id) }.joined(separator: ", ")
        for row in try store.query(
            "SELECT build_id, name, image, loads, decoded_bytes, bytes_on_disk, main_thread_microseconds FROM build_images WHERE build_id IN (\(ids)) ORDER BY build_id, name",
            [])
        {
            guard let at = row[0].int.flatMap({ position[$0] }) else { continue }
            let record = ImageRecord(name: row[1].text ?? "", image: row[2].text, loads: row[3].int ?? 0, decodedBytes: row[4].int ?? 0, bytesOnDisk: row[5].int ?? 0)
            records[at].record.images.append(.init(record: record, mainThreadMicroseconds: row[6].int))
        }
        if withFindings {
            for row in try store.query(
                "SELECT build_id, fingerprint, rule, severity, message, gates, rules FROM build_findings WHERE build_id IN (\(ids)) ORDER BY build_id, fingerprint", [])
            {
                guard let at = row[0].int.flatMap({ position[$0] }) else { continue }
                records[at].record.findings.append(
                    Baseline.Entry(
                        fingerprint: row[1].text ?? "", rule: row[2].text ?? "", severity: row[3].text ?? "", message: row[4].text ?? "",
                        gates: row[5].int != 0, rules: (row[6].text ?? "").split(separator: " ").map(String.init)))
            }
        }
        return records.map(\.record)
    }
}
