#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// A test of the in-process agent: a scratch folder of its own, removed after the test, and
    /// a skip with its reason when the agent library was not built.
    class AgentWorkspaceTestCase: XCTestCase {
        var work: URL!

        override func setUpWithError() throws {
            work = try BinaryRunner.temporaryDirectory()
            guard BinaryRunner.agentLibrary != nil else { throw XCTSkip("libImgtraceAgent.so is not built (swift build)") }
        }

        override func tearDownWithError() throws {
            if let work { try? FileManager.default.removeItem(at: work) }
        }

        /// How a program ended and what it printed.
        struct Run: Equatable {
            var signal: Int32?
            var status: Int32
            var stdout: String
            var stderr: String
        }

        /// Runs `program` without the agent's variables of this process's environment, with
        /// `environment` added: alone, preloaded or recording, as a test asks.
        func run(_ program: URL, _ arguments: [String] = [], environment: [String: String] = [:]) throws -> Run {
            let process = Process()
            process.executableURL = program
            process.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            for key in env.keys where key.hasPrefix("IMGTRACE_AGENT") || key == "LD_PRELOAD" { env[key] = nil }
            for (key, value) in environment { env[key] = value }
            process.environment = env
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let signaled = process.terminationReason == .uncaughtSignal
            return Run(
                signal: signaled ? process.terminationStatus : nil, status: signaled ? 0 : process.terminationStatus,
                stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
        }
    }
#endif
