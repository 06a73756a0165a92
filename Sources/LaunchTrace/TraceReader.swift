#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImgtraceSupport

/// Reads debugger console logs (lldb, gdb, Xcode; any era) into `ImageLoad` events.
///
/// The log is read once, as bytes: lines are split on LF, trailing CRs and ANSI escape
/// sequences are removed, and every line number refers to the original file. Memory grows
/// with the number of distinct names, not with the size of the log; events are handed to
/// the caller one by one.
public enum TraceReader {
    /// Reads `bytes`, calling `onLoad` for every hit in order, and returns the summary.
    public static func read(_ bytes: UnsafeRawBufferPointer, options: TraceOptions = TraceOptions(),
                            onLoad: @escaping (ImageLoad) throws -> Void) throws -> TraceSummary {
        var parser = try TraceParser(options: options, emit: onLoad)
        var scratch = [UInt8]()
        var lineNumber = 0
        guard let start = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 0 else {
            try parser.finish(lines: 0, bytes: 0, launchEndPattern: options.launchEndPattern)
            return parser.summary
        }
        let end = start + bytes.count
        var cursor = start
        while cursor < end {
            lineNumber += 1
            let remaining = end - cursor
            let newline: UnsafePointer<UInt8> = memchr(cursor, 0x0A, remaining).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } ?? end
            var length = newline - cursor
            while length > 0, cursor[length - 1] == 0x0D { length -= 1 }
            if length > 0, memchr(cursor, 0x1B, length) != nil {
                stripEscapes(cursor, length, into: &scratch)
                try scratch.withUnsafeBufferPointer { buffer in
                    try parser.consume(ByteLine(base: buffer.baseAddress ?? start, count: buffer.count), number: lineNumber)
                }
            } else {
                try parser.consume(ByteLine(base: cursor, count: length), number: lineNumber)
            }
            cursor = newline + 1
        }
        try parser.finish(lines: lineNumber, bytes: bytes.count, launchEndPattern: options.launchEndPattern)
        return parser.summary
    }

    /// Reads a log held in memory and returns every event with the summary.
    public static func read(_ data: [UInt8], options: TraceOptions = TraceOptions()) throws -> (events: [ImageLoad], summary: TraceSummary) {
        var events: [ImageLoad] = []
        let summary = try data.withUnsafeBytes { raw in
            try read(raw, options: options) { events.append($0) }
        }
        return (events, summary)
    }

    /// Reads the log at `path`. Throws `InputError` when it cannot be read.
    public static func read(contentsOf path: String, options: TraceOptions = TraceOptions(),
                            onLoad: @escaping (ImageLoad) throws -> Void) throws -> TraceSummary {
        let file = try MappedFile(path: path)
        return try file.withBytes { try read($0, options: options, onLoad: onLoad) }
    }

    /// Removes ANSI CSI (`ESC [ … final`), OSC (`ESC ] … BEL`) and two-byte escape sequences.
    static func stripEscapes(_ base: UnsafePointer<UInt8>, _ count: Int, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var i = 0
        while i < count {
            let b = base[i]
            guard b == 0x1B else { out.append(b); i += 1; continue }
            i += 1
            guard i < count else { break }
            let kind = base[i]
            i += 1
            if kind == 0x5B {
                while i < count, !(base[i] >= 0x40 && base[i] <= 0x7E) { i += 1 }
                i += 1
            } else if kind == 0x5D {
                while i < count, base[i] != 0x07 {
                    if base[i] == 0x1B, i + 1 < count, base[i + 1] == 0x5C { i += 1; break }
                    i += 1
                }
                i += 1
            }
        }
    }
}
