import SwiftSyntax

/// The calls that list a folder. Issue 62: one walker — `DirectoryWalk` holds the limits, the link
/// policy and the order, so no other file of the sources lists a folder itself.
let folderListingCalls: Set<String> = ["opendir", "readdir", "fdopendir", "scandir", "nftw", "fts_open", "enumerator", "contentsOfDirectory", "subpathsOfDirectory"]
/// The one file allowed to make them.
let theWalker = "ImgtraceSupport/DirectoryWalk.swift"

/// Each call in `tree` that lists a folder outside the walker, as a line for the report.
func folderListings(_ file: String, _ tree: SourceFileSyntax) -> [String] {
    guard !file.hasSuffix(theWalker) else { return [] }
    let converter = SourceLocationConverter(fileName: file, tree: tree)
    return tree.tokens(viewMode: .sourceAccurate).compactMap { token in
        guard case .identifier(let name) = token.tokenKind, folderListingCalls.contains(name),
            token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .leftParen
        else { return nil }
        let line = token.startLocation(converter: converter).line
        return "\(file):\(line): \(name)( lists a folder outside \(theWalker): walk it with DirectoryWalk (one walker, one set of limits)"
    }
}
