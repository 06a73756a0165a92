import ArgumentParser
import LaunchTrace

/// `--backtrace N` of `lldb-script` and `record`: the reader keeps that many frames per hit.
enum BacktraceOption {
    static func check(_ frames: Int) throws {
        guard (0...TraceReader.maxBacktraceFrames).contains(frames) else {
            throw ValidationError("--backtrace takes 0 to \(TraceReader.maxBacktraceFrames) frames (the most a hit keeps)")
        }
    }
}
