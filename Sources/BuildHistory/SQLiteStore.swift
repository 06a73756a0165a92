import CSQLite
import Foundation
import ImgtraceSupport

/// A history in an SQLite file, through SQLite's own library. Write-ahead logging lets a reader
/// run beside a writer, and a busy timeout makes two CI jobs writing at once take turns.
final class SQLiteStore: HistoryStore {
    let name: String
    let dialect = SQLDialect.sqlite
    private var db: OpaquePointer?
    /// Whether the file was created by this open (an absent path), so the schema may be made.
    let created: Bool

    /// How long a writer waits for another's lock before giving up.
    static let busyMilliseconds: Int32 = 30_000

    /// Opens `path`, creating it when absent. A file that is not SQLite is refused unread.
    init(path: String) throws {
        name = path
        let exists = FileManager.default.fileExists(atPath: path)
        created = !exists
        // SQLite takes any file and fails at the first read: a file whose first bytes are not
        // SQLite's is refused before it is opened, so it is never touched.
        if exists, let head = FileHandle(forReadingAtPath: path).map({ $0.readData(ofLength: 16) }), !head.isEmpty,
            Array(head) != Array("SQLite format 3\0".utf8)
        {
            throw InputError(path: path, reason: "not an imgtrace history: not an SQLite database")
        }
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (exists ? 0 : SQLITE_OPEN_CREATE)
        guard sqlite3_open_v2(path, &db, flags, nil) == SQLITE_OK else {
            let reason = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            db = nil
            throw InputError(path: path, reason: "cannot open the history: \(reason)")
        }
        sqlite3_busy_timeout(db, Self.busyMilliseconds)
        try execute("PRAGMA foreign_keys = ON", [])
    }

    deinit { close() }

    func close() {
        if let db { sqlite3_close(db) }
        db = nil
    }

    /// Write-ahead logging, set once a file is known to be a history (it persists in the file).
    func useWriteAheadLog() throws { _ = try query("PRAGMA journal_mode = WAL", []) }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws { _ = try run(sql, arguments, rows: false) }

    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] { try run(sql, arguments, rows: true) }

    // IMMEDIATE takes the write lock at the start: two writers wait their turn (busy timeout)
    // instead of one failing when it upgrades a read lock.
    let beginWriting = ["BEGIN IMMEDIATE"]

    private func run(_ sql: String, _ arguments: [SQLValue], rows: Bool) throws -> [[SQLValue]] {
        guard let db else { throw failure("the history is closed") }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { throw failure(message(db)) }
        defer { sqlite3_finalize(statement) }
        for (index, argument) in arguments.enumerated() {
            let position = Int32(index + 1)
            switch argument {
            case .int(let n): sqlite3_bind_int64(statement, position, Int64(n))
            // SQLITE_TRANSIENT: SQLite copies the text before this call returns.
            case .text(let t): sqlite3_bind_text(statement, position, t, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            case .null: sqlite3_bind_null(statement, position)
            }
        }
        var out: [[SQLValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure(message(db)) }
            guard rows else { continue }
            out.append(
                (0..<sqlite3_column_count(statement)).map { column in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: return .int(Int(sqlite3_column_int64(statement, column)))
                    case SQLITE_NULL: return .null
                    default: return .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
                    }
                })
        }
        return out
    }

    private func message(_ db: OpaquePointer) -> String {
        let text = String(cString: sqlite3_errmsg(db))
        // SQLite's own words for a damaged or foreign file.
        if text.contains("not a database") || text.contains("malformed") { return "not an imgtrace history: \(text)" }
        return text
    }
}
