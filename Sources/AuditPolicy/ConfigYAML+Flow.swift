/// Flow collections (`[…]`, `{…}`), over several lines too, nested to a bounded depth.
extension ConfigYAML {
    /// Skips blanks, line ends and comments inside a flow collection.
    private mutating func skipFlowSpace() {
        while let b = byte {
            if isBlank(b) || b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r") {
                pos += 1
            } else if b == UInt8(ascii: "#"), pos == 0 || isBlank(bytes[pos - 1]) || isLineEnd(bytes[pos - 1]) {
                while !isLineEnd(byte) { pos += 1 }
            } else {
                return
            }
        }
    }

    mutating func flow(depth: Int = 0) throws(SyntaxError) -> Node {
        guard depth < 64 else { throw SyntaxError(offset: pos, reason: "flow collections nest too deep") }
        let at = pos
        let isMapping = bytes[pos] == UInt8(ascii: "{")
        let close = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
        pos += 1
        var items: [Node] = []
        var pairs: [Pair] = []
        while true {
            skipFlowSpace()
            guard let b = byte else { throw SyntaxError(offset: at, reason: "`\(isMapping ? "{" : "[")` is never closed") }
            if b == close {
                pos += 1
                break
            }
            if isMapping {
                let key: Scalar
                if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                    key = try quoted()
                } else {
                    guard case let .scalar(plain) = try flowItem(depth: depth) else {
                        throw SyntaxError(offset: pos, reason: "keys must be strings")
                    }
                    key = plain
                }
                skipFlowSpace()
                guard byte == UInt8(ascii: ":") else { throw SyntaxError(offset: pos, reason: "expected `:` after a key in `{…}`") }
                pos += 1
                skipFlowSpace()
                let value: Node
                if byte == UInt8(ascii: ",") || byte == close {
                    value = .scalar(Scalar(start: UInt32(pos), end: UInt32(pos), style: .plain))
                } else {
                    value = try flowItem(depth: depth)
                }
                pairs.append(Pair(key: key, value: value))
            } else {
                items.append(try flowItem(depth: depth))
            }
            skipFlowSpace()
            if byte == UInt8(ascii: ",") {
                pos += 1
            } else if byte == nil {
                throw SyntaxError(offset: at, reason: "`\(isMapping ? "{" : "[")` is never closed")
            } else if byte != close {
                throw SyntaxError(offset: pos, reason: "expected `,` or `\(isMapping ? "}" : "]")`")
            }
        }
        return isMapping ? .mapping(pairs, at: UInt32(at)) : .sequence(items, at: UInt32(at))
    }

    private mutating func flowItem(depth: Int) throws(SyntaxError) -> Node {
        switch byte {
        case UInt8(ascii: "["), UInt8(ascii: "{"): return try flow(depth: depth + 1)
        case UInt8(ascii: "\""), UInt8(ascii: "'"): return .scalar(try quoted())
        default:
            try refuseUnsupported()
            let start = pos
            while let b = byte, !isLineEnd(b), b != UInt8(ascii: ","), b != UInt8(ascii: "]"), b != UInt8(ascii: "}"),
                !(b == UInt8(ascii: ":") && (isBlank(byte(at: pos + 1)) || isLineEnd(byte(at: pos + 1)) || byte(at: pos + 1) == UInt8(ascii: ",")))
            {
                if b == UInt8(ascii: "#"), pos > start, isBlank(bytes[pos - 1]) { break }
                pos += 1
            }
            var end = pos
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            return .scalar(Scalar(start: UInt32(start), end: UInt32(end), style: .plain))
        }
    }
}
