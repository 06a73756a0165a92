import ImgtraceSupport

/// Reads an image's format and size from its first bytes, never decoding pixels.
///
/// Give it a prefix of the file (4 KiB covers most formats) and the file's full size. When the
/// header lies further in (a JPEG with a large EXIF block, a TIFF whose directory is at the end),
/// it throws ``ImageHeaderError/needMoreBytes(_:)`` and the caller reads more and asks again.
public enum ImageHeaderReader {
    /// The prefix length that holds the header of almost every real image.
    public static let typicalPrefix = 4096

    /// The format named by the magic bytes at the start of `bytes`, or `nil` for a non-image.
    public static func sniff(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        let r = ByteReader(bytes)
        if bytes.count >= 8, bytes[0] == 0x89, r.matches(1, "PNG\r\n\u{1A}\n") { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        if r.matches(0, "GIF87a") || r.matches(0, "GIF89a") { return .gif }
        if r.matches(0, "RIFF") && r.matches(8, "WEBP") { return .webp }
        if r.matches(4, "ftyp") { return HEIFHeader.brand(r) }
        if r.matches(0, "II*\0") || r.matches(0, "MM\0*") { return .tiff }
        if r.matches(0, "BM"), bytes.count >= 18 { return .bmp }
        if bytes.count >= 6, r.matches(0, "\0\0\u{1}\0"), bytes[4] | bytes[5] != 0 { return .ico }
        if r.matches(0, "icns") { return .icns }
        if r.matches(0, "%PDF-") { return .pdf }
        if SVGHeader.looksLikeSVG(bytes) { return .svg }
        return nil
    }

    /// Reads the header of the image whose first bytes are `prefix`; `nil` when it is no image.
    ///
    /// - Parameter fileSize: the whole file's size, so a short prefix can be told from a truncated file.
    public static func read(_ prefix: UnsafeRawBufferPointer, fileSize: Int) throws(ImageHeaderError) -> ImageInfo? {
        guard let format = sniff(prefix) else { return nil }
        let r = ByteReader(prefix)
        do {
            switch format {
            case .png: return try PNGHeader.read(r)
            case .jpeg: return try JPEGHeader.read(r)
            case .gif: return try RasterHeaders.gif(r)
            case .webp: return try RasterHeaders.webp(r)
            case .heic, .heif, .avif: return try HEIFHeader.read(r, format: format)
            case .tiff: return try TIFFHeader.read(r)
            case .bmp: return try RasterHeaders.bmp(r)
            case .ico: return try RasterHeaders.ico(r)
            case .icns: return try RasterHeaders.icns(r, fileSize: fileSize)
            case .pdf:
                let info = PDFHeader.read(prefix)
                // The MediaBox can sit after fonts and content; small PDFs are worth reading whole.
                if info.pointWidth == nil, prefix.count < fileSize, prefix.count < PDFHeader.maxScan {
                    throw ImageHeaderError.needMoreBytes(min(fileSize, PDFHeader.maxScan))
                }
                return info
            case .svg: return SVGHeader.read(prefix)
            }
        } catch let error as FormatError {
            // A read past the prefix means "read more" unless the prefix already is the whole file.
            if prefix.count < fileSize {
                throw .needMoreBytes(min(fileSize, max(prefix.count * 4, error.offset + 64 * 1024)))
            }
            throw .malformed(format: format, offset: error.offset, reason: error.reason)
        } catch let error as ImageHeaderError {
            throw error
        } catch {
            throw .malformed(format: format, offset: 0, reason: "\(error)")
        }
    }

    /// Reads the header, asking `readPrefix` for longer prefixes while the header needs them (up to `limit` bytes).
    public static func read(
        fileSize: Int, limit: Int = 16 << 20,
        readPrefix: (Int) throws -> [UInt8]
    ) throws -> ImageInfo? {
        var length = min(fileSize, typicalPrefix)
        while true {
            let bytes = try readPrefix(length)
            let known = bytes.count < length ? bytes.count : fileSize
            let result = bytes.withUnsafeBytes { buffer in Result { () throws(ImageHeaderError) in try read(buffer, fileSize: known) } }
            switch result {
            case let .success(info):
                return info
            case let .failure(.needMoreBytes(n)) where n > length && length < limit:
                length = min(n, limit)
            case .failure(.needMoreBytes):
                throw ImageHeaderError.malformed(
                    format: sniffArray(bytes) ?? .png, offset: length,
                    reason: "no size within the first \(length) bytes")
            case let .failure(error):
                throw error
            }
        }
    }

    private static func sniffArray(_ bytes: [UInt8]) -> ImageFormat? { bytes.withUnsafeBytes { sniff($0) } }
}

/// Malformed-header shorthand for the format readers.
func malformed(_ format: ImageFormat, _ offset: Int, _ reason: String) -> ImageHeaderError {
    .malformed(format: format, offset: offset, reason: reason)
}

/// Rejects zero and absurd dimensions so later arithmetic stays meaningful.
func checkedSize(_ format: ImageFormat, _ width: Int, _ height: Int, at offset: Int) throws(ImageHeaderError) -> (Int, Int) {
    guard width > 0, height > 0 else { throw malformed(format, offset, "zero width or height (\(width)×\(height))") }
    // No format we read allows more (PNG's limit); larger claims are corrupt, and keeping them
    // out keeps every area and byte figure downstream inside 64 bits.
    guard width <= Int(Int32.max), height <= Int(Int32.max) else {
        throw malformed(format, offset, "\(width)×\(height) pixels is beyond any real image (2³¹−1 at most)")
    }
    return (width, height)
}
