/// The YAML a config is written in: block mappings and sequences by indentation, flow `[…]` and
/// `{…}` (over several lines too), plain, 'single' and "double" quoted scalars, comments, one
/// document. Anchors, aliases, tags, block scalars (`|`, `>`) and complex keys are refused with
/// their place: a config has no use for them.
///
/// A scalar is kept as where it is in the bytes (9 bytes), decoded when read: a 1 MiB list of
/// ignored names costs a fraction of the file, not a tree of strings 13 times its size.
struct ConfigYAML {
    enum Style: UInt8 { case plain, single, double }

    /// A scalar's text between `start` and `end` (inside the quotes for quoted ones).
    struct Scalar {
        var start: UInt32
        var end: UInt32
        var style: Style
    }

    struct Pair {
        var key: Scalar
        var value: Node
    }

    enum Node {
        case scalar(Scalar)
        case sequence([Node], at: UInt32)
        case mapping([Pair], at: UInt32)

        /// Where the node starts, a byte offset.
        var offset: Int {
            switch self {
            case let .scalar(scalar): return Int(scalar.start) - (scalar.style == .plain ? 0 : 1)
            case let .sequence(_, at), let .mapping(_, at): return Int(at)
            }
        }
    }

    struct SyntaxError: Error {
        var offset: Int
        var reason: String
    }

