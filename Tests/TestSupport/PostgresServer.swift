import Foundation

/// A PostgreSQL server of Debian's package, started for one test on a Unix socket in a folder of
/// its own (no TCP port), and stopped by its pid. As root, the server runs as `nobody` (initdb
/// refuses root) through util-linux's setpriv.
public final class PostgresServer {
    public let folder: URL
    /// A libpq URL to the `postgres` database as the server's superuser, over the socket.
    public var url: String { url(database: "postgres") }
    private var pid: Int32?

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The server's programs (`/usr/lib/postgresql/VERSION/bin`), newest first.
    static var binaries: URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path))?.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) } ?? []
        return versions.map { root.appendingPathComponent($0).appendingPathComponent("bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }

    public init() throws {
        guard let bin = Self.binaries else { throw Unavailable(description: "no PostgreSQL server (Debian's postgresql; .ci/run installs it)") }
        folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("imgtrace-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let root = getuid() == 0
        if root { chown(folder.path, 65534, 65534) }
        let data = folder.appendingPathComponent("data").path
        try run(bin.appendingPathComponent("initdb").path, ["-D", data, "-U", "imgtrace", "--auth=trust", "-E", "UTF8", "--no-sync"], root: root)
        try run(
            bin.appendingPathComponent("pg_ctl").path,
            ["-D", data, "-l", folder.appendingPathComponent("server.log").path, "-w", "-t", "60", "-o", "-k \(folder.path) -c listen_addresses='' -c fsync=off", "start"],
            root: root)
        let pidFile = (try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8)) ?? ""
        pid = pidFile.split(separator: "\n").first.flatMap { Int32($0) }
        guard pid != nil else { throw Unavailable(description: "the PostgreSQL server did not start (see \(folder.path)/server.log)") }
    }

    /// A URL to `database` on this server.
    public func url(database: String) -> String { "postgresql://imgtrace@/\(database)?host=\(folder.path)" }

    /// Runs `psql` with `sql` against `database`.
    public func psql(_ sql: String, database: String = "postgres") throws {
        guard let bin = Self.binaries else { return }
        try run(bin.appendingPathComponent("psql").path, ["-h", folder.path, "-U", "imgtrace", "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql], root: false)
    }

    public func stop() {
        if let pid {
            kill(pid, SIGQUIT)
            for _ in 0..<200 where kill(pid, 0) == 0 { usleep(25_000) }
        }
        pid = nil
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    /// Runs `tool` and waits for it with waitpid: pg_ctl leaves the server it starts running with
    /// its output, and Foundation's `Process` did not see pg_ctl end.
    private func run(_ tool: String, _ arguments: [String], root: Bool) throws {
        let argv = (root ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", tool] : [tool]) + arguments
        let log = folder.appendingPathComponent("tool.log").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var child: pid_t = 0
        guard posix_spawn(&child, argv[0], &actions, nil, &cArguments, environ) == 0 else { throw Unavailable(description: "cannot start \(argv[0])") }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        guard status == 0 else {
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Unavailable(description: "\(URL(fileURLWithPath: tool).lastPathComponent) failed: \(said.suffix(400))")
        }
    }
}
