/// Quoted scalars of the config's YAML: where each ends, its escapes checked and decoded.
extension ConfigYAML {
    // MARK: Quoted scalars

    /// The offset of the quote that closes the one at `start`; quoted text stays on its line.
    func quotedEnd(from start: Int) throws(SyntaxError) -> Int {
        let quote = bytes[start]
        var i = start + 1
        while let b = byte(at: i) {
            if isLineEnd(b) { break }
            if quote == UInt8(ascii: "\""), b == UInt8(ascii: "\\") {
                i += 2
                continue
            }
            if b == quote {
                if quote == UInt8(ascii: "'"), byte(at: i + 1) == quote {
                    i += 2
                    continue
                }
                return i
            }
            i += 1
        }
        throw SyntaxError(offset: start, reason: "a quoted string must end on its line")
    }

    mutating func quoted() throws(SyntaxError) -> Scalar {
        let end = try quotedEnd(from: pos)
        let style: Style = bytes[pos] == UInt8(ascii: "\"") ? .double : .single
        if style == .double { try Self.checkEscapes(bytes[pos + 1..<end], at: pos + 1) }
        let scalar = Scalar(start: UInt32(pos + 1), end: UInt32(end), style: style)
        pos = end + 1
        return scalar
    }

    static func hexValue(_ raw: ArraySlice<UInt8>) -> UInt32? {
        guard !raw.isEmpty else { return nil }
        return raw.reduce(UInt32?(0)) { value, b in
            guard let value, let digit = Character(Unicode.Scalar(b)).hexDigitValue else { return nil }
            return value << 4 | UInt32(digit)
        }
    }

    private static let escapeLengths: [UInt8: Int] = [UInt8(ascii: "x"): 2, UInt8(ascii: "u"): 4, UInt8(ascii: "U"): 8]
    private static let simpleEscapes: [UInt8: [UInt8]] = [
        UInt8(ascii: "0"): [0], UInt8(ascii: "a"): [7], UInt8(ascii: "b"): [8], UInt8(ascii: "t"): [9], UInt8(ascii: "\t"): [9],
        UInt8(ascii: "n"): [10], UInt8(ascii: "v"): [11], UInt8(ascii: "f"): [12], UInt8(ascii: "r"): [13], UInt8(ascii: "e"): [27],
        UInt8(ascii: " "): [32], UInt8(ascii: "\""): [34], UInt8(ascii: "/"): [47], UInt8(ascii: "\\"): [92],
        UInt8(ascii: "N"): [0xC2, 0x85], UInt8(ascii: "_"): [0xC2, 0xA0], UInt8(ascii: "L"): [0xE2, 0x80, 0xA8],
        UInt8(ascii: "P"): [0xE2, 0x80, 0xA9],
    ]

    /// Every `\` escape of a double-quoted scalar is one YAML knows, with a valid code point.
    static func checkEscapes(_ raw: ArraySlice<UInt8>, at offset: Int) throws(SyntaxError) {
        var i = raw.startIndex
        while i < raw.endIndex {
            guard raw[i] == UInt8(ascii: "\\") else {
                i += 1
                continue
            }
            let kind = i + 1 < raw.endIndex ? raw[i + 1] : 0
            if simpleEscapes[kind] != nil {
                i += 2
            } else if let length = escapeLengths[kind], i + 2 + length <= raw.endIndex,
                let value = hexValue(raw[i + 2..<i + 2 + length]), Unicode.Scalar(value) != nil
            {
                i += 2 + length
            } else {
                throw SyntaxError(offset: offset + (i - raw.startIndex), reason: "unknown escape in a double-quoted string")
            }
        }
    }

    static func unescaped(_ raw: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            guard raw[i] == UInt8(ascii: "\\"), i + 1 < raw.endIndex else {
                out.append(raw[i])
                i += 1
                continue
            }
            let kind = raw[i + 1]
            if let bytes = simpleEscapes[kind] {
                out += bytes
                i += 2
            } else if let length = escapeLengths[kind], i + 2 + length <= raw.endIndex,
                let value = hexValue(raw[i + 2..<i + 2 + length]), let scalar = Unicode.Scalar(value)
            {
                out += Array(String(Character(scalar)).utf8)
                i += 2 + length
            } else {
                out.append(raw[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
