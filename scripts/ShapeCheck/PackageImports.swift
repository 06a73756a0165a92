import Foundation
import SwiftParser
import SwiftSyntax

/// What Package.swift declares (from `swift package dump-package`): each target's folder and the
/// modules it depends on.
struct DeclaredTarget {
    var name: String
    var folder: String
    var isExecutable: Bool
    var dependencies: Set<String>
}

/// Reads `swift package dump-package`'s JSON. A product's module is named as the product (true of
/// every package this one uses).
func declaredTargets(json: Data) throws -> [DeclaredTarget] {
    guard let root = try JSONSerialization.jsonObject(with: json) as? [String: Any], let targets = root["targets"] as? [[String: Any]] else {
        throw CocoaError(.coderReadCorrupt)
    }
    return targets.compactMap { target in
        guard let name = target["name"] as? String, let type = target["type"] as? String else { return nil }
        let folder = target["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
        var dependencies: Set<String> = []
        for dependency in target["dependencies"] as? [[String: Any]] ?? [] {
            for key in ["byName", "target", "product"] {
                if let fields = dependency[key] as? [Any], let module = fields.first as? String { dependencies.insert(module) }
            }
        }
        return DeclaredTarget(name: name, folder: folder, isExecutable: type == "executable", dependencies: dependencies)
    }
}

/// The modules a file imports, wherever the import stands (inside `#if` too).
final class ImportFinder: SyntaxVisitor {
    var modules: Set<String> = []
    init() { super.init(viewMode: .all) }
    override func visit(_ node: ImportDeclSyntax) -> SyntaxVisitorContinueKind {
        if let module = node.path.first?.name.text { modules.insert(module) }
        return .skipChildren
    }
}

/// Package.swift exact both ways: a target imports only modules it declares (a module of this
/// package or a declared product reached through another target builds by accident, and breaks
/// when that target drops it), and declares only modules one of its Swift files imports. An
/// executable target as a dependency is built for the tests that run it, never imported. Targets
/// without Swift files (C) are not checked.
func packageImportProblems(targets: [DeclaredTarget], packageRoot: String) -> [String] {
    let known = Set(targets.map(\.name)).union(targets.flatMap(\.dependencies))
    let executables = Set(targets.filter(\.isExecutable).map(\.name))
    var problems: [String] = []
    for target in targets.sorted(by: { $0.name < $1.name }) {
        let folder = packageRoot + "/" + target.folder
        var imported: [String: String] = [:]  // module → first file importing it
        var readFiles = 0
        for file in swiftFiles(under: folder) {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            readFiles += 1
            let finder = ImportFinder()
            finder.walk(Parser.parse(source: text))
            for module in finder.modules where imported[module] == nil { imported[module] = file }
        }
        guard readFiles > 0 else { continue }
        for (module, file) in imported.sorted(by: { $0.key < $1.key }) where known.contains(module) && module != target.name {
            if !target.dependencies.contains(module) {
                problems.append("\(file): imports \(module), which target \(target.name) does not declare in Package.swift")
            }
        }
        for module in target.dependencies.sorted() where imported[module] == nil && !executables.contains(module) {
            problems.append("Package.swift: target \(target.name) declares \(module) and no file of it imports it")
        }
    }
    return problems
}

/// Every `.swift` file under `folder`, sorted (a leading `./` dropped, as messages print them).
func swiftFiles(under folder: String) -> [String] {
    var files: [String] = []
    let prefix = folder.hasPrefix("./") ? String(folder.dropFirst(2)) : folder
    if let walker = FileManager.default.enumerator(atPath: folder) {
        for case let path as String in walker where path.hasSuffix(".swift") { files.append(prefix + "/" + path) }
    }
    return files.sorted()
}
