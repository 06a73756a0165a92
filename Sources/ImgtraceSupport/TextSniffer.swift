/// Recognises files that are not text, so a binary given where a log belongs is named for what
/// it is instead of being read as hundreds of garbage "names".
package enum TextSniffer {
    /// How much of the start is examined.
    package static let prefixLength = 64 << 10

    /// What the bytes look like when they are not a text log ("a zip archive (an .ipa?) …"),
    /// with what to do instead; nil when they read as text (a few invalid bytes are fine).
    package static func nonTextDescription(_ prefix: UnsafeRawBufferPointer) -> String? {
        let bytes = UnsafeRawBufferPointer(rebasing: prefix.prefix(prefixLength))
        func starts(_ magic: [UInt8]) -> Bool { bytes.count >= magic.count && zip(bytes, magic).allSatisfy { $0 == $1 } }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) {
            return "a zip archive (an .ipa?): give it with --bundle"
        }
        if starts(Array("BOMStore".utf8)) { return "a compiled asset catalog (Assets.car): give its app with --bundle, or read it with `imgtrace car`" }
        if starts(Array("bplist00".utf8)) { return "a binary property list or compiled nib, not a log" }
        if starts(Array("NIBArchive".utf8)) { return "a compiled nib, not a log" }
        if starts([0x89, 0x50, 0x4E, 0x47]) || starts([0xFF, 0xD8, 0xFF]) || starts(Array("GIF8".utf8))
            || starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) || starts(Array("%PDF".utf8))
            || (bytes.count >= 12 && starts(Array("RIFF".utf8)) && Array(bytes[8..<12]) == Array("WEBP".utf8))
            || (bytes.count >= 8 && Array(bytes[4..<8]) == Array("ftyp".utf8))
        {
            return "an image, not a log: give the app that holds it with --bundle"
        }
        if starts([0x7F, 0x45, 0x4C, 0x46]) { return "an ELF executable or library, not a log" }
        if starts([0xCF, 0xFA, 0xED, 0xFE]) || starts([0xCE, 0xFA, 0xED, 0xFE]) || starts([0xCA, 0xFE, 0xBA, 0xBE])
            || starts([0xFE, 0xED, 0xFA, 0xCF])
        {
            return "a Mach-O executable, not a log: give the app with --bundle and the debugger's console output as the log"
        }
        if starts([0x1F, 0x8B]) { return "gzip-compressed: decompress it first (`gunzip`)" }
        if starts([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return "xz-compressed: decompress it first (`unxz`)" }
        guard !bytes.isEmpty else { return nil }
        var nul = 0
        for byte in bytes where byte == 0 { nul += 1 }
        if nul * 100 > bytes.count { return "binary data (\(nul) NUL bytes in the first \(bytes.count)), not a text log" }
        let invalid = invalidUTF8Bytes(bytes)
        if invalid * 10 > bytes.count { return "not text (\(invalid) of the first \(bytes.count) bytes are not UTF-8), not a debugger log" }
        return nil
    }

    /// Text files that are plainly something else by their name: source, documents, data.
    /// (`.txt` and `.log`, and names without an extension, are what logs are saved as.)
    private static let notLogExtensions: [String: String] = [
        "md": "a Markdown document", "markdown": "a Markdown document", "json": "a JSON document",
        "yml": "a YAML document", "yaml": "a YAML document", "xml": "an XML document", "html": "an HTML page",
        "plist": "a property list", "strings": "a strings file", "xib": "an Interface Builder document",
        "storyboard": "an Interface Builder document", "swift": "Swift source", "m": "Objective-C source",
        "mm": "Objective-C++ source", "h": "a C header", "c": "C source", "py": "Python source", "sh": "a shell script",
    ]

    /// What a text file is by its name when that is plainly not a log, with what to do.
    package static func nonLogDescription(fileName: String) -> String? {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return nil }
        let ext = fileName[fileName.index(after: dot)...].lowercased()
        return notLogExtensions[ext].map { "\($0) by its name, not a debugger log (save the debugger's console output as .log or .txt)" }
    }

    /// Bytes that are not part of a well-formed UTF-8 sequence (a sequence cut by the prefix's end counts as well-formed).
    static func invalidUTF8Bytes(_ bytes: UnsafeRawBufferPointer) -> Int {
        var invalid = 0, i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0
            guard length > 0 else { invalid += 1; i += 1; continue }
            var j = 1
            while j < length, i + j < bytes.count, bytes[i + j] & 0xC0 == 0x80 { j += 1 }
            if j < length, i + j < bytes.count { invalid += 1; i += 1; continue }
            i += j
        }
        return invalid
    }
}
