#if os(Linux)
    import Foundation

    /// Local wall-clock time as `yyyy-MM-dd HH:mm:ss.mmm`. It is read on every hit, so the date
    /// part is formatted once per second, not per hit.
    struct HitClock {
        private var second = -1
        private var prefix = ""

        mutating func now() -> String {
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            return format(seconds: spec.tv_sec, nanoseconds: spec.tv_nsec)
        }

        /// `.000` to `.999`, made once: formatting the number on every hit cost more than the rest of the line.
        private static let millisecondTexts = (0..<1000).map { "." + String(String($0 + 1000).dropFirst()) }

        /// A time read elsewhere (the agent's records), as `now` formats it.
        mutating func format(seconds: Int, nanoseconds: Int) -> String {
            let spec = (tv_sec: seconds, tv_nsec: nanoseconds)
            if spec.tv_sec != second {
                var time = spec.tv_sec
                var parts = tm()
                localtime_r(&time, &parts)
                var buffer = [UInt8](repeating: 0, count: 32)
                let length = buffer.withUnsafeMutableBufferPointer { raw in
                    raw.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, $0.count, "%Y-%m-%d %H:%M:%S", &parts) }
                }
                prefix = String(decoding: buffer[..<length], as: UTF8.self)
                second = spec.tv_sec
            }
            let milliseconds = spec.tv_nsec / 1_000_000
            // A time from a file may hold any number of nanoseconds.
            guard (0..<1000).contains(milliseconds) else {
                return prefix + (milliseconds < 10 ? ".00" : milliseconds < 100 ? ".0" : ".") + String(milliseconds)
            }
            return prefix + Self.millisecondTexts[milliseconds]
        }
    }
#endif
