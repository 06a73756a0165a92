import Foundation

// Built two ways. With `-DFUZZING` (scripts/fuzz.sh) libFuzzer drives one target, chosen by
// IMGTRACE_FUZZ_TARGET. Without it this is the replay tool CI runs: every committed
// regression input through its target, with no fuzzer needed.

#if FUZZING
    private let selected: FuzzTarget = {
        let id = ProcessInfo.processInfo.environment["IMGTRACE_FUZZ_TARGET"] ?? ""
        guard let target = Targets.named(id) else {
            FileHandle.standardError.write(Data("IMGTRACE_FUZZ_TARGET must be one of: \(Targets.everyTarget.map(\.id).joined(separator: " "))\n".utf8))
            exit(64)
        }
        return target
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        selected.run(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }

    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
    ) -> CInt

    /// SwiftPM links an executable's entry point under this name; libFuzzer's driver takes over.
    @_cdecl("imgtrace_fuzz_main")
    public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
        _ = selected
        var count = argc
        var arguments = argv
        return runFuzzerDriver(&count, &arguments, fuzzOneInput)
    }
#else
    @main
    enum FuzzTool {
        static func main() {
            let arguments = Array(CommandLine.arguments.dropFirst())
            switch arguments.first {
            case "list":
                for target in Targets.everyTarget { print("\(target.id)\t\(target.summary)") }
            case "seeds" where arguments.count == 3:
                guard let target = Targets.named(arguments[1]) else { fail("unknown target `\(arguments[1])`") }
                try? FileManager.default.createDirectory(atPath: arguments[2], withIntermediateDirectories: true)
                for seed in target.seeds() {
                    _ = FileManager.default.createFile(atPath: arguments[2] + "/" + seed.name, contents: Data(seed.bytes))
                }
            case "samples" where arguments.count == 2:
                do { try Samples.write(to: arguments[1]) } catch { fail("\(arguments[1]): \(error)") }
            case "replay" where arguments.count >= 2:
                guard let target = Targets.named(arguments[1]) else { fail("unknown target `\(arguments[1])`") }
                var count = 0
                // IMGTRACE_FUZZ_REPEAT=N runs each input N times: a leak shows as growing memory.
                let repeats = Int(ProcessInfo.processInfo.environment["IMGTRACE_FUZZ_REPEAT"] ?? "") ?? 1
                // The slowest input, timed on its own: the fuzzer's timeout is wall-clock time on a
                // machine that may be busy, this is the figure that says whether an input is slow.
                var slowest = (seconds: 0.0, file: "")
                let clock = ContinuousClock()
                for path in arguments.dropFirst(2) {
                    for file in files(at: path) {
                        guard let data = FileManager.default.contents(atPath: file) else { fail("\(file): cannot read") }
                        let bytes = [UInt8](data)
                        let elapsed = clock.measure { target.run(bytes) }
                        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                        if seconds > slowest.seconds { slowest = (seconds, file) }
                        for _ in 1..<max(1, repeats) { target.run(bytes) }
                        count += 1
                    }
                }
                let slowestText = String(format: "%.3f s", slowest.seconds)
                print("\(target.id): replayed \(count) input\(count == 1 ? "" : "s"); slowest \(slowestText) (\(slowest.file))")
            default:
                fail("usage: imgtrace-fuzz list | seeds TARGET DIR | samples DIR | replay TARGET FILE_OR_DIR...")
            }
        }

        /// A file, or every file below a folder in name order.
        static func files(at path: String) -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { fail("\(path): no such file or folder") }
            guard isDirectory.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().flatMap { files(at: path + "/" + $0) }
        }

        static func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("imgtrace-fuzz: \(message)\n".utf8))
            exit(64)
        }
    }
#endif
