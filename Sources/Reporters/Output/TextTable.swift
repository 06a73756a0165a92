import ImgtraceSupport
/// Plain-text tables with aligned columns, for the human-readable formats.
package enum TextTable {
    /// Renders rows under a header in at most `width` columns; columns in `rightAligned` are
    /// right-aligned (numbers). A cell wider than its column's `maxWidths` entry is shortened in
    /// the middle. When the table is still too wide, a left-aligned last column (prose) wraps
    /// under itself, and the widest left-aligned columns give way in the middle.
    package static func render(
        header: [String], rows: [[String]], rightAligned: Set<Int> = [], maxWidths: [Int: Int] = [:], width: Int = 120
    ) -> String {
        var out = ""
        render(header: header, rowCount: rows.count, row: { rows[$0] }, rightAligned: rightAligned, maxWidths: maxWidths, width: width) {
            out += $0
        }
        return out
    }

    /// The table of `rowCount` rows, `row(i)` asked twice per row (once to size the columns,
    /// once to write it), each line given to `emit`: a table of a million names is never held whole.
    package static func render(
        header: [String], rowCount: Int, row: (Int) -> [String], rightAligned: Set<Int> = [], maxWidths: [Int: Int] = [:],
        width: Int = 120, emit: (String) -> Void
    ) {
        // Cells come from inputs: none may break its line or drive the terminal, and none can
        // show more than the table's width, so a name of megabytes costs what its ends cost.
        func cells(_ index: Int) -> [String] { row(index).map { bounded(escapeName($0), width: width) } }
        var widths = header.map { displayWidth($0) }
        for index in 0..<rowCount {
            for (i, cell) in cells(index).enumerated() where i < widths.count {
                let cap = min(maxWidths[i] ?? width, width)
                widths[i] = max(widths[i], min(displayWidth(cell, limit: cap), cap))
            }
        }
        let last = widths.count - 1
        let lastWraps = last > 0 && !rightAligned.contains(last)
        func total() -> Int { widths.reduce(0, +) + 2 * last }
        if total() > width, lastWraps {
            widths[last] = max(min(widths[last], 30), width - (total() - widths[last]))
        }
        while total() > width,
            let widest = widths.indices.filter({ !rightAligned.contains($0) && !(lastWraps && $0 == last) && widths[$0] > 12 })
                .max(by: { widths[$0] < widths[$1] })
        {
            widths[widest] = max(12, widths[widest] - (total() - width))
        }
        func lines(_ cells: [String]) -> String {
            var parts: [String] = []
            var wrapped: [String] = []
            for (i, raw) in cells.enumerated() where i <= last {
                if i == last && lastWraps {
                    wrapped = wrappedLines(raw, width: widths[i])
                    parts.append(wrapped.first ?? "")
                    continue
                }
                let cell = middleShortened(raw, width: widths[i])
                let pad = String(repeating: " ", count: max(0, widths[i] - displayWidth(cell)))
                parts.append(rightAligned.contains(i) ? pad + cell : cell + pad)
            }
            var text = parts.joined(separator: "  ")
            let indent = String(repeating: " ", count: widths.dropLast().reduce(0, +) + 2 * last)
            for more in wrapped.dropFirst() { text += "\n" + indent + more }
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        emit(lines(header) + "\n")
        for index in 0..<rowCount { emit(lines(cells(index)) + "\n") }
    }

    /// The lines `wrapped` makes of `text` for a column `width` wide.
    static func wrappedLines(_ text: String, width: Int) -> [String] {
        wrapped(text, width: width, first: "", rest: "").split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// Names can hold newlines, tabs and terminal controls; a table shows them escaped, on one line.
    package static func escapeName(_ name: String) -> String { SafeText.visible(name) }

    /// `text` in at most `width` terminal columns: the middle gives way to `…`, so both the
    /// start and the informative end (a file name, a scale) stay. Work is proportional to
    /// `width`, not to the text.
    package static func middleShortened(_ text: String, width: Int) -> String {
        guard width > 1, displayWidth(text, limit: width + 1) > width else { return text }
        let budget = width - 1
        var headEnd = text.startIndex, tailStart = text.endIndex, used = 0
        // Alternate from both ends, the end getting the odd column: file names end there.
        var takeTail = true
        while headEnd < tailStart {
            let range = takeTail ? text.index(before: tailStart)..<tailStart : headEnd..<text.index(after: headEnd)
            let w = displayWidth(String(text[range]))
            guard used + w <= budget else { break }
            used += w
            if takeTail { tailStart = range.lowerBound } else { headEnd = range.upperBound }
            takeTail.toggle()
        }
        return String(text[..<headEnd]) + "…" + String(text[tailStart...])
    }

    /// `text`, or for a text far wider than `width` columns could show, its two ends around
    /// `…`: what `middleShortened` keeps of it is the same, at a cost bounded by `width`.
    static func bounded(_ text: String, width: Int) -> String {
        let keep = 4 * max(width, 8)
        guard text.utf8.count > 4 * keep else { return text }
        let scalars = text.unicodeScalars
        guard scalars.count > 2 * keep + 1 else { return text }
        let head = scalars.index(scalars.startIndex, offsetBy: keep)
        let tail = scalars.index(scalars.endIndex, offsetBy: -keep)
        return String(scalars[..<head]) + "…" + String(scalars[tail...])
    }

    /// `text` wrapped at spaces to `width` columns: the first line starts with `first`, the
    /// others with `rest`. A word too long for a line is shortened in the middle, never cut.
    package static func wrapped(_ text: String, width: Int = 120, first: String, rest: String) -> String {
        // The text holds names and paths: it stays on its lines and never drives the terminal.
        let text = escapeName(text)
        var lines: [String] = []
        var line = first
        var lineIsEmpty = true
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let indent = lineIsEmpty ? line : rest
            let room = width - displayWidth(indent)
            var piece = bounded(String(word), width: width)
            if displayWidth(piece, limit: room + 1) > room { piece = middleShortened(piece, width: max(room, 8)) }
            if !lineIsEmpty, displayWidth(line) + 1 + displayWidth(piece) > width {
                lines.append(line)
                line = rest + piece
            } else {
                line += (lineIsEmpty ? "" : " ") + piece
            }
            lineIsEmpty = false
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Terminal columns: East Asian wide characters and emoji take two. Counting stops once
    /// past `limit`: callers only ask whether a text fits.
    static func displayWidth(_ s: String, limit: Int = .max) -> Int {
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return s.utf8.count }
        var width = 0
        for scalar in s.unicodeScalars {
            if width > limit { return width }
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
