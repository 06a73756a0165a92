/// XML's character references: the five named entities and `&#…;` / `&#x…;`. Interface files
/// and plists are read without a full XML parser, so their values are decoded here, once.
package enum XMLEntities {
    /// `text` with every reference decoded.
    ///
    /// - Parameter strict: when true, an `&` that starts no reference XML knows makes the whole
    ///   value ill-formed and the result is nil; when false it stays as written, as a browser would.
    package static func decoded(_ text: String, strict: Bool) -> String? {
        // Most values hold no reference: hand them back as they are, without a copy or a walk
        // by Character.
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let afterAmp = rest.index(after: amp)
            // A reference is short; a far `;` belongs to later text, not to this `&`.
            let semicolon = rest[afterAmp...].prefix(longestReference + 1).firstIndex(of: ";")
            if let semicolon, let character = character(named: rest[afterAmp..<semicolon]) {
                out.unicodeScalars.append(character)
                rest = rest[rest.index(after: semicolon)...]
                continue
            }
            if strict { return nil }
            out += "&"
            rest = rest[afterAmp...]
        }
        return out + rest
    }

    /// The longest name between `&` and `;` worth reading: `#x10FFFF` and `#1114111` fit.
    private static let longestReference = 10

    private static func character(named entity: Substring) -> Unicode.Scalar? {
        switch entity {
        case "lt": return "<"
        case "gt": return ">"
        case "amp": return "&"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let hex = entity.hasPrefix("#x") || entity.hasPrefix("#X")
            let digits = entity.dropFirst(hex ? 2 : 1)
            // Digits only: `UInt32("+5")` would read a sign XML does not allow.
            guard entity.hasPrefix("#"), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && (hex ? $0.isHexDigit : $0.isNumber) })
            else { return nil }
            let value = UInt32(digits, radix: hex ? 16 : 10)
            // XML forbids a reference to NUL; a hostile file must not put one in a name.
            guard let value, value != 0 else { return nil }
            return Unicode.Scalar(value)
        }
    }
}
