/// Who reads an output, and so what its bytes may hold (docs/output-safety.md).
///
/// Names, paths and facet names come from the inputs: whatever an app printed, whatever a bundle
/// or a catalog is called. Every byte imgtrace writes passes an `OutputGuard` for its consumer,
/// which turns what that consumer would act on into visible text, so a name can neither drive a
/// terminal, forge a line for Xcode, nor become a GitHub Actions workflow command.
public enum OutputConsumer: Sendable, Equatable {
    /// A terminal or a build log: text reports, listings, standard error, `--format xcode`.
    case terminal
    /// The GitHub Actions runner reading workflow commands (`--format github`): the reporter's
    /// own command lines are written as trusted; everything else is guarded.
    case githubCommands
    /// A Markdown renderer (pull-request comments, job summaries).
    case markdown
    /// A browser.
    case html
    /// An XML reader (JUnit, Checkstyle).
    case xml
    /// A JSON reader: escapes are JSON's own, so the data stays exactly the same.
    case json
}

/// Untrusted text made safe to put inside one line of a report for people.
package enum SafeText {
    /// `text` on one line with every character that could break the line, control a terminal or
    /// reorder what is shown written as a visible escape (`\n`, `\t`, `\u{1B}`, `\u{202E}`).
    /// Works on Unicode scalars: `"\r\n"` is one `Character` but two escapes.
    package static func visible(_ text: String) -> String {
        // Fast path: the escaped scalars all start with a byte below 0x20, 0x7F, 0xC2, 0xD8 or 0xE2.
        var copy = text
        let suspect = copy.withUTF8 { bytes in
            for b in bytes where b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE2 { return true }
            return false
        }
        guard suspect, text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if needsEscape(scalar) { out += escaped(scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// A name quoted in a sentence: between backticks, shown with `visible`, and with any backtick
    /// of its own escaped, so every backtick of a message delimits a name (Markdown relies on it).
    package static func quoted(_ name: String) -> String { "`" + quotedContent(name) + "`" }

    /// What `quoted` puts between the backticks: a format with code spans of its own shows this.
    package static func quotedContent(_ name: String) -> String {
        let shown = visible(name)
        guard shown.utf8.contains(UInt8(ascii: "`")) else { return shown }
        var out = ""
        for scalar in shown.unicodeScalars {
            if scalar == "`" { out += escaped(0x60) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `text` cut to `limit` characters, the cut said, for one-line diagnostics of huge inputs.
    package static func capped(_ text: String, limit: Int = 400) -> String {
        guard text.utf8.count > limit else { return text }
        let kept = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit)))
        return kept + "… (\(text.utf8.count - kept.utf8.count) more bytes)"
    }

    /// Characters no report shows raw: C0 controls (a tab included), DEL, C1 controls (NEL
    /// included), the line and paragraph separators and the bidirectional overrides and isolates.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x2028 || v == 0x2029 || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
    }

    /// `\u{1B}`: the visible escape of one scalar.
    package static func escaped(_ value: UInt32) -> String {
        "\\u{" + String(value, radix: 16, uppercase: true) + "}"
    }
}

/// The last line of defence where bytes leave the program: it rewrites, per consumer, what no
/// report of ours writes on purpose — control characters, C1 controls, line separators,
/// bidirectional overrides, a line starting with `::` and any `##[` (the GitHub runner's two
/// command parsers) — into that consumer's visible or equivalent escape. Bytes are never dropped.
///
/// Line breaks inside a value are the value layer's job (`SafeText.visible`, XML's and JSON's
/// own escaping): here a LF is a line break, and the guard makes sure nothing but LF is one.
package struct OutputGuard {
    package let consumer: OutputConsumer
    /// Lets `ESC [ digits ; … m` (SGR colour) through: the text report on a terminal.
    package var allowsColour = false

    /// Only blanks since the last LF (the runner trims them before looking for `::`).
    private var atLineStart = true
    /// Undecided bytes held until the next ones decide them (a `:` or `#`, a partial UTF-8 sequence).
    private var pending: [UInt8] = []

    package init(consumer: OutputConsumer) { self.consumer = consumer }

    /// Appends the guarded form of `bytes` to `out`.
    package mutating func filter(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        if !pending.isEmpty {
            // Rare: finish the held bytes with the new ones.
            var joined = pending
            pending.removeAll()
            joined.append(contentsOf: bytes)
            joined.withUnsafeBufferPointer { run($0, into: &out, final: false) }
            return
        }
        // Fast path: copy the run of bytes that can never matter, then go careful. The table is
        // read through a local: a static's every access is a lazy-initialisation check.
        let plainEnd = atLineStart ? 0 : Self.plainRun(bytes, from: 0, table: Self.plain)
        if plainEnd > 0 { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<plainEnd])) }
        if plainEnd < bytes.count { run(UnsafeBufferPointer(rebasing: bytes[plainEnd...]), into: &out, final: false) }
    }

    /// Appends trusted bytes (a reporter's own workflow commands) as they are.
    package mutating func trusted(_ bytes: [UInt8], into out: inout [UInt8]) {
        bytes.withUnsafeBufferPointer { trusted($0, into: &out) }
    }

    /// Appends bytes that already passed a guard for this consumer, or are the reporter's own.
    package mutating func trusted(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        finish(into: &out)
        out.append(contentsOf: bytes)
        if let last = bytes.last { atLineStart = last == 0x0A }
    }

    /// Notes trusted bytes written past the guard (straight to the file), ending with `last`.
    package mutating func wroteTrusted(last: UInt8) { atLineStart = last == 0x0A }

    /// The guarded form of a whole value written in mid-line (a quoted JSON string: nothing
    /// before or after it can change how its bytes are guarded), for a writer that guards each
    /// distinct value once and then repeats it.
    package static func guarded(_ bytes: UnsafeBufferPointer<UInt8>, for consumer: OutputConsumer) -> [UInt8] {
        var guardrail = OutputGuard(consumer: consumer)
        guardrail.atLineStart = false
        var out: [UInt8] = []
        guardrail.filter(bytes, into: &out)
        guardrail.finish(into: &out)
        return out
    }

    /// Writes out whatever is still held (the end of the output).
    package mutating func finish(into out: inout [UInt8]) {
        guard !pending.isEmpty else { return }
        let held = pending
        pending.removeAll()
        held.withUnsafeBufferPointer { run($0, into: &out, final: true) }
    }

    /// The careful path: one byte at a time, returning to the fast path's caller at the end.
    private mutating func run(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], final: Bool) {
        let plain = Self.plain
        var i = 0
        while i < bytes.count {
            // Runs of plain bytes in mid-line go straight through.
            if !atLineStart, plain[Int(bytes[i])] {
                let end = Self.plainRun(bytes, from: i + 1, table: plain)
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
                i = end
                continue
            }
            guard let used = step(bytes, at: i, into: &out) else { return hold(bytes, from: i, final: final, into: &out) }
            i += used
        }
    }

    /// Guards the byte at `i` and what it starts: the bytes used, or nil when the bytes that
    /// decide it are not here yet.
    @inline(__always)
    private mutating func step(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, into out: inout [UInt8]) -> Int? {
        let b = bytes[i]
        let n = bytes.count
        switch b {
        case 0x0A:
            out.append(b)
            atLineStart = true
            return 1
        case 0x09, 0x20:
            // Blanks keep a line's start: the runner trims them before it looks for `::`.
            var end = i + 1
            while end < n, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
            return end - i
        case 0x3A where atLineStart:
            // `::` after blanks at a line's start is a workflow command.
            guard i + 1 < n else { return nil }
            if bytes[i + 1] == 0x3A { out.append(contentsOf: runnerEscape(0x3A)) } else { out.append(b) }
            atLineStart = false
            return 1
        case 0x23:
            // `##[` anywhere is a command to the runner's legacy parser.
            guard i + 2 < n else { return nil }
            atLineStart = false
            out.append(b)
            guard bytes[i + 1] == 0x23, bytes[i + 2] == 0x5B else { return 1 }
            out.append(contentsOf: runnerEscape(0x23))
            return 2
        case 0x1B where allowsColour:
            atLineStart = false
            return colour(bytes, at: i, into: &out)
        case 0x00..<0x20, 0x7F:
            atLineStart = false
            out.append(contentsOf: controlEscape(UInt32(b)))
            return 1
        case 0xC2, 0xD8, 0xE2:
            atLineStart = false
            return twoOrThreeByteScalar(bytes, at: i, into: &out)
        default:
            atLineStart = false
            out.append(b)
            return 1
        }
    }

    /// An SGR colour sequence (`ESC [ digits ; … m`) as it is; any other escape made visible.
    private func colour(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, into out: inout [UInt8]) -> Int {
        var j = i + 1
        if j < bytes.count, bytes[j] == 0x5B {
            j += 1
            while j < bytes.count, (0x30...0x39).contains(bytes[j]) || bytes[j] == 0x3B { j += 1 }
            if j < bytes.count, bytes[j] == 0x6D {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i...j]))
                return j + 1 - i
            }
        }
        out.append(contentsOf: controlEscape(UInt32(bytes[i])))
        return 1
    }

    /// A scalar led by 0xC2, 0xD8 or 0xE2 (where the C1 controls, separators and bidi marks live):
    /// escaped when it is one, else its lead byte passed; nil when the sequence is cut here.
    private func twoOrThreeByteScalar(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, into out: inout [UInt8]) -> Int? {
        let b = bytes[i]
        let length = b == 0xE2 ? 3 : 2
        guard i + length <= bytes.count else { return nil }
        let scalar: UInt32 =
            length == 2
            ? (UInt32(b & 0x1F) << 6) | UInt32(bytes[i + 1] & 0x3F)
            : (UInt32(b & 0x0F) << 12) | (UInt32(bytes[i + 1] & 0x3F) << 6) | UInt32(bytes[i + 2] & 0x3F)
        let wellFormed = bytes[i + 1] & 0xC0 == 0x80 && (length == 2 || bytes[i + 2] & 0xC0 == 0x80)
        if wellFormed, let unicode = Unicode.Scalar(scalar), SafeText.needsEscape(unicode) {
            out.append(contentsOf: controlEscape(scalar))
            return length
        }
        out.append(b)
        return 1
    }

    /// Keeps `bytes[from...]` for the next write; at the end of the output they are written as plain bytes.
    private mutating func hold(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, final: Bool, into out: inout [UInt8]) {
        guard final else {
            pending = Array(bytes[start...])
            return
        }
        // Nothing follows: a lone `:` or `#`, or a cut UTF-8 sequence, is harmless.
        out.append(contentsOf: bytes[start...])
        atLineStart = false
    }

    /// The consumer's escape of a character the runner would act on (`:` of a leading `::`, `#` of `##[`).
    private func runnerEscape(_ byte: UInt8) -> [UInt8] {
        switch consumer {
        case .json: return Array("\\u00\(byte == 0x23 ? "23" : "3a")".utf8)
        case .xml, .html: return Array("&#\(byte);".utf8)
        case .terminal, .githubCommands, .markdown: return Array(SafeText.escaped(UInt32(byte)).utf8)
        }
    }

    /// The consumer's escape of a control, C1, separator or bidi character.
    private func controlEscape(_ value: UInt32) -> [UInt8] {
        switch consumer {
        case .json:
            let hex = String(value, radix: 16)
            return Array(("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).utf8)
        case .terminal, .githubCommands, .markdown, .html, .xml:
            return Array(SafeText.escaped(value).utf8)
        }
    }

    /// The end of the run of plain bytes that starts at `start`. Eight bytes at a time while they
    /// are ASCII with no control, DEL or `#` (the bulk of every report), then byte by byte
    /// through the table for the word that is not.
    private static func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, table plain: [Bool]) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let n = bytes.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var i = start
        while true {
            while i + 8 <= n {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self))
                // A byte ≥ 0x80, < 0x20, equal to 0x7F or to `#` sets its high bit in `flags`
                // (the classic has-less-than and has-zero-byte tests; no byte is missed).
                let belowSpace = (word &- ones &* 0x20) & ~word
                let del = word ^ (ones &* 0x7F)
                let hash = word ^ (ones &* 0x23)
                let flags = word | belowSpace | ((del &- ones) & ~del) | ((hash &- ones) & ~hash)
                if flags & highs != 0 { break }
                i += 8
            }
            // The word that stopped the fast loop (or the tail): byte by byte, up to 8.
            let stop = min(n, i + 8)
            while i < stop {
                if !plain[Int(base[i])] { return i }
                i += 1
            }
            if i >= n { return n }
        }
    }

    /// Bytes that never need a look in mid-line: everything but controls, DEL, `#`, and the
    /// lead bytes of the escaped ranges (C2: C1 controls; D8: U+061C; E2: U+200E–U+2069).
    private static let plain: [Bool] = (0..<256).map { b in
        !(b < 0x20 || b == 0x7F || b == 0x23 || b == 0xC2 || b == 0xD8 || b == 0xE2)
    }
}
