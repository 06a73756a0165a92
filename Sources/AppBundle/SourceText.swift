import ImgtraceSupport

/// A line and column in a source text file, both 1-based (what Xcode and code-scanning tools show).
public struct TextPosition: Sendable, Equatable, Hashable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (a: TextPosition, b: TextPosition) -> Bool { (a.line, a.column) < (b.line, b.column) }
}

/// Readers of the two kinds of text a developer edits around images (docs/source-trees.md §2, §4): a set's `Contents.json`
/// and an Interface Builder document. Each is a pure function of the file's bytes; neither
/// needs the file to be well formed, because a location is a convenience, not a verdict.
package enum SourceText {
    /// Where each `"filename" : "…"` entry of an asset set's `Contents.json` sits, by file name
    /// (the first entry wins when a name repeats).
    package static func filenamePositions(inContentsJSON bytes: [UInt8]) -> [String: TextPosition] {
        var positions: [String: TextPosition] = [:]
        var scanner = TextScanner(bytes)
        while let key = scanner.nextString() {
            guard key.text == "filename" else { continue }
            scanner.skipSpaceAnd(separator: UInt8(ascii: ":"))
            guard scanner.peek == UInt8(ascii: "\""), let value = scanner.nextString() else { continue }
            if positions[value.text] == nil { positions[value.text] = key.position }
        }
        return positions
    }

    /// Every image an Interface Builder document (`.xib`, `.storyboard`) names, with where: the
    /// attributes `image="…"` and `…Image="…"` (`backgroundImage`, `highlightedImage`,
    /// `selectedImage`, …). The `<image name=…>` entries of its `<resources>` only declare sizes.
    package static func imageAttributes(inInterface bytes: [UInt8]) -> [(name: String, position: TextPosition)] {
        var found: [(name: String, position: TextPosition)] = []
        var line = 1
        var lineStart = 0
        var index = 0
        let suffix = Array("mage=\"".utf8)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A {
                line += 1
                lineStart = index + 1
                index += 1
                continue
            }
            // An attribute name ends in `image` or `Image` and starts after white space.
            guard byte == UInt8(ascii: "i") || byte == UInt8(ascii: "I"), bytes[(index + 1)...].starts(with: suffix) else {
                index += 1
                continue
            }
            var nameStart = index
            while nameStart > lineStart, isNameByte(bytes[nameStart - 1]) { nameStart -= 1 }
            let attribute = bytes[nameStart..<index]
            let isImageAttribute =
                (byte == UInt8(ascii: "i") && attribute.isEmpty) || (byte == UInt8(ascii: "I") && !attribute.isEmpty)
            let valueStart = index + 1 + suffix.count
            guard isImageAttribute, nameStart == 0 || isSpace(bytes[nameStart - 1]),
                let valueEnd = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\""))
            else {
                index += 1
                continue
            }
            let value = XMLEntities.decoded(String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self), strict: false) ?? ""
            if !value.isEmpty {
                found.append((value, TextPosition(line: line, column: nameStart - lineStart + 1)))
            }
            // A value may hold a newline in a hostile file; count it so later lines stay right.
            for b in bytes[valueStart..<valueEnd] where b == 0x0A {
                line += 1
            }
            if let lastNewline = bytes[valueStart..<valueEnd].lastIndex(of: 0x0A) { lineStart = lastNewline + 1 }
            index = valueEnd + 1
        }
        return found
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D || b == 0x3A
    }

    private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
}

/// Walks JSON text string by string, counting lines: enough to find a key and its value
/// without building the document.
private struct TextScanner {
    let bytes: [UInt8]
    var index = 0
    var line = 1
    var lineStart = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The next string literal after `index`, with the position of its opening quote.
    mutating func nextString() -> (text: String, position: TextPosition)? {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { advance() }
        guard index < bytes.count else { return nil }
        let position = TextPosition(line: line, column: index - lineStart + 1)
        advance()
        var text: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                advance()
                let escaped = bytes[index]
                switch escaped {
                case UInt8(ascii: "n"): text.append(0x0A)
                case UInt8(ascii: "t"): text.append(0x09)
                default: text.append(escaped)  // `\"`, `\\`, `\/`; `\u` is rare enough in file names to keep as is
                }
            } else {
                text.append(bytes[index])
            }
            advance()
        }
        guard index < bytes.count else { return nil }  // cut off before its closing quote
        advance()
        return (String(decoding: text, as: UTF8.self), position)
    }

    /// Skips white space and at most one `separator`.
    mutating func skipSpaceAnd(separator: UInt8) {
        var seen = false
        while let b = peek {
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                advance()
            } else if b == separator && !seen {
                seen = true
                advance()
            } else {
                return
            }
        }
    }

    private mutating func advance() {
        if index < bytes.count, bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        index += 1
    }
}
