import Foundation
import ImgtraceSupport
/// Plain-text tables with aligned columns, for the human-readable formats.
package enum TextTable {
    /// Renders rows under a header in at most `width` columns; columns in `rightAligned` are
    /// right-aligned (numbers). A cell wider than its column's `maxWidths` entry (prose) wraps
    /// onto further lines of its row at spaces. Names are never shortened and never broken where
    /// they fit a line: when the table is too wide, the first column narrows to what the others
    /// leave, and a row whose name is longer puts the name on its own line above the rest of the
    /// row, the other rows staying on one line (`stacksNames`); when the other columns alone are
    /// too wide, each row becomes a block, its name on a line and its other cells after it,
    /// wrapped between cells. `width: .max` (`--wide`) keeps every row on one line.
    /// A prose column gives way down to its `minimumWidths` entry (else `minimumProseWidth`): a
    /// list whose longest item is wider keeps each item on one line.
    package static func render(
        header: [String], rows: [[String]], rightAligned: Set<Int> = [], maxWidths: [Int: Int] = [:], minimumWidths: [Int: Int] = [:],
        width: Int = 120
    ) -> String {
        var out = ""
        render(
            header: header, rowCount: rows.count, row: { rows[$0] }, rightAligned: rightAligned, maxWidths: maxWidths, minimumWidths: minimumWidths,
            width: width
        ) { out += $0 }
        return out
    }

    /// The narrowest the first column gets before rows become blocks.
    static let minimumNameWidth = 12
    /// The narrowest a prose column (one with a `maxWidths` cap) gets.
    static let minimumProseWidth = 20

    /// The table of `rowCount` rows, `row(i)` asked twice per row (once to size the columns,
    /// once to write it), each line given to `emit`: a table of a million names is never held whole.
    package static func render(
        header: [String], rowCount: Int, row: (Int) -> [String], rightAligned: Set<Int> = [], maxWidths: [Int: Int] = [:],
        minimumWidths: [Int: Int] = [:], width: Int = 120, stacksNames: Bool = true, emit: (String) -> Void
    ) {
        // Cells come from inputs: none may break its line or drive the terminal, and a name of
        // megabytes costs what its ends cost.
        func cells(_ index: Int) -> [String] { row(index).map { bounded(escapeName($0), width: min(width, 4096)) } }
        var widths = header.map { displayWidth($0) }
        for index in 0..<rowCount {
            for (i, cell) in cells(index).enumerated() where i < widths.count {
                let cap = width == .max ? Int.max : min(maxWidths[i] ?? width, width)
                widths[i] = max(widths[i], min(displayWidth(cell, limit: cap), cap))
            }
        }
        let last = widths.count - 1
        func total() -> Int { widths.reduce(0, +) + 2 * last }
        if width == .max || total() <= width {
            emit(lines(header, widths, rightAligned, wide: width == .max) + "\n")
            for index in 0..<rowCount { emit(lines(cells(index), widths, rightAligned, wide: width == .max) + "\n") }
            return
        }
        // The first column gets what the others leave; a longer name goes on its own line.
        func stacked() -> Bool {
            let nameWidth = width - (total() - widths[0])
            guard stacksNames, last > 0, !rightAligned.contains(0), nameWidth >= max(displayWidth(header[0]), minimumNameWidth) else { return false }
            widths[0] = nameWidth
            emit(lines(header, widths, rightAligned, wide: false) + "\n")
            for index in 0..<rowCount {
                let row = cells(index)
                if displayWidth(row.first ?? "", limit: nameWidth + 1) <= nameWidth {
                    emit(lines(row, widths, rightAligned, wide: false) + "\n")
                } else {
                    let name = brokenLines(row[0], width: width).joined(separator: "\n")
                    emit(name + "\n" + lines([""] + row.dropFirst(), widths, rightAligned, wide: false) + "\n")
                }
            }
            return true
        }
        if stacked() { return }
        // Then prose columns (those with a `maxWidths` cap) give way, down to `minimumProseWidth`.
        for i in maxWidths.keys.sorted() where i > 0 && i < widths.count && total() > width {
            widths[i] = max(min(widths[i], minimumWidths[i] ?? minimumProseWidth), widths[i] - (total() - width))
        }
        if total() <= width {
            emit(lines(header, widths, rightAligned, wide: false) + "\n")
            for index in 0..<rowCount { emit(lines(cells(index), widths, rightAligned, wide: false) + "\n") }
            return
        }
        if stacked() { return }
        // The other columns alone are too wide: each row a block, its cells whole.
        emit(block(header, width: width) + "\n")
        for index in 0..<rowCount { emit(block(cells(index), width: width) + "\n") }
    }

    /// One row on its lines: each cell padded to its column; a cell wider than its column (a
    /// capped prose column) wraps within it.
    private static func lines(_ cells: [String], _ widths: [Int], _ rightAligned: Set<Int>, wide: Bool) -> String {
        let last = widths.count - 1
        let cells = cells.prefix(last + 1)
        // Most rows fit their columns: one line, no wrapping work.
        if wide || cells.enumerated().allSatisfy({ i, cell in rightAligned.contains(i) || displayWidth(cell, limit: widths[i] + 1) <= widths[i] }) {
            var line = ""
            for (i, cell) in cells.enumerated() {
                if i > 0 { line += "  " }
                let pad = String(repeating: " ", count: max(0, widths[i] - displayWidth(cell)))
                line += rightAligned.contains(i) ? pad + cell : (i == last ? cell : cell + pad)
            }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
        let columns = cells.enumerated().map { i, cell in rightAligned.contains(i) ? [cell] : brokenLines(cell, width: widths[i]) }
        var text = ""
        for lineIndex in 0..<(columns.map(\.count).max() ?? 1) {
            var parts: [String] = []
            for (i, column) in columns.enumerated() {
                let cell = lineIndex < column.count ? column[lineIndex] : ""
                let pad = String(repeating: " ", count: max(0, widths[i] - displayWidth(cell)))
                parts.append(rightAligned.contains(i) ? pad + cell : cell + pad)
            }
            var line = parts.joined(separator: "  ")
            while line.hasSuffix(" ") { line.removeLast() }
            text += (lineIndex == 0 ? "" : "\n") + line
        }
        return text
    }

    /// A row as a block: its first cell on a line (broken only where it is longer than one),
    /// then its other cells, indented, filled into lines between cells, never inside one that fits.
    private static func block(_ cells: [String], width: Int) -> String {
        var out = brokenLines(cells.first ?? "", width: width).joined(separator: "\n")
        var line = ""
        for cell in cells.dropFirst().map({ $0.isEmpty ? "-" : $0 }) {
            let cellWidth = displayWidth(cell, limit: width)
            if !line.isEmpty, displayWidth(line) + 2 + cellWidth <= width {
                line += "  " + cell
                continue
            }
            if !line.isEmpty { out += "\n" + line }
            if 2 + cellWidth <= width {
                line = "  " + cell
            } else {
                // Longer than a line: broken after separators, its last piece going on.
                let pieces = brokenLines(cell, width: width - 2)
                for piece in pieces.dropLast() { out += "\n  " + piece }
                line = "  " + (pieces.last ?? "")
            }
        }
        if !line.isEmpty { out += "\n" + line }
        return out
    }

    /// Where a name may break across lines: after a path or word separator.
    static let breakAfter: Set<Character> = ["/", ".", "_", "@", "-", " ", ",", "#", "]"]

    /// `text` in lines of at most `width` columns, nothing left out: a list breaks between its
    /// items (after `, `), prose at spaces, a name after the last separator that fits
    /// (`breakAfter`), else at the edge.
    static func brokenLines(_ text: String, width: Int) -> [String] {
        // `--wide` passes an unbounded width: nothing breaks.
        guard width > 0, width < Int.max / 2, displayWidth(text, limit: width + 1) > width else { return [text] }
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return brokenASCIILines(Array(text.utf8), width: width) }
        var lines: [String] = []
        var rest = Substring(text)
        while displayWidth(String(rest), limit: width + 1) > width {
            var used = 0
            var end = rest.startIndex
            var lastBreak: String.Index?, lastItemBreak: String.Index?
            while end < rest.endIndex {
                let w = displayWidth(String(rest[end]))
                guard used + w <= width else { break }
                used += w
                if breakAfter.contains(rest[end]) { lastBreak = rest.index(after: end) }
                if rest[end] == ",", rest.index(after: end) < rest.endIndex, rest[rest.index(after: end)] == " " { lastItemBreak = rest.index(after: end) }
                end = rest.index(after: end)
            }
            // A break in the first third wastes the line: cut at the edge instead.
            func useful(_ index: String.Index?) -> String.Index? { index.flatMap { rest.distance(from: rest.startIndex, to: $0) * 3 >= width ? $0 : nil } }
            let cut = useful(lastItemBreak) ?? useful(lastBreak) ?? end
            let piece = rest[..<(cut > rest.startIndex ? cut : rest.index(after: rest.startIndex))]
            var line = String(piece)
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
            rest = rest[piece.endIndex...].drop { $0 == " " }
        }
        if !rest.isEmpty { lines.append(String(rest)) }
        return lines
    }

    /// `brokenLines` for ASCII text, a column per byte: the common case, without a `String` per character.
    private static func brokenASCIILines(_ bytes: [UInt8], width: Int) -> [String] {
        let breaks: Set<UInt8> = Set(breakAfter.compactMap(\.asciiValue))
        var lines: [String] = []
        var start = 0
        while bytes.count - start > width {
            var cut = start + width
            let window = start..<(start + width)
            if let item = window.last(where: { bytes[$0] == UInt8(ascii: ",") && bytes[$0 + 1] == 0x20 }), (item + 1 - start) * 3 >= width {
                cut = item + 1
            } else if let lastBreak = window.last(where: { breaks.contains(bytes[$0]) }), (lastBreak + 1 - start) * 3 >= width {
                cut = lastBreak + 1
            }
            var end = cut
            while end > start + 1, bytes[end - 1] == 0x20 { end -= 1 }
            lines.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = cut
            while start < bytes.count, bytes[start] == 0x20 { start += 1 }
        }
        if start < bytes.count { lines.append(String(decoding: bytes[start...], as: UTF8.self)) }
        return lines
    }

    /// The width listings fit: `COLUMNS` when it is a number from 40 to 1000, else 120.
    package static var terminalWidth: Int {
        guard let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), (40...1000).contains(columns) else {
            return 120
        }
        return columns
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
    /// others with `rest`. A word too long for a line (a long path) breaks across lines after a
    /// separator (`brokenLines`): nothing of it is left out.
    package static func wrapped(_ text: String, width: Int = 120, first: String, rest: String) -> String {
        // The text holds names and paths: it stays on its lines and never drives the terminal.
        let text = escapeName(text)
        var lines: [String] = []
        var line = first
        var lineIsEmpty = true
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            let piece = bounded(String(word), width: min(width, 4096))
            if !lineIsEmpty, displayWidth(line) + 1 + displayWidth(piece) > width {
                lines.append(line)
                line = rest
                lineIsEmpty = true
            }
            let room = max(8, width - displayWidth(line) - (lineIsEmpty ? 0 : 1))
            let parts = brokenLines(piece, width: room)
            line += (lineIsEmpty ? "" : " ") + parts[0]
            for part in parts.dropFirst() {
                lines.append(line)
                line = rest + part
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
