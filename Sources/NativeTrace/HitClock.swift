#if os(Linux)
    import Foundation

    /// Local wall-clock time as `yyyy-MM-dd HH:mm:ss.mmm`. It is read on every hit, so the date
    /// part is formatted once per second, not per hit.
    struct HitClock {
        private var second = -1
        private var prefix: [UInt8] = []

        mutating func now() -> String {
            var spec = timespec()
            clock_gettime(CLOCK_REALTIME, &spec)
            return format(seconds: spec.tv_sec, nanoseconds: spec.tv_nsec)
        }

        /// A time read elsewhere (the agent's records), as `now` formats it.
        mutating func format(seconds: Int, nanoseconds: Int) -> String {
            var bytes: [UInt8] = []
            append(seconds: seconds, nanoseconds: nanoseconds, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        /// The same time written onto the end of a line built as bytes.
        mutating func append(seconds: Int, nanoseconds: Int, to line: inout [UInt8]) {
            if seconds != second {
                var time = seconds
                var parts = tm()
                localtime_r(&time, &parts)
                var buffer = [UInt8](repeating: 0, count: 32)
                let length = buffer.withUnsafeMutableBufferPointer { raw in
                    raw.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, $0.count, "%Y-%m-%d %H:%M:%S", &parts) }
                }
                prefix = Array(buffer[..<length])
                second = seconds
            }
            line += prefix
            line.append(UInt8(ascii: "."))
            // A time from a file may hold any number of nanoseconds: at least three digits.
            let milliseconds = nanoseconds / 1_000_000
            if milliseconds >= 0, milliseconds < 1000 {
                HitLine.appendThreeDigits(milliseconds, to: &line)
            } else {
                line += (milliseconds < 10 ? "00" : milliseconds < 100 ? "0" : "").utf8
                line += String(milliseconds).utf8
            }
        }
    }
#endif
