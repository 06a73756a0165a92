import ImgtraceSupport
/// Plain-text tables with aligned columns, for the human-readable formats.
package enum TextTable {
    /// Renders rows under a header; columns in `rightAligned` are right-aligned (numbers).
    package static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        var widths = header.map(displayWidth)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], displayWidth(cell)) }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: max(0, widths[i] - displayWidth(cell)))
                if i == cells.count - 1 && !rightAligned.contains(i) { parts.append(cell) } else { parts.append(rightAligned.contains(i) ? pad + cell : cell + pad) }
            }
            var text = parts.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        var out = line(header) + "\n"
        for row in rows { out += line(row) + "\n" }
        return out
    }

    /// Names can hold newlines and tabs; a table shows them escaped, on one line.
    package static func escapeName(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\x" + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// Terminal columns: East Asian wide characters and emoji take two.
    static func displayWidth(_ s: String) -> Int {
        var width = 0
        for scalar in s.unicodeScalars {
            let v = scalar.value
            if (0x0300...0x036F).contains(v) || v == 0x200D || (0xFE00...0xFE0F).contains(v) { continue }
            if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
                || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFF60).contains(v) || (0xFFE0...0xFFE6).contains(v)
                || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
            {
                width += 2
            } else {
                width += 1
            }
        }
        return width
    }
}
