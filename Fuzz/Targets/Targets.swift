import AppBundle
import AssetCatalog
import AuditModel
import AuditPolicy
import AuditRules
import AuditTestSupport
import CodeReferences
import Foundation
import ImageHeaders
import ImgtraceSupport
import LaunchAudit
import LaunchTrace
import ProjectModel
import Reporters
import UnusedAudit

/// Every fuzz target, one per reader that takes bytes from outside.
enum Targets {
    static let all: [FuzzTarget] = [
        FuzzTarget(
            id: "log", summary: "a debugger console log (lldb, gdb, Xcode), and its trace JSON checked against each load encoded alone",
            run: { bytes in
                Pipeline.traceDocument(bytes)
            }, seeds: Seeds.logs),
        FuzzTarget(
            id: "analyze", summary: "a log audited against a small app and rendered in every format",
            run: { bytes in
                Pipeline.audit(bytes)
            }, seeds: Seeds.logs),
        FuzzTarget(
            id: "car", summary: "a compiled asset catalog (BOM store with CAR content)",
            run: { bytes in
                guard let catalog = try? bytes.withUnsafeBytes({ try CarCatalog.parse($0) }) else { return }
                _ = CarJSONReport.render(catalog)
                _ = CarTextReport.render(catalog, file: "fuzz.car")
            }, seeds: Seeds.catalogs),
        FuzzTarget(
            id: "image", summary: "the first bytes of an image file of any format",
            run: { bytes in
                bytes.withUnsafeBytes { raw in
                    _ = ImageHeaderReader.sniff(raw)
                    if let info = try? ImageHeaderReader.read(raw, fileSize: raw.count) { _ = info.decodedBytes }
                }
            }, seeds: Seeds.images),
        FuzzTarget(
            id: "bplist", summary: "a binary property list (Info.plist, keyed-archive nib)",
            run: { bytes in
                guard let plist = try? PropertyList.parse(bytes) else { return }
                _ = InfoPlistFacts(plist)
            }, seeds: Seeds.binaryPlists),
        FuzzTarget(
            id: "xmlplist", summary: "an XML or OpenStep property list (Info.plist, Info-gnustep.plist)",
            run: { bytes in
                guard let plist = try? PropertyList.parse(bytes) else { return }
                _ = InfoPlistFacts(plist)
            }, seeds: Seeds.textPlists),
        FuzzTarget(
            id: "nib", summary: "a compiled nib: NIBArchive or keyed archive",
            run: { bytes in
                _ = try? NibReferences.imageNames(in: bytes)
            }, seeds: Seeds.nibs),
        FuzzTarget(
            id: "xcassets", summary: "an imageset's Contents.json inside a source asset catalog",
            run: { bytes in
                let tree = MemoryTree([
                    "A.xcassets/Contents.json": Array(#"{"info":{"version":1}}"#.utf8),
                    "A.xcassets/g/Contents.json": Array(#"{"properties":{"provides-namespace":true}}"#.utf8),
                    "A.xcassets/g/x.imageset/Contents.json": bytes,
                    "A.xcassets/g/x.imageset/a.png": Seeds.smallPNG,
                    "A.xcassets/g/x.imageset/b.pdf": Array("%PDF-1.4 /MediaBox [0 0 24 24]".utf8),
                ])
                _ = try? BundleReader.inventory(ofTree: tree, name: "A.xcassets")
            }, seeds: Seeds.contentsJSON),
        FuzzTarget(
            id: "zip", summary: "an .ipa or .app.zip archive",
            run: { bytes in
                Scratch.withFile(bytes, name: "fuzz.ipa") { path in _ = try? BundleReader.inventory(of: path, readingCodeStrings: true) }
            }, seeds: Seeds.zips),
        FuzzTarget(
            id: "config", summary: "a .imgtrace.yml configuration",
            run: { bytes in
                _ = try? ConfigFile.parse(String(decoding: bytes, as: UTF8.self), path: ".imgtrace.yml")
            }, seeds: Seeds.configs),
        FuzzTarget(
            id: "baseline", summary: "a baseline JSON file",
            run: { bytes in
                _ = try? Baseline.parse(bytes, path: "baseline.json")
            }, seeds: Seeds.baselines),
        FuzzTarget(
            id: "sourcetext", summary: "a source tree's Contents.json or .xib/.storyboard (--source-root)",
            run: { bytes in
                _ = SourceText.filenamePositions(inContentsJSON: bytes)
                _ = SourceText.imageAttributes(inInterface: bytes)
                let tree = MemoryTree([
                    "App/A.xcassets/x.imageset/Contents.json": bytes, "App/A.xcassets/x.imageset/a.png": Seeds.smallPNG,
                    "App/Main.storyboard": bytes,
                ])
                _ = SourceIndex(tree: tree)
            }, seeds: Seeds.sourceTexts),
        FuzzTarget(
            id: "strings", summary: "an old-style strings file (GNUstep nsmapping.strings)",
            run: { bytes in
                _ = ImageAliases.parseStrings(bytes)
            }, seeds: Seeds.strings),
        FuzzTarget(
            id: "code", summary: "a Swift, Objective-C or data file, or an app's executable (unused's code references)",
            run: { bytes in
                _ = ObjCReferences.scan(bytes, file: "A.m")
                _ = DataReferences.scan(bytes, file: "A.plist")
                _ = DataReferences.scan(bytes, file: "A.json")
                _ = CodeStrings.scan(bytes, javaScript: false)
                _ = CodeStrings.scan(bytes, javaScript: true)
                // What the parse budget lets through is held by the timeout: a check of the parse's
                // brackets against the estimate (tried in issue 40) also counted the brackets the
                // parser's error recovery leaves unclosed, work it never did.
                _ = SwiftReferences.scan(String(decoding: bytes, as: UTF8.self), file: "A.swift")
            }, seeds: Seeds.code),
        FuzzTarget(
            id: "code-filter", summary: "Swift source: every reference naming an image is still read when `unused` parses only what may name it",
            run: { bytes in
                // Each reference's own name as the only image: the filtered read must still give it.
                let source = String(decoding: bytes, as: UTF8.self)
                let whole = SwiftReferences.read(source, file: "A.swift")
                guard whole.parsed else { return }
                func imageName(_ reference: CodeReference) -> String? {
                    switch reference.kind {
                    case .named, .weak, .symbol: return reference.name
                    case .dynamic: return UnusedImages.namePattern(reference).map { $0.name.replacingOccurrences(of: "*", with: "x") }
                    case .system: return nil
                    }
                }
                for name in Set(whole.references.compactMap(imageName)).sorted().prefix(6) {
                    let found = Set(SwiftReferences.read(source, file: "A.swift", only: UnusedImages.codeFilter(names: [name])).references)
                    for reference in whole.references where imageName(reference) == name && !found.contains(reference) {
                        fatalError("the filter for \(name) lost \(reference)")
                    }
                }
            }, seeds: Seeds.code),
        FuzzTarget(
            id: "pbxproj", summary: "an Xcode project file (OpenStep text): its targets and what each ships",
            run: { bytes in
                guard let project = try? XcodeProject.read(pbxproj: bytes, projectFolder: "ios") else { return }
                _ = project.targets(shipping: "ios/App/Assets.xcassets/a.imageset/a.png")
                for target in project.targets { _ = project.copies("ios/App/Assets.xcassets/a.imageset/a.png", target: target) }
            }, seeds: Seeds.projects),
        FuzzTarget(
            id: "manifest", summary: "a local Swift package's Package.swift: the resources its targets declare",
            run: { bytes in
                _ = PackageManifest.resources(source: bytes, packageFolder: "Packages/Kit")
            }, seeds: Seeds.manifests),
        FuzzTarget(
            id: "workspace", summary: "an Xcode workspace's contents.xcworkspacedata: the projects its groups place",
            run: { bytes in
                _ = ProjectSet.workspaceProjects(contents: bytes, workspace: URL(fileURLWithPath: "/src/App.xcworkspace"))
            }, seeds: Seeds.workspaces),
    ]

    /// Every target: the readers above and, on Linux, the native tracer's.
    static var everyTarget: [FuzzTarget] {
        #if os(Linux)
            return all + NativeTargets.all
        #else
            return all
        #endif
    }

    static func named(_ id: String) -> FuzzTarget? { everyTarget.first { $0.id == id } }
}

/// A scratch file per process for readers that take a path.
enum Scratch {
    private static let folder: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = base + "/imgtrace-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func withFile(_ bytes: [UInt8], name: String, _ body: (String) -> Void) {
        let path = folder + "/" + name
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        body(path)
        unlink(path)
    }
}
