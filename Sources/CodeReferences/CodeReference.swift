import Foundation

/// One place in an app's source code that asks for an image, or may.
public struct CodeReference: Sendable, Equatable, Hashable {
    /// How the code names the image; the kinds differ in how sure the reference is.
    public enum Kind: String, Sendable, CaseIterable {
        /// A string literal given to an image API: `UIImage(named: "tab")`, `Image("tab")`,
        /// `NSImage(named:)`, `#imageLiteral(resourceName:)`, `[UIImage imageNamed:@"tab"]`.
        case named
        /// `UIImage(systemName:)`, `Image(systemName:)`: an SF Symbol, system artwork, not the app's.
        case system
        /// A generated identifier: Xcode's asset symbols (`Image(.tabHome)`,
        /// `UIImage(resource: .tabHome)`), R.swift (`R.image.tabHome`), SwiftGen
        /// (`Asset.tabHome.image`). `name` is the identifier.
        case symbol
        /// A name built at run time (`"flag_\(code)"`): `name` is a pattern, `*` for each hole.
        case dynamic
        /// Any other string literal: it may reach an image API through a variable or a table.
        case weak
    }

    /// The file, relative to the scanned root.
    public var file: String
    /// 1-based line and column of the reference's start.
    public var line: Int
    public var column: Int
    public var kind: Kind
    /// The name, the identifier (`symbol`) or the pattern (`dynamic`).
    public var name: String
    /// What the code called, when it called an image API (`UIImage(named:)`).
    public var api: String?
    /// For a symbol, what it is a member of, as written (`Onboarding` for `.Onboarding.world`,
    /// `Asset.Onboarding` for SwiftGen's `Asset.Onboarding.world`); nil for a bare `.world`.
    public var qualifier: String?

    /// Whether a pattern names a family of images: at least two letters or digits besides its
    /// holes. `"*-*"` would match nearly every name and keep everything alive.
    public static func isNamingPattern(_ pattern: String) -> Bool {
        pattern.filter { $0.isLetter || $0.isNumber }.count >= 2
    }

    public init(file: String, line: Int, column: Int, kind: Kind, name: String, api: String? = nil, qualifier: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.kind = kind
        self.name = name
        self.api = api
        self.qualifier = qualifier
    }
}

/// Xcode's rule from an asset's name to its generated symbol (Xcode 15's `GeneratedAssetSymbols`,
/// R.swift's and SwiftGen's identifiers follow the same shape): the name is cut into words at
/// every character that is not a letter or a digit, the first word starts lower-case, the others
/// upper-case, and a symbol that would start with a digit gets `_` in front
/// (`tab-home` → `tabHome`, `Tab Home` → `tabHome`, `casita_dark` → `casitaDark`, `3d` → `_3d`).
/// A folder that provides a namespace becomes a type: `Onboarding/World` → `Onboarding.world`.
public enum AssetSymbol {
    /// The symbol Xcode generates for `name` (its last path component).
    public static func symbol(for name: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? name
        let words = last.split { !($0.isLetter || $0.isNumber) }.map(String.init)
        guard let first = words.first else { return "" }
        var symbol = lowerFirst(first)
        for word in words.dropFirst() { symbol += word.prefix(1).uppercased() + word.dropFirst() }
        if symbol.first?.isNumber == true { symbol = "_" + symbol }
        return symbol
    }

    /// The key two spellings of one identifier share: letters and digits only, lower-cased. The
    /// generators differ in small ways (an all-capitals first word, a dropped `Image` suffix), so
    /// an identifier is matched to a name through this key, which errs towards a match.
    public static func key(_ text: String) -> String {
        // Identifiers are ASCII nearly always: bytes then, not Foundation's character set (it was
        // a twentieth of `unused` on a real app, run at every member access).
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
                default: continue
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(text.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init)).lowercased()
    }

    private static func lowerFirst(_ word: String) -> String {
        let characters = Array(word)
        // An all-capitals word (`POC`) is lower-cased whole, as the generators do.
        if !characters.contains(where: \.isLowercase) { return word.lowercased() }
        // Leading capitals: one is lowered (`Tab` → `tab`), several all but the last (`HTTPServer` → `httpServer`).
        var upper = 0
        while upper < characters.count, characters[upper].isUppercase { upper += 1 }
        let lowered = upper <= 1 ? upper : upper - 1
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }
}
