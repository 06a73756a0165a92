#if os(Linux)
    import Foundation
    import TestSupport
    import XCTest

    /// The method names in `record`'s frames are real: recordings of Debian's Gridlock, Chess and
    /// Gomoku, each Objective-C frame name checked against GNUstep's runtime itself (a program
    /// compiled here loads the toolkit and asks it for the class and the method), and a frame of
    /// the app's own classes (which no other program can load) against the app's own bytes. The
    /// metadata reader once named `-[GameController awakeFromNib]` `+[#16@0:8 awakeFromNib]` and
    /// invented `-[hasMenu @O+]`.
    final class FrameNamesTests: XCTestCase {
        private var work: URL!

        override func setUpWithError() throws {
            work = try BinaryRunner.temporaryDirectory()
        }

        override func tearDownWithError() throws {
            if let work { try? FileManager.default.removeItem(at: work) }
        }

        /// Reads `±[Class selector]` lines; prints each whose class or method the runtime lacks.
        private static let checker = #"""
            #import <Foundation/Foundation.h>
            #include <dlfcn.h>
            #include <objc/runtime.h>
            #include <stdio.h>
            #include <string.h>
            int main(int argc, char **argv) {
                [NSAutoreleasePool new];  /* the toolkit's class set-up autoreleases */
                for (int i = 1; i < argc; i++)
                    if (!dlopen(argv[i], RTLD_NOW | RTLD_GLOBAL)) { printf("cannot-load %s\n", argv[i]); return 1; }
                char line[4096];
                while (fgets(line, sizeof line, stdin)) {
                    line[strcspn(line, "\n")] = 0;
                    char cls[1024], sel[2048];
                    if (sscanf(line + 2, "%1023[^ ] %2047[^]]", cls, sel) != 2) { printf("malformed %s\n", line); continue; }
                    char *paren = strchr(cls, '(');
                    if (paren) *paren = 0;
                    Class c = objc_getClass(cls);
                    if (!c) { printf("unknown-class %s\n", line); continue; }
                    SEL s = sel_registerName(sel);
                    if (!(line[0] == '+' ? class_getClassMethod(c, s) : class_getInstanceMethod(c, s))) printf("no-method %s\n", line);
                }
                return 0;
            }
            """#

        private func shell(_ command: String, input: String = "") throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", command]
            let output = Pipe(), feed = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = feed
            try process.run()
            feed.fileHandleForWriting.write(Data(input.utf8))
            try feed.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: data, as: UTF8.self))
        }

        func testEveryMethodNameInTheFramesOfThreeGNUstepAppsIsTheRuntimes() throws {
            let gui = "/usr/lib/libgnustep-gui.so.0.29"
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xvfb-run"), FileManager.default.fileExists(atPath: gui),
                let flags = try? shell("gnustep-config --objc-flags"), flags.status == 0, let libraries = try? shell("gnustep-config --base-libs")
            else { throw XCTSkip("needs xvfb, gobjc, libgnustep-base-dev and GNUstep's gui library (CI installs them)") }
            let source = work.appendingPathComponent("check.m"), checker = work.appendingPathComponent("check")
            try Self.checker.write(to: source, atomically: true, encoding: .utf8)
            let compiled = try shell(
                "cc -x objective-c -std=gnu99 \(flags.output.replacingOccurrences(of: "-MMD -MP", with: "").trimmingCharacters(in: .whitespacesAndNewlines)) -o \(checker.path) \(source.path) \(libraries.output.trimmingCharacters(in: .whitespacesAndNewlines)) -ldl"
            )
            guard compiled.status == 0 else { throw XCTSkip("gobjc could not build the checker") }
            var checked = 0
            for name in ["Gridlock", "Chess", "Gomoku"] {
                let app = "/usr/lib/GNUstep/Applications/\(name).app"
                guard FileManager.default.fileExists(atPath: app) else { continue }
                let log = work.appendingPathComponent("\(name).log")
                _ = try shell("xvfb-run -a \(BinaryRunner.executable.path) record --duration 6 --output \(log.path) -- \(app)")
                guard let text = try? String(contentsOf: log, encoding: .utf8) else { throw XCTSkip("the recording did not run (ptrace or X not available)") }
                // `module`name`, for every Objective-C frame.
                let frames = Set(
                    text.split(separator: "\n").filter { $0.contains("frame #") }.compactMap { line -> String? in
                        guard let tick = line.firstIndex(of: "`"), let space = line[..<tick].lastIndex(of: " ") else { return nil }
                        return String(line[line.index(after: space)...])
                    }.filter { $0.contains("`+[") || $0.contains("`-[") })
                XCTAssertGreaterThan(frames.count, 5, "\(name): its frames name methods")
                let methods = frames.map { String($0[$0.index(after: $0.firstIndex(of: "`")!)...]) }
                let verdicts = try shell("\(checker.path) \(gui)", input: Set(methods).sorted().joined(separator: "\n") + "\n")
                XCTAssertEqual(verdicts.status, 0, verdicts.output)
                let executable = try Data(contentsOf: URL(fileURLWithPath: "\(app)/\(name)"))
                for line in verdicts.output.split(separator: "\n") {
                    // The app's own classes: only in the app's frames, their names in its own bytes.
                    guard line.hasPrefix("unknown-class ") else {
                        XCTFail("\(name): \(line)")
                        continue
                    }
                    let method = String(line.dropFirst("unknown-class ".count))
                    XCTAssertTrue(frames.contains("\(name)`\(method)"), "\(name): \(method) is no class of the toolkit and not in the app's frames")
                    let body = method.dropFirst(2).dropLast()
                    let className = String(body.prefix { $0 != " " && $0 != "(" })
                    XCTAssertNotNil(className.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression), "\(name): \(method) names no class")
                    let parts = body.split(separator: " ", maxSplits: 1).map { Data(($0.split(separator: "(").first ?? $0).utf8) + Data([0]) }
                    XCTAssertTrue(parts.allSatisfy { executable.range(of: $0) != nil }, "\(name): \(method) is not named in \(name)'s bytes")
                }
                checked += methods.count
            }
            XCTAssertGreaterThan(checked, 20, "Gridlock at least was recorded")
        }
    }
#endif
