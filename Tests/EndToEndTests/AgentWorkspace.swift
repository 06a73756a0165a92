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
    }
#endif
