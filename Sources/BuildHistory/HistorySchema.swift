/// The history's tables, versioned: `imgtrace_meta` says what the database is and which schema
/// it holds; each version's steps bring the one before it up to date. A database of a newer
/// schema is refused (an older imgtrace would misread it); one without `imgtrace_meta` and with
/// tables of its own is not a history and is refused untouched.
enum HistorySchema {
    /// The schema this imgtrace writes.
    static let version = 1
    /// `imgtrace_meta.kind` of every history.
    static let kind = "imgtrace-history"

    /// What each version adds, in order: `steps(dialect)[n]` takes version n to n + 1.
    static func steps(_ dialect: SQLDialect) -> [[String]] {
        let big = dialect.bigInteger
        return [
            [
                "CREATE TABLE imgtrace_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
                // One row per build: who it was and its median launch's figures.
                """
                CREATE TABLE builds (
                    id \(dialect.serialKey), build TEXT NOT NULL UNIQUE, commit_id TEXT, branch TEXT NOT NULL, recorded_at TEXT NOT NULL,
                    app TEXT, device TEXT NOT NULL, launches INTEGER NOT NULL,
                    loads \(big) NOT NULL, names \(big) NOT NULL, images \(big) NOT NULL, decoded_bytes \(big) NOT NULL,
                    bytes_on_disk \(big) NOT NULL, missing \(big) NOT NULL, repeated \(big) NOT NULL, unreadable \(big) NOT NULL,
                    largest_image_decoded_bytes \(big) NOT NULL, main_thread_image_microseconds \(big))
                """,
                "CREATE INDEX builds_by_branch ON builds (branch, id)",
                // Each image name the median launch asked for.
                """
                CREATE TABLE build_images (
                    build_id \(big) NOT NULL REFERENCES builds (id) ON DELETE CASCADE, name TEXT NOT NULL, image TEXT,
                    loads \(big) NOT NULL, decoded_bytes \(big) NOT NULL, bytes_on_disk \(big) NOT NULL, main_thread_microseconds \(big),
                    PRIMARY KEY (build_id, name))
                """,
                // Each finding a baseline would hold, so the gate knows what recent builds accepted.
                """
                CREATE TABLE build_findings (
                    build_id \(big) NOT NULL REFERENCES builds (id) ON DELETE CASCADE, fingerprint TEXT NOT NULL, rule TEXT NOT NULL,
                    severity TEXT NOT NULL, message TEXT NOT NULL, gates INTEGER NOT NULL, rules TEXT NOT NULL,
                    PRIMARY KEY (build_id, fingerprint))
                """,
            ]
        ]
    }

    /// Makes `store` a history of the current schema: creates it when the database is empty,
    /// migrates an older one, refuses a newer one or a database that is something else.
    static func prepare(_ store: HistoryStore) throws {
        try store.transaction {
            let tables = try userTables(store)
            var current = 0
            if tables.contains("imgtrace_meta") {
                let rows = try store.query("SELECT key, value FROM imgtrace_meta", [])
                let meta = Dictionary(rows.compactMap { row in row[0].text.map { ($0, row[1].text ?? "") } }, uniquingKeysWith: { a, _ in a })
                guard meta["kind"] == kind, let found = meta["schema"].flatMap(Int.init) else {
                    throw store.failure("not an imgtrace history (its imgtrace_meta table says another kind)")
                }
                guard found <= version else {
                    throw store.failure("a history of schema \(found), written by a newer imgtrace (this one reads up to \(version)): update imgtrace")
                }
                current = found
            } else if !tables.isEmpty {
                throw store.failure("not an imgtrace history: the database holds other tables (\(tables.sorted().prefix(3).joined(separator: ", ")))")
            }
            guard current < version else { return }
            for step in steps(store.dialect)[current..<version] {
                for statement in step { try store.execute(statement, []) }
            }
            if current == 0 { try store.execute("INSERT INTO imgtrace_meta (key, value) VALUES ('kind', ?)", [.text(kind)]) }
            try store.execute("DELETE FROM imgtrace_meta WHERE key = 'schema'", [])
            try store.execute("INSERT INTO imgtrace_meta (key, value) VALUES ('schema', ?)", [.text(String(version))])
        }
    }

    /// The database's own tables (not the engine's catalog).
    private static func userTables(_ store: HistoryStore) throws -> Set<String> {
        let sql =
            store.dialect == .sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            : "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        return Set(try store.query(sql, []).compactMap { $0.first?.text })
    }
}
