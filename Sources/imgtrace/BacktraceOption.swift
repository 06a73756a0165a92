import ArgumentParser
import LaunchTrace

/// `--backtrace N` of `lldb-script` and `record`: the reader keeps that many frames per hit.
enum BacktraceOption {
    /// Frames a capture writes unless told otherwise: enough to see whether the app's code or
    /// only the toolkit's asked for an image (`LoadOwner`), at a cost a launch does not notice
    /// (Gridlock's 192 hits under `record`: 1.06 s with 8 frames, 1.08 s without).
    static let defaultFrames = 8

    static func check(_ frames: Int) throws {
        guard (0...TraceReader.maxBacktraceFrames).contains(frames) else {
            throw ValidationError("--backtrace takes 0 to \(TraceReader.maxBacktraceFrames) frames (the most a hit keeps)")
        }
    }
}
