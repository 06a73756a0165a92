import Crypto

/// Unified diffs in git's form (`git apply` reads them): a file deleted whole, and lines removed
/// from a text file. Only deletions: `unused --fix` never adds anything.
enum UnifiedDiff {
    /// The lines of context around each change, as `git diff` writes them.
    static let context = 3

    /// Deletes the file at `path` (relative to the tree root); `mode` is git's (`100644`,
    /// `100755`, `120000` for a symbolic link, whose bytes are its target). A binary file is named
    /// by its full blob id, which `git apply` checks against the file before deleting it.
    static func deletion(path: String, bytes: [UInt8], mode: String) -> [UInt8] {
        var out = Array("diff --git \(quoted("a/" + path)) \(quoted("b/" + path))\n".utf8)
        out += Array("deleted file mode \(mode)\n".utf8)
        out += Array("index \(blobID(bytes))..\(String(repeating: "0", count: 40))\n".utf8)
        if bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil {
            return out + Array("Binary files \(quoted("a/" + path)) and /dev/null differ\n".utf8)
        }
        guard !bytes.isEmpty else { return out }
        let lines = splitLines(bytes)
        out += Array("--- \(quoted("a/" + path))\n+++ /dev/null\n@@ -1\(lines.count == 1 ? "" : ",\(lines.count)") +0,0 @@\n".utf8)
        for line in lines { append(line, marked: UInt8(ascii: "-"), to: &out) }
        return out
    }

    /// Removes the 0-based `removed` lines of the text file at `path`. The lines are the file's
    /// own bytes: a byte that is not UTF-8 (a Latin-1 comment) stays the byte `git apply` matches.
    static func removingLines(path: String, bytes: [UInt8], removed: [Int]) -> [UInt8] {
        let lines = splitLines(bytes)
        let gone = Set(removed.filter { $0 < lines.count })
        guard !gone.isEmpty else { return [] }
        var out = Array("diff --git \(quoted("a/" + path)) \(quoted("b/" + path))\n".utf8)
        out += Array("--- \(quoted("a/" + path))\n+++ \(quoted("b/" + path))\n".utf8)
        // Runs of changes whose contexts touch become one hunk.
        let sorted = gone.sorted()
        var hunks: [(first: Int, last: Int)] = []
        for line in sorted {
            if let last = hunks.last, line - last.last <= 2 * context {
                hunks[hunks.count - 1].last = line
            } else {
                hunks.append((line, line))
            }
        }
        var removedBefore = 0
        for hunk in hunks {
            let start = max(0, hunk.first - context), end = min(lines.count - 1, hunk.last + context)
            let removedHere = (start...end).filter(gone.contains).count
            let oldCount = end - start + 1, newCount = oldCount - removedHere
            let newStart = newCount == 0 ? start - removedBefore : start - removedBefore + 1
            out += Array("@@ -\(start + 1),\(oldCount) +\(newStart),\(newCount) @@\n".utf8)
            for index in start...end { append(lines[index], marked: gone.contains(index) ? UInt8(ascii: "-") : UInt8(ascii: " "), to: &out) }
            removedBefore += removedHere
        }
        return out
    }

    /// One line of a hunk: its mark, its bytes, and git's note when the file ends without a newline.
    private static func append(_ line: (bytes: ArraySlice<UInt8>, newline: Bool), marked mark: UInt8, to out: inout [UInt8]) {
        out.append(mark)
        out += line.bytes
        out.append(0x0A)
        if !line.newline { out += Array("\\ No newline at end of file\n".utf8) }
    }

    /// git's id of a file's content: SHA-1 of `blob <size>\0` and the bytes.
    static func blobID(_ bytes: [UInt8]) -> String {
        var hash = Insecure.SHA1()
        hash.update(data: Array("blob \(bytes.count)\u{0}".utf8))
        hash.update(data: bytes)
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// A path as git writes it: in quotes with C escapes when it holds a quote, a backslash, a
    /// control character or a byte above ASCII (git's `core.quotePath`).
    static func quoted(_ path: String) -> String {
        let bytes = Array(path.utf8)
        guard bytes.contains(where: { $0 < 0x20 || $0 >= 0x7F || $0 == 0x22 || $0 == 0x5C }) else { return path }
        var out = "\""
        for byte in bytes {
            switch byte {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x09: out += "\\t"
            case 0x0A: out += "\\n"
            case 0x20..<0x7F: out.append(Character(Unicode.Scalar(byte)))
            default: out += "\\" + String(byte, radix: 8).leftPadded(to: 3)
            }
        }
        return out + "\""
    }

    private static func splitLines(_ bytes: [UInt8]) -> [(bytes: ArraySlice<UInt8>, newline: Bool)] {
        var out: [(bytes: ArraySlice<UInt8>, newline: Bool)] = []
        var start = 0
        while start < bytes.count {
            if let end = bytes[start...].firstIndex(of: 0x0A) {
                out.append((bytes[start..<end], true))
                start = end + 1
            } else {
                out.append((bytes[start...], false))
                break
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
