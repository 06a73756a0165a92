/// Bounds for a vector's size in points: PDF's own page limit is 14,400 pt (200 in), so a
/// million points is generous; anything larger, infinite or NaN is a corrupt or hostile file.
enum VectorSize {
    static let maxPoints = 1_000_000.0
    static func isPlausible(_ points: Double) -> Bool { points > 0 && points <= maxPoints }
}

/// PDF: the first `/MediaBox` in the bytes given, in points.
enum PDFHeader {
    /// How far into a PDF to look for a MediaBox before giving up on its size.
    static let maxScan = 1 << 20

    static func read(_ bytes: UnsafeRawBufferPointer) -> ImageInfo {
        var info = ImageInfo(format: .pdf)
        let key = Array("/MediaBox".utf8)
        guard let start = firstIndex(of: key, in: bytes) else { return info }
        // `/MediaBox [0 0 612 792]`; the numbers may be reals or negative.
        var numbers: [Double] = []
        var i = start + key.count
        var token = ""
        while i < bytes.count, numbers.count < 4, i < start + 200 {
            let c = bytes[i]
            if (c >= 0x30 && c <= 0x39) || c == 0x2E || c == 0x2D || c == 0x2B {
                token.append(Character(UnicodeScalar(c)))
            } else {
                if let v = Double(token) { numbers.append(v) }
                token = ""
                if c == 0x5D { break }  // ]
            }
            i += 1
        }
        if numbers.count == 4 {
            let w = abs(numbers[2] - numbers[0]), h = abs(numbers[3] - numbers[1])
            if VectorSize.isPlausible(w), VectorSize.isPlausible(h) { (info.pointWidth, info.pointHeight) = (w, h) }
        }
        return info
    }

    static func firstIndex(of needle: [UInt8], in haystack: UnsafeRawBufferPointer) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == needle[0] {
                var j = 1
                while j < needle.count && haystack[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}

/// SVG: the root element's `width`/`height` (absolute units) or its `viewBox`.
enum SVGHeader {
    static func looksLikeSVG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let head = UnsafeRawBufferPointer(rebasing: bytes[0..<min(bytes.count, 4096)])
        var i = 0
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { i = 3 }
        while i < head.count, head[i] == 0x20 || head[i] == 0x0A || head[i] == 0x0D || head[i] == 0x09 { i += 1 }
        guard i < head.count, head[i] == 0x3C else { return false }  // <
        return PDFHeader.firstIndex(of: Array("<svg".utf8), in: head) != nil
    }

    static func read(_ bytes: UnsafeRawBufferPointer) -> ImageInfo {
        var info = ImageInfo(format: .svg)
        guard let start = PDFHeader.firstIndex(of: Array("<svg".utf8), in: bytes) else { return info }
        var end = start
        while end < bytes.count, bytes[end] != 0x3E { end += 1 }  // >
        let attributes = parseAttributes(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
        if let w = attributes["width"].flatMap(points), let h = attributes["height"].flatMap(points) {
            (info.pointWidth, info.pointHeight) = (w, h)
        } else if let box = attributes["viewBox"] {
            let parts = box.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
            if parts.count == 4, VectorSize.isPlausible(parts[2]), VectorSize.isPlausible(parts[3]) {
                (info.pointWidth, info.pointHeight) = (parts[2], parts[3])
            }
        }
        return info
    }

    /// `name="value"` pairs of one tag (either quote), in one forward pass over its bytes:
    /// scanning back from each `=` was quadratic in a tag with no spaces (found by fuzzing).
    static func parseAttributes(_ tag: UnsafeRawBufferPointer) -> [String: String] {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
        var result: [String: String] = [:]
        let n = tag.count
        var i = 0
        while i < n {
            while i < n, isSpace(tag[i]) { i += 1 }
            let nameStart = i
            while i < n, !isSpace(tag[i]), tag[i] != 0x3D { i += 1 }
            let nameEnd = i
            while i < n, isSpace(tag[i]) { i += 1 }
            guard i < n, tag[i] == 0x3D else { continue }  // a bare word such as `<svg`
            i += 1
            while i < n, isSpace(tag[i]) { i += 1 }
            guard i < n, tag[i] == 0x22 || tag[i] == 0x27 else { continue }
            let quote = tag[i]
            i += 1
            let valueStart = i
            while i < n, tag[i] != quote { i += 1 }
            let name = String(decoding: UnsafeRawBufferPointer(rebasing: tag[nameStart..<nameEnd]), as: UTF8.self)
            if result[name] == nil {
                result[name] = String(decoding: UnsafeRawBufferPointer(rebasing: tag[valueStart..<i]), as: UTF8.self)
            }
            i += 1
        }
        return result
    }

    /// An absolute length in points (`px` and unitless count as points); `nil` for percentages.
    private static func points(_ text: String) -> Double? {
        let units: [(String, Double)] = [("px", 1), ("pt", 1), ("in", 72), ("cm", 72 / 2.54), ("mm", 72 / 25.4)]
        var body = text.trimmingCharacters(in: " ")
        var factor = 1.0
        for (unit, f) in units where body.hasSuffix(unit) {
            body.removeLast(unit.count)
            factor = f
        }
        guard let v = Double(body), VectorSize.isPlausible(v * factor) else { return nil }
        return v * factor
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s.removeFirst() }
        while s.last == set { s.removeLast() }
        return String(s)
    }
}
