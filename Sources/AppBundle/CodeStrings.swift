/// The strings one of the app's code files holds: a bundle's executable (its C strings, where
/// Objective-C's `@"…"` literals and Swift's longer literals live) or a JavaScript bundle
/// (`main.jsbundle`, where React Native registers each image asset by name). `imgtrace unused`
/// counts them as weak references: they keep an image alive when no source tree is searched
/// and for code whose sources are elsewhere (a framework, a pod).
public struct CodeStrings: Equatable, Sendable {
    /// The bundle whose code it is.
    public var bundle: String
    /// The file, relative to the top root.
    public var file: String
    /// Every string of plausible name length, once.
    public var strings: Set<String>

    public init(bundle: String, file: String, strings: Set<String>) {
        self.bundle = bundle
        self.file = file
        self.strings = strings
    }

    /// Strings longer than this are prose or data, never an image's name.
    static let maxLength = 255

    /// Every run of printable text in `bytes`, split at control bytes (a C string ends at its
    /// NUL), at bytes that do not form UTF-8 (machine code around an immediate: `\u{B8}x_icon`
    /// gives `x_icon`) and, for JavaScript, also at quotes, so `name:"back-icon"` gives `back-icon`.
    /// Runs of one byte or longer than ``maxLength`` are dropped.
    public static func scan(_ bytes: [UInt8], javaScript: Bool) -> Set<String> {
        var scanner = Scanner(javaScript: javaScript)
        bytes.withUnsafeBytes { scanner.feed($0, final: true) }
        return scanner.strings
    }

    /// `scan` over a file given in chunks: what it keeps between them is the current run (at most
    /// ``maxLength`` bytes) and up to three bytes a UTF-8 sequence may still need, so memory stays
    /// bounded whatever the file's size.
    public struct Scanner {
        let javaScript: Bool
        /// The strings found so far.
        public private(set) var strings = Set<String>()
        /// The current run's bytes from earlier chunks; dropped once it is too long to keep.
        private var run: [UInt8] = []
        private var runTooLong = false
        /// Bytes not yet examined: a UTF-8 sequence may go on in the next chunk.
        private var tail: [UInt8] = []

        public init(javaScript: Bool) {
            self.javaScript = javaScript
        }

        /// Reads the next chunk; `final` for the last (it may be empty), which ends the last run.
        public mutating func feed(_ chunk: UnsafeRawBufferPointer, final: Bool) {
            let bytes = tail + chunk
            tail = []
            // In a chunk that is not the last, the last three bytes wait: a sequence starting
            // before them is complete here.
            let stop = final ? bytes.count : bytes.count - 3
            var start = 0
            var offset = 0
            func take(_ end: Int) {
                defer {
                    run = []
                    runTooLong = false
                }
                let length = run.count + end - start
                guard !runTooLong, length >= 2, length <= maxLength else { return }
                // Most runs lie within one chunk: read in place, no copy.
                let text = run.isEmpty ? String(validating: bytes[start..<end], as: UTF8.self) : String(validating: run + bytes[start..<end], as: UTF8.self)
                if let text { strings.insert(text) }
            }
            while offset < stop {
                let byte = bytes[offset]
                if byte >= 0x80 {
                    let length = utf8SequenceLength(bytes, at: offset)
                    if length > 0 {
                        offset += length
                        continue
                    }
                } else if byte >= 0x20, byte != 0x7F, !(javaScript && (byte == 0x22 || byte == 0x27 || byte == 0x60)) {
                    offset += 1
                    continue
                }
                take(offset)
                offset += 1
                start = offset
            }
            if final {
                take(bytes.count)
                return
            }
            let examined = min(offset, bytes.count)
            if !runTooLong {
                run += bytes[start..<examined]
                if run.count > maxLength {
                    run = []
                    runTooLong = true
                }
            }
            tail = Array(bytes[examined...])
        }
    }

    /// The length of the well-formed UTF-8 sequence of two to four bytes at `offset`, or 0.
    static func utf8SequenceLength(_ bytes: [UInt8], at offset: Int) -> Int {
        let lead = bytes[offset]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard offset + length <= bytes.count else { return 0 }
        for k in 1..<length where bytes[offset + k] & 0xC0 != 0x80 { return 0 }
        // Overlong and out-of-range forms are left to `String(validating:)`, which drops the run.
        return length
    }
}
