import AuditModel
import AuditPolicy
import AuditRules
import Crypto
import Foundation

/// Unified diffs in git's form (`git apply` reads them): a file deleted whole, and lines removed
/// from a text file. Only deletions: `unused --fix` never adds anything.
enum UnifiedDiff {
    /// The lines of context around each change, as `git diff` writes them.
    static let context = 3

    /// Deletes the file at `path` (relative to the tree root). A binary file is named by its full
    /// blob id, which `git apply` checks against the file before deleting it.
    static func deletion(path: String, bytes: [UInt8], executable: Bool) -> String {
        var out = "diff --git \(quoted("a/" + path)) \(quoted("b/" + path))\n"
        out += "deleted file mode \(executable ? "100755" : "100644")\n"
        out += "index \(blobID(bytes))..\(String(repeating: "0", count: 40))\n"
        if bytes.contains(0) || String(validating: bytes, as: UTF8.self) == nil {
            return out + "Binary files \(quoted("a/" + path)) and /dev/null differ\n"
        }
        guard !bytes.isEmpty else { return out }
        let lines = splitLines(bytes)
        out += "--- \(quoted("a/" + path))\n+++ /dev/null\n@@ -1\(lines.count == 1 ? "" : ",\(lines.count)") +0,0 @@\n"
        for line in lines { out += "-" + line.text + "\n" + (line.newline ? "" : "\\ No newline at end of file\n") }
        return out
    }

    /// Removes the 0-based `removed` lines of the text file at `path`.
    static func removingLines(path: String, bytes: [UInt8], removed: [Int]) -> String {
        let lines = splitLines(bytes)
        let gone = Set(removed.filter { $0 < lines.count })
        guard !gone.isEmpty else { return "" }
        var out = "diff --git \(quoted("a/" + path)) \(quoted("b/" + path))\n"
        out += "--- \(quoted("a/" + path))\n+++ \(quoted("b/" + path))\n"
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
            out += "@@ -\(start + 1),\(oldCount) +\(newStart),\(newCount) @@\n"
            for index in start...end {
                out += (gone.contains(index) ? "-" : " ") + lines[index].text + "\n"
                if !lines[index].newline { out += "\\ No newline at end of file\n" }
            }
            removedBefore += removedHere
        }
        return out
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

    private static func splitLines(_ bytes: [UInt8]) -> [(text: String, newline: Bool)] {
        var out: [(text: String, newline: Bool)] = []
        var start = 0
        while start < bytes.count {
            if let end = bytes[start...].firstIndex(of: 0x0A) {
                out.append((String(decoding: bytes[start..<end], as: UTF8.self), true))
                start = end + 1
            } else {
                out.append((String(decoding: bytes[start...], as: UTF8.self), false))
                break
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
