import ImgtraceSupport

/// Removing files from a project file as Xcode would: their `PBXFileReference` objects, the
/// `PBXBuildFile` objects that copy them, and every list entry naming either, as whole lines of
/// the text (Xcode writes each of those on a line of its own), so a diff of the edit is small.
public enum ProjectEdit {
    /// The 0-based line numbers of `text` (a `project.pbxproj`) to delete so that the files at the
    /// tree paths `removed` leave the project. `projectFolder` as for `XcodeProject.read`.
    /// Empty when the project names none of them (a synchronized folder's files are not listed).
    public static func linesRemoving(_ removed: Set<String>, from text: [UInt8], projectFolder: String) throws -> [Int] {
        guard case .dictionary(let root) = try OpenStepPlist.parse(text), case .dictionary(let objects)? = root["objects"],
            let project = root["rootObject"]?.string.flatMap({ objects[$0]?.dictionary })
        else { throw FormatError(offset: 0, reason: "no `objects` with the `rootObject` a project file has") }
        let paths = XcodeProject.referencePaths(objects: objects, project: project, projectFolder: projectFolder)
        var ids = Set(paths.filter { removed.contains($0.value) && objects[$0.key]?.dictionary?["isa"]?.string == "PBXFileReference" }.map(\.key))
        guard !ids.isEmpty else { return [] }
        for (id, object) in objects where object.dictionary?["isa"]?.string == "PBXBuildFile" {
            if let reference = object.dictionary?["fileRef"]?.string, ids.contains(reference) { ids.insert(id) }
        }
        return lines(naming: ids, in: text)
    }

    /// Lines whose first word is one of `ids` (an object's definition or a list entry); a
    /// definition that opens a dictionary it does not close on its line takes the lines to its end.
    static func lines(naming ids: Set<String>, in text: [UInt8]) -> [Int] {
        var out: [Int] = []
        var depth = 0  // braces still open inside an object being removed
        var number = 0
        var start = 0
        while start < text.count {
            let end = text[start...].firstIndex(of: 0x0A) ?? text.count
            let line = text[start..<end]
            defer {
                start = end + 1
                number += 1
            }
            if depth > 0 {
                out.append(number)
                depth += braces(line)
                continue
            }
            let word = line.drop { $0 == 0x20 || $0 == 0x09 }.prefix { $0 != 0x20 && $0 != 0x09 && $0 != 0x2C }
            guard !word.isEmpty, ids.contains(String(decoding: word, as: UTF8.self)) else { continue }
            out.append(number)
            depth = max(0, braces(line))
        }
        return out
    }

    /// Opening less closing braces outside quotes and comments.
    private static func braces(_ line: ArraySlice<UInt8>) -> Int {
        var balance = 0
        var quoted = false
        var previous: UInt8 = 0
        var index = line.startIndex
        while index < line.endIndex {
            let byte = line[index]
            if quoted {
                if byte == UInt8(ascii: "\""), previous != UInt8(ascii: "\\") { quoted = false }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
            } else if byte == UInt8(ascii: "/"), index + 1 < line.endIndex, line[index + 1] == UInt8(ascii: "*") {
                // A comment (`/* name */`) holds no braces that count.
                var close = index + 2
                while close + 1 < line.endIndex, !(line[close] == UInt8(ascii: "*") && line[close + 1] == UInt8(ascii: "/")) { close += 1 }
                index = close + 2
                previous = 0
                continue
            } else if byte == UInt8(ascii: "{") {
                balance += 1
            } else if byte == UInt8(ascii: "}") {
                balance -= 1
            }
            previous = previous == UInt8(ascii: "\\") && byte == UInt8(ascii: "\\") ? 0 : byte
            index += 1
        }
        return balance
    }
}
