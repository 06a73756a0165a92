import ImgtraceSupport

/// A value bound to or read from a statement: the history stores whole numbers and text only.
public enum SQLValue: Sendable, Equatable {
    case int(Int)
    case text(String)
    case null

    public var int: Int? {
        switch self {
        case .int(let n): return n
        case .text(let t): return Int(t)
        case .null: return nil
        }
    }

    public var text: String? {
        switch self {
        case .int(let n): return String(n)
        case .text(let t): return t
        case .null: return nil
        }
    }
}

/// Where a history's rows live: an SQLite file or a PostgreSQL server. Statements are written
/// once, with `?` for each argument; a store turns them into its own dialect.
protocol HistoryStore: AnyObject {
    /// How the user named it (a path, or the URL without its password), for messages.
    var name: String { get }
    var dialect: SQLDialect { get }
    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ arguments: [SQLValue]) throws
    /// Runs a query; each row's columns in the order selected.
    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]]
    /// What opens a transaction that holds the write lock from its start, so two writers take
    /// turns rather than one failing part way.
    var beginWriting: [String] { get }
    func close()
}

/// The two SQL dialects the schema is written for; the statements differ only where noted.
enum SQLDialect: Sendable {
    case sqlite, postgres

    /// A table's own key, numbered by the database.
    var serialKey: String { self == .sqlite ? "INTEGER PRIMARY KEY" : "BIGSERIAL PRIMARY KEY" }
    /// A whole number as large as a byte count gets.
    var bigInteger: String { self == .sqlite ? "INTEGER" : "BIGINT" }
}

extension HistoryStore {
    func execute(_ sql: String, _ arguments: SQLValue...) throws { try execute(sql, arguments) }
    func query(_ sql: String, _ arguments: SQLValue...) throws -> [[SQLValue]] { try query(sql, arguments) }

    /// Runs `body` in one transaction that takes the write lock first: committed when it
    /// returns, rolled back when it throws, so an interrupted run leaves the history as it was.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute(beginWriting[0], [])
        do {
            for statement in beginWriting.dropFirst() { try execute(statement, []) }
            let value = try body()
            try execute("COMMIT", [])
            return value
        } catch {
            try? execute("ROLLBACK", [])
            throw error
        }
    }

    /// The error for this store at `what`, as every input error reads.
    func failure(_ reason: String) -> InputError { InputError(path: name, reason: reason) }
}
