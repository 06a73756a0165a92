import CPostgresClient
import ImgtraceSupport

/// A history on a PostgreSQL server, for runners that share one store, through libpq loaded
/// when one is named (`CPostgresClient`). The same statements as SQLite's, `?` numbered `$n`.
final class PostgresStore: HistoryStore {
    let name: String
    let dialect = SQLDialect.postgres
    private let api: UnsafePointer<imgtrace_pq_api>
    private var connection: UnsafeMutableRawPointer?

    /// Connects to `url` (`postgres://user@host/db`, or with `?host=/socket/dir`); `name` is
    /// the URL without its password, for messages.
    init(url: String) throws {
        name = Self.withoutPassword(url)
        var problem = [CChar](repeating: 0, count: 256)
        guard let api = imgtrace_pq_load(&problem, problem.count) else {
            throw InputError(path: name, reason: String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.api = api
        let connection = api.pointee.connectdb(url)
        // CONNECTION_OK is 0.
        guard let connection, api.pointee.status(connection) == 0 else {
            let reason = connection.map { Self.oneLine(api.pointee.error_message($0)) } ?? "cannot connect"
            if let connection { api.pointee.finish(connection) }
            throw InputError(path: name, reason: "cannot connect: \(reason)")
        }
        self.connection = connection
        // One statement at a time, each the server's own to wait on: 30 s for a lock, as SQLite's busy timeout.
        try execute("SET lock_timeout = '30s'", [])
    }

    deinit { close() }

    func close() {
        if let connection { api.pointee.finish(connection) }
        connection = nil
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws { _ = try run(sql, arguments) }

    func query(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] { try run(sql, arguments) }

    // One writer at a time, as SQLite's IMMEDIATE: a transaction-scoped lock on a fixed key.
    let beginWriting = ["BEGIN", "SELECT pg_advisory_xact_lock(7242013)"]

    private func run(_ sql: String, _ arguments: [SQLValue]) throws -> [[SQLValue]] {
        guard let connection else { throw failure("the history is closed") }
        let numbered = Self.numbered(sql)
        // Text parameters, the server casting each to its column's type.
        var texts = arguments.map { $0.text.map { strdup($0) } ?? nil }
        defer { for pointer in texts { free(pointer) } }
        let result = texts.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(1, buffer.count)) { values in
                api.pointee.exec_params(connection, numbered, Int32(arguments.count), nil, arguments.isEmpty ? nil : values, nil, nil, 0)
            }
        }
        guard let result else { throw failure(Self.oneLine(api.pointee.error_message(connection))) }
        defer { api.pointee.clear(result) }
        // PGRES_COMMAND_OK 1, PGRES_TUPLES_OK 2.
        let status = api.pointee.result_status(result)
        guard status == 1 || status == 2 else { throw failure(Self.oneLine(api.pointee.result_error_message(result))) }
        let rows = Int(api.pointee.ntuples(result)), columns = Int(api.pointee.nfields(result))
        return (0..<rows).map { row in
            (0..<columns).map { column in
                if api.pointee.getisnull(result, Int32(row), Int32(column)) != 0 { return .null }
                let text = api.pointee.getvalue(result, Int32(row), Int32(column)).map { String(cString: $0) } ?? ""
                return Int(text).map(SQLValue.int) ?? .text(text)
            }
        }
    }

    /// `?` placeholders as `$1`, `$2`…; statements here hold no `?` inside a literal.
    static func numbered(_ sql: String) -> String {
        var out = "", count = 0
        for character in sql {
            if character == "?" {
                count += 1
                out += "$\(count)"
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// libpq's messages end in a newline and may span lines: one line, as every error here.
    private static func oneLine(_ text: UnsafeMutablePointer<CChar>?) -> String {
        SafeText.visible(text.map { String(cString: $0) }?.split(whereSeparator: \.isNewline).joined(separator: " ") ?? "unknown error")
    }

    /// `postgres://user:secret@host/db` as `postgres://user@host/db`: a password never reaches a log.
    static func withoutPassword(_ url: String) -> String {
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else { return url }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return String(url[..<colon]) + String(url[at...])
    }

    /// Whether `location` names a PostgreSQL server rather than a file.
    static func names(_ location: String) -> Bool { location.hasPrefix("postgres://") || location.hasPrefix("postgresql://") }
}