    let bytes: [UInt8]
    var pos = 0
    /// Block collections open around the current position: each is a level of recursion.
    private var nesting = 0
    /// Deeper than any config needs, and far from the stack's end (`- - - …` 100,000 deep was a crash).
    static let maxNesting = 64

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The document's root; nil for a file of nothing but comments.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Node? {
        guard bytes.count < Int(UInt32.max) else { throw SyntaxError(offset: 0, reason: "the file is too large") }
        var parser = ConfigYAML(bytes)
        try parser.checkDocumentEnd()
        return try parser.document()
    }

    /// YAML ends a document at `...`; what follows would be another document, which a config
    /// cannot be (a `failOn:` after it was silently dropped). Only comments and blank lines may.
    private mutating func checkDocumentEnd() throws(SyntaxError) {
        var lineStart = 0
        while lineStart < bytes.count {
            pos = lineStart
            if isMarker("...") {
                var i = lineStart + 3
                var inComment = false
                while i < bytes.count {
                    let b = bytes[i]
                    if b == UInt8(ascii: "\n") {
                        inComment = false
                    } else if b == UInt8(ascii: "#") {
                        inComment = true
                    } else if !inComment && !isBlank(b) && b != UInt8(ascii: "\r") {
                        throw SyntaxError(offset: i, reason: "a config is one document: nothing may follow its end (`...`)")
                    }
                    i += 1
                }
                break
            }
            while lineStart < bytes.count, bytes[lineStart] != UInt8(ascii: "\n") { lineStart += 1 }
            lineStart += 1
        }
        pos = 0
    }

    /// One more block collection opens here: refused past `maxNesting`.
    private mutating func enterCollection() throws(SyntaxError) {
        nesting += 1
        guard nesting <= Self.maxNesting else { throw SyntaxError(offset: pos, reason: "collections nest deeper than \(Self.maxNesting) levels") }
    }

    /// 1-based line and column of `offset`.
    func position(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        for i in 0..<min(offset, bytes.count) where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        // Columns count characters, not bytes (UTF-8 continuation bytes are not characters).
        let column = bytes[lineStart..<min(offset, bytes.count)].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        return (line, column)
    }

    /// The decoded text of `scalar`.
    func text(_ scalar: Scalar) -> String {
        let raw = bytes[Int(scalar.start)..<Int(scalar.end)]
        switch scalar.style {
        case .plain: return String(decoding: raw, as: UTF8.self)
        case .single:
            var out: [UInt8] = []
            var i = raw.startIndex
            while i < raw.endIndex {
                out.append(raw[i])
                // `''` is one quote.
                i += raw[i] == UInt8(ascii: "'") ? 2 : 1
            }
            return String(decoding: out, as: UTF8.self)
        case .double: return Self.unescaped(raw)
        }
    }

    // MARK: Structure

    var byte: UInt8? { pos < bytes.count ? bytes[pos] : nil }

    func byte(at i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }

    func isBlank(_ b: UInt8?) -> Bool { b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") }

    func isLineEnd(_ b: UInt8?) -> Bool { b == nil || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") }

    /// Column (0-based, in bytes) of `offset` on its line.
    private func indent(of offset: Int) -> Int {
        var i = offset
        while i > 0, bytes[i - 1] != UInt8(ascii: "\n") { i -= 1 }
        return offset - i
    }

    /// Skips blanks, a comment and line ends until the next content; nil at the end of the document.
    private mutating func nextContent() -> Int? {
        while let b = byte {
            if isBlank(b) || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
                pos += 1
            } else if b == UInt8(ascii: "#") {
                while !isLineEnd(byte) { pos += 1 }
            } else if indent(of: pos) == 0, isMarker("...") {
                pos = bytes.count
            } else {
                return pos
            }
        }
        return nil
    }

    /// `---` or `...` followed by a blank or the line's end.
    private func isMarker(_ marker: StaticString) -> Bool {
        let m = UnsafeBufferPointer(start: marker.utf8Start, count: marker.utf8CodeUnitCount)
        guard pos + m.count <= bytes.count, zip(bytes[pos..<pos + m.count], m).allSatisfy({ $0 == $1 }) else { return false }
        let after = byte(at: pos + m.count)
        return isLineEnd(after) || isBlank(after)
    }

    private mutating func document() throws(SyntaxError) -> Node? {
        guard nextContent() != nil else { return nil }
        if isMarker("---") {
            pos += 3
            guard nextContent() != nil else { return nil }
        }
        if byte == UInt8(ascii: "%") { throw SyntaxError(offset: pos, reason: "directives are not supported") }
        let root = try block(parentIndent: -1)
        if nextContent() != nil {
            if indent(of: pos) == 0, isMarker("---") { throw SyntaxError(offset: pos, reason: "a config is one document") }
            throw SyntaxError(offset: pos, reason: "unexpected text after the document (check the indentation)")
        }
        return root
    }

    /// The node at the current content, which is indented more than `parentIndent`.
    private mutating func block(parentIndent: Int) throws(SyntaxError) -> Node {
        let column = indent(of: pos)
        if isSequenceEntry(pos) { return try blockSequence(column) }
        if try keyEnd(from: pos) != nil { return try blockMapping(column) }
        // A scalar is one line: a deeper line after it is the caller's "unexpected indentation".
        let node = try inlineValue()
        try endOfLine()
        return node
    }

    /// A `---` line: the document ends there (a second one is refused by `document()`).
    private func isDocumentStart(_ at: Int) -> Bool { indent(of: at) == 0 && isMarker("---") }

    private func isSequenceEntry(_ at: Int) -> Bool {
        bytes[at] == UInt8(ascii: "-") && (isBlank(byte(at: at + 1)) || isLineEnd(byte(at: at + 1)))
    }

    private mutating func blockSequence(_ column: Int) throws(SyntaxError) -> Node {
        try enterCollection()
        defer { nesting -= 1 }
        let at = pos
        var items: [Node] = []
        while true {
            pos += 1  // the `-`
            while isBlank(byte) { pos += 1 }
            if isLineEnd(byte) || byte == UInt8(ascii: "#") {
                if let next = nextContent(), indent(of: next) > column {
                    items.append(try block(parentIndent: column))
                } else {
                    items.append(.scalar(Scalar(start: UInt32(pos), end: UInt32(pos), style: .plain)))
                }
            } else if isSequenceEntry(pos) {
                items.append(try blockSequence(indent(of: pos)))
            } else if try keyEnd(from: pos) != nil {
                // `- key: value`: a mapping whose keys line up after the dash.
                items.append(try blockMapping(indent(of: pos)))
            } else {
                items.append(try inlineValue())
                try endOfLine()
            }
            guard let next = nextContent(), !isDocumentStart(next) else { break }
            let nextColumn = indent(of: next)
            if nextColumn < column { break }
            guard nextColumn == column, isSequenceEntry(next) else {
                if nextColumn == column { break }  // a key of the enclosing mapping at the dash's column
                throw SyntaxError(offset: next, reason: "unexpected indentation")
            }
        }
        return .sequence(items, at: UInt32(at))
    }

    private mutating func blockMapping(_ column: Int) throws(SyntaxError) -> Node {
        try enterCollection()
        defer { nesting -= 1 }
        let at = pos
        var pairs: [Pair] = []
        while true {
            guard let end = try keyEnd(from: pos) else {
                throw SyntaxError(offset: pos, reason: "expected `key: value` at this indentation")
            }
            let key = try keyScalar(upTo: end)
            pos = end + 1  // past the `:`
            while isBlank(byte) { pos += 1 }
            let value: Node
            if isLineEnd(byte) || byte == UInt8(ascii: "#") {
                let empty = Node.scalar(Scalar(start: UInt32(pos), end: UInt32(pos), style: .plain))
                if let next = nextContent(), indent(of: next) > column || (indent(of: next) == column && isSequenceEntry(next)) {
                    value = try block(parentIndent: column)
                } else {
                    value = empty
                }
            } else {
                value = try inlineValue()
                try endOfLine()
            }
            pairs.append(Pair(key: key, value: value))
            guard let next = nextContent(), !isDocumentStart(next) else { break }
            let nextColumn = indent(of: next)
            if nextColumn < column { break }
            if nextColumn > column { throw SyntaxError(offset: next, reason: "unexpected indentation") }
            if isSequenceEntry(next) { break }
        }
        return .mapping(pairs, at: UInt32(at))
    }

    /// The offset of the `:` that ends a key starting at `start` on this line, if the line is `key: …`.
    private func keyEnd(from start: Int) throws(SyntaxError) -> Int? {
        var i = start
        guard let first = byte(at: i) else { return nil }
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
            i = try quotedEnd(from: i) + 1
            while isBlank(byte(at: i)) { i += 1 }
            return byte(at: i) == UInt8(ascii: ":") ? i : nil
        }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") { return nil }
        if first == UInt8(ascii: "?") && (isBlank(byte(at: i + 1)) || isLineEnd(byte(at: i + 1))) {
            throw SyntaxError(offset: i, reason: "complex keys (`?`) are not supported")
        }
        while !isLineEnd(byte(at: i)) {
            let b = bytes[i]
            if b == UInt8(ascii: "#"), i > start, isBlank(bytes[i - 1]) { return nil }
            if b == UInt8(ascii: ":"), isBlank(byte(at: i + 1)) || isLineEnd(byte(at: i + 1)) { return i }
            i += 1
        }
        return nil
    }

    private mutating func keyScalar(upTo colon: Int) throws(SyntaxError) -> Scalar {
        if bytes[pos] == UInt8(ascii: "\"") || bytes[pos] == UInt8(ascii: "'") { return try quoted() }
        try refuseUnsupported()
        var end = colon
        while end > pos, isBlank(bytes[end - 1]) { end -= 1 }
        return Scalar(start: UInt32(pos), end: UInt32(end), style: .plain)
    }

    /// After a value: blanks, maybe a comment, then the line's end.
    private mutating func endOfLine() throws(SyntaxError) {
        while isBlank(byte) { pos += 1 }
        if byte == UInt8(ascii: "#") { while !isLineEnd(byte) { pos += 1 } }
        guard isLineEnd(byte) else { throw SyntaxError(offset: pos, reason: "unexpected text after the value") }
    }

    func refuseUnsupported() throws(SyntaxError) {
        switch byte {
        case UInt8(ascii: "&"): throw SyntaxError(offset: pos, reason: "anchors (`&`) are not supported")
        case UInt8(ascii: "*"): throw SyntaxError(offset: pos, reason: "aliases (`*`) are not supported")
        case UInt8(ascii: "!"): throw SyntaxError(offset: pos, reason: "tags (`!`) are not supported")
        case UInt8(ascii: "|"), UInt8(ascii: ">"): throw SyntaxError(offset: pos, reason: "block scalars (`|`, `>`) are not supported: quote the text")
        case UInt8(ascii: "@"), UInt8(ascii: "`"): throw SyntaxError(offset: pos, reason: "a plain scalar cannot start with `@` or a backtick: quote it")
        case UInt8(ascii: "%"): throw SyntaxError(offset: pos, reason: "directives are not supported")
        default: break
        }
    }

    /// A value on this line: a flow collection, a quoted or a plain scalar.
    private mutating func inlineValue() throws(SyntaxError) -> Node {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"): return try flow()
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .scalar(try quoted())
        default:
            try refuseUnsupported()
            let start = pos
            while !isLineEnd(byte), !(byte == UInt8(ascii: "#") && pos > start && isBlank(bytes[pos - 1])) { pos += 1 }
            var end = pos
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            return .scalar(Scalar(start: UInt32(start), end: UInt32(end), style: .plain))
        }
    }

    // Flow collections: ConfigYAML+Flow.swift.
}
