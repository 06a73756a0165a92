#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// The agent recording by itself into a file (`agent-path --env`): the file is the agent's
    /// own, a file someone else left is refused by the agent and by `agent-log`, a launcher
    /// passes the agent on to the app, and the app to nobody unless asked.
    final class AgentFileModeTests: AgentWorkspaceTestCase {
        private var agent: URL { BinaryRunner.agentLibrary! }

        /// The truth: each request's name comes from the command line. With `child`, the program
        /// says whether the agent is loaded in it; otherwise it starts itself as a child with the
        /// environment it started with (read back from /proc/self/environ, as GNUstep does).
        static let spawner = #"""
            #include <stdio.h>
            #include <string.h>
            #include <sys/wait.h>
            #include <unistd.h>
            const char *image_named(void *a, void *b, const char *name);
            static int agent_loaded(void) {
                char line[4096];
                FILE *maps = fopen("/proc/self/maps", "r");
                int found = 0;
                while (maps && fgets(line, sizeof line, maps)) found |= strstr(line, "libImgtraceAgent") != NULL;
                if (maps) fclose(maps);
                return found;
            }
            int main(int argc, char **argv) {
                if (argc > 2) {
                    image_named(0, 0, "child");
                    printf("child: %s\n", agent_loaded() ? "agent loaded" : "clean");
                    return 0;
                }
                static char block[1 << 16];
                FILE *f = fopen("/proc/self/environ", "r");
                size_t n = fread(block, 1, sizeof block - 1, f);
                fclose(f);
                char *env[512];
                int k = 0;
                for (size_t i = 0; i < n && k < 511; i += strlen(block + i) + 1) env[k++] = block + i;
                env[k] = NULL;
                image_named(0, 0, argv[1]);
                fflush(stdout);
                pid_t child = fork();
                if (child == 0) {
                    char *args[] = {argv[0], argv[1], "child", NULL};
                    execve("/proc/self/exe", args, env);
                    _exit(127);
                }
                waitpid(child, NULL, 0);
                image_named(0, 0, "after");
                return 0;
            }
            """#

        private func build() throws -> URL {
            let kit = work.appendingPathComponent("kit.c"), source = work.appendingPathComponent("spawner.c")
            try AgentIsolationTests.imageKit.write(to: kit, atomically: true, encoding: .utf8)
            try Self.spawner.write(to: source, atomically: true, encoding: .utf8)
            let program = work.appendingPathComponent("spawner")
            guard Shell.output("cc -O1 -shared -fPIC -o \(work.path)/libkit.so \(kit.path) 2>&1 >/dev/null") != nil,
                Shell.output("cc -O1 -o \(program.path) \(source.path) -L\(work.path) -lkit -Wl,-rpath,'$ORIGIN' 2>&1 >/dev/null") != nil
            else { throw XCTSkip("cc could not build the spawner") }
            return program
        }

        /// Runs `command` through /bin/sh (a launcher: the shell loads the agent too) with the
        /// agent's variables exported; returns its standard output and error.
        private func launch(_ command: String, file: URL, children: Bool = false) throws -> (stdout: String, stderr: String) {
            var environment = ["LD_PRELOAD": agent.path, "IMGTRACE_AGENT_FILE": file.path, "IMGTRACE_AGENT_APIS": "symbol image_named 3"]
            if children { environment["IMGTRACE_AGENT_CHILDREN"] = "1" }
            let result = try run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: environment)
            return (result.stdout, result.stderr)
        }

        /// The names `agent-log` reads from `file`.
        private func names(_ file: URL, _ extra: [String] = []) throws -> [String] {
            let read = try BinaryRunner.run(["agent-log", file.path] + extra)
            XCTAssertEqual(read.status, 0, read.stderr)
            return read.stdoutText.split(separator: "\n").filter { $0.contains("image_named:") }.map { String($0.split(separator: "\"")[1]) }
        }

        /// A launcher (a shell that runs the app, as `xvfb-run` does) loads the agent first and
        /// wraps nothing: it leaves the file and the variables to the app (it took the file,
        /// recorded nothing, and took the variables out, so the app recorded nothing). The app's
        /// own child, started with the environment the app began with, does not load the agent
        /// unless IMGTRACE_AGENT_CHILDREN asks; then it records into the app's file.
        func testALauncherPassesTheAgentToTheAppAndTheAppToNoChildUnlessAsked() throws {
            let program = try build()
            let file = work.appendingPathComponent("launch.agent")
            let run = try launch("\(program.path) first; true", file: file)
            XCTAssertEqual(run.stdout, "child: clean\n", run.stderr)
            XCTAssertEqual(run.stderr, "")
            XCTAssertEqual(try names(file), ["first", "after"])
            var info = stat()
            XCTAssertEqual(stat(file.path, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o600, "the recording is readable by its user alone")

            let followed = work.appendingPathComponent("children.agent")
            let asked = try launch("\(program.path) first; true", file: followed, children: true)
            XCTAssertEqual(asked.stdout, "child: agent loaded\n", asked.stderr)
            XCTAssertEqual(try names(followed), ["first", "child", "after"])

            // `record --agent` through the same launcher records the app.
            let log = work.appendingPathComponent("launcher.log")
            let recorded = try BinaryRunner.run(
                ["record", "--agent", "--symbol", "image_named", "--no-launch-end", "--output", log.path, "--", "/bin/sh", "-c", "\(program.path) viaRecord; true"])
            XCTAssertEqual(recorded.status, 0, recorded.stderr)
            let text = try String(contentsOf: log, encoding: .utf8)
            XCTAssertEqual(text.split(separator: "\n").filter { $0.contains("image_named:") }.map { String($0.split(separator: "\"")[1]) }, ["viaRecord", "after"])
            XCTAssertEqual(recorded.stdoutText, "child: clean\n")
        }

        /// A library that copies the environment before the agent's constructor runs (GNUstep
        /// keeps such a copy, and starts gdnc with it) hands the agent to the app's helper: there
        /// it records nothing, and the helper's own children do not load it.
        func testAHelperStartedWithAnEarlyCopyOfTheEnvironmentPassesNothingOn() throws {
            let copier = work.appendingPathComponent("copier.c"), kit = work.appendingPathComponent("kit.c"), source = work.appendingPathComponent("early.c")
            try AgentIsolationTests.imageKit.write(to: kit, atomically: true, encoding: .utf8)
            try #"""
            #include <string.h>
            extern char **environ;
            char *early_environment[512];
            __attribute__((constructor)) static void copy(void) {
                int k = 0;
                for (char **e = environ; *e && k < 511; e++) early_environment[k++] = strdup(*e);
            }
            """#.write(to: copier, atomically: true, encoding: .utf8)
            try #"""
            #include <stdio.h>
            #include <string.h>
            #include <sys/wait.h>
            #include <unistd.h>
            extern char *early_environment[];
            extern char **environ;
            const char *image_named(void *a, void *b, const char *name);
            static const char *loaded(void) {
                char line[4096];
                FILE *maps = fopen("/proc/self/maps", "r");
                int found = 0;
                while (maps && fgets(line, sizeof line, maps)) found |= strstr(line, "libImgtraceAgent") != NULL;
                if (maps) fclose(maps);
                return found ? "agent loaded" : "clean";
            }
            static void start(const char *role, char **env) {
                fflush(stdout);
                pid_t child = fork();
                if (child == 0) {
                    char *args[] = {"/proc/self/exe", (char *)role, NULL};
                    execve("/proc/self/exe", args, env);
                    _exit(127);
                }
                waitpid(child, NULL, 0);
            }
            int main(int argc, char **argv) {
                if (argc > 1 && strcmp(argv[1], "helper") == 0) {
                    image_named(0, 0, "from_helper");
                    printf("helper: %s\n", loaded());
                    start("grandchild", environ);
                    return 0;
                }
                if (argc > 1) { printf("grandchild: %s\n", loaded()); return 0; }
                image_named(0, 0, "from_app");
                start("helper", early_environment);
                return 0;
            }
            """#.write(to: source, atomically: true, encoding: .utf8)
            let program = work.appendingPathComponent("early")
            guard Shell.output("cc -O1 -shared -fPIC -o \(work.path)/libkit.so \(kit.path) 2>&1 >/dev/null") != nil,
                Shell.output("cc -O1 -shared -fPIC -o \(work.path)/libcopier.so \(copier.path) 2>&1 >/dev/null") != nil,
                Shell.output("cc -O1 -o \(program.path) \(source.path) -L\(work.path) -lkit -lcopier -Wl,-rpath,'$ORIGIN' 2>&1 >/dev/null") != nil
            else { throw XCTSkip("cc could not build the program") }
            let file = work.appendingPathComponent("early.agent")
            let run = try launch(program.path, file: file)
            XCTAssertEqual(run.stdout, "helper: agent loaded\ngrandchild: clean\n", run.stderr)
            XCTAssertEqual(run.stderr, "")
            XCTAssertEqual(try names(file), ["from_app"])
        }

        /// The agent creates its file and records into no other: an earlier launch's recording
        /// and a link planted at the name are left as they are, and the program's standard error
        /// says so once, naming the file.
        func testTheAgentRecordsOnlyIntoAFileItCreatesAndSaysWhenItCannot() throws {
            let program = try build()
            let file = work.appendingPathComponent("launch.agent")
            _ = try launch("\(program.path) first", file: file)
            let again = try launch("\(program.path) second", file: file)
            XCTAssertEqual(
                again.stderr,
                "imgtrace agent: not recording into \(file.path): the file exists, and the agent records only into a file it creates (remove it, or name a new one)\n")
            XCTAssertEqual(try names(file), ["first", "after"], "the first launch's recording is kept")

            let victim = work.appendingPathComponent("notes.txt"), link = work.appendingPathComponent("planted.agent")
            try Data("the user's own file\n".utf8).write(to: victim)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
            let planted = try launch("\(program.path) third", file: link)
            XCTAssertTrue(planted.stderr.hasPrefix("imgtrace agent: not recording into \(link.path): "), planted.stderr)
            XCTAssertEqual(planted.stderr.split(separator: "\n").count, 1, planted.stderr)
            XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "the user's own file\n")
        }

        /// `agent-log` reads a file another user owns only when told to trust it: one line, exit 2,
        /// no log otherwise.
        func testAgentLogRefusesAnotherUsersFileUnlessTrusted() throws {
            guard getuid() == 0 else { throw XCTSkip("giving a file to another user needs root") }
            let program = try build()
            let file = work.appendingPathComponent("launch.agent")
            _ = try launch("\(program.path) first", file: file)
            XCTAssertEqual(chown(file.path, 65534, 65534), 0)
            let output = work.appendingPathComponent("refused.log")
            let refused = try BinaryRunner.run(["agent-log", file.path, "--output", output.path])
            XCTAssertEqual(refused.status, 2)
            XCTAssertEqual(
                refused.stderr,
                "imgtrace: error: \(file.path): owned by another user (uid 65534), not by you: anyone can leave a file in a shared folder; read it with --trust-owner if you know where it came from\n"
            )
            XCTAssertFalse(FileManager.default.fileExists(atPath: output.path))
            XCTAssertEqual(try names(file, ["--trust-owner"]), ["first", "after"])
        }

        /// A program that has none of the APIs asked for is said to have none, not taken for one
        /// that ignores LD_PRELOAD: exit 2, one line.
        func testARecordingThatWrapsNothingSaysSo() throws {
            let program = try build()
            let log = work.appendingPathComponent("nothing.log")
            let run = try BinaryRunner.run(["record", "--agent", "--symbol", "no_such_image_api", "--no-launch-end", "--output", log.path, "--", program.path, "first"])
            XCTAssertEqual(run.status, 2)
            XCTAssertTrue(run.stderr.hasPrefix("imgtrace: error: \(program.path): the agent ran but the program has none of the "), run.stderr)
            XCTAssertTrue(run.stderr.hasSuffix(" APIs asked for (check --symbol and --objc); the program exited with status 0\n"), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
        }

        /// `agent-path --env` alone records into a new folder of the user's own, named on a
        /// comment line; each call makes another.
        func testAgentPathChoosesAFreshPrivateFile() throws {
            let runtime = work.appendingPathComponent("runtime")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
            let first = try BinaryRunner.run(["agent-path", "--env"], environment: ["XDG_RUNTIME_DIR": runtime.path])
            let second = try BinaryRunner.run(["agent-path", "--env"], environment: ["XDG_RUNTIME_DIR": runtime.path])
            XCTAssertEqual(first.status, 0, first.stderr)
            func file(_ result: BinaryRunner.Result) -> String? {
                result.stdoutText.split(separator: "\n").first { $0.hasPrefix("IMGTRACE_AGENT_FILE=") }.map { String($0.dropFirst("IMGTRACE_AGENT_FILE=".count)) }
            }
            let chosen = try XCTUnwrap(file(first))
            XCTAssertTrue(chosen.hasPrefix(runtime.path + "/imgtrace-") && chosen.hasSuffix("/launch.agent"), chosen)
            XCTAssertNotEqual(file(second), chosen)
            XCTAssertTrue(first.stdoutText.hasPrefix("# after the app quits: imgtrace agent-log \(chosen)\n"), first.stdoutText)
            var info = stat()
            XCTAssertEqual(stat((chosen as NSString).deletingLastPathComponent, &info), 0)
            XCTAssertEqual(info.st_mode & 0o777, 0o700)
            XCTAssertFalse(FileManager.default.fileExists(atPath: chosen), "the agent creates the file")
            let given = try BinaryRunner.run(["agent-path", "--env", work.appendingPathComponent("mine.agent").path])
            XCTAssertEqual(file(given), work.appendingPathComponent("mine.agent").path)
            XCTAssertFalse(given.stdoutText.hasPrefix("#"))
        }
    }
#endif
