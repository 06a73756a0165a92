import AppBundle
import AuditModel
import AuditPolicy
import AuditRules
import Foundation
import LaunchAudit
import LaunchTrace
import TestSupport
import UnusedAudit
import XCTest

/// `analyze` on real bundles: Gridlock's two real launch traces, and, for every corpus bundle,
/// logs generated from the bundle's own image names (taken from its `inventory.json`, not from
/// imgtrace's reader) in the console shapes of docs/trace-logs.md.
final class CorpusAuditTests: XCTestCase {
    private func corpus(_ path: String) throws -> URL {
        guard let root = Corpus.root else { throw XCTSkip(Corpus.missingMessage) }
        return root.appendingPathComponent(path)
    }

    private func audit(logs: [[UInt8]], inventory: BundleInventory, device: DeviceProfile = .default) throws -> (AuditResult, [[ImageLoad]]) {
        let auditor = LaunchAuditor(inventory: inventory, device: device)
        var all: [[ImageLoad]] = []
        for (i, bytes) in logs.enumerated() {
            auditor.beginLog("log\(i)")
            let (events, summary) = try TraceReader.read(bytes)
            for event in events { auditor.add(event) }
            auditor.endLog(summary)
            all.append(events)
        }
        return (auditor.finish(), all)
    }

    // MARK: Gridlock

    func testGridlockEveryHitIsAccountedFor() throws {
        let dir = try corpus("e2e/gridlock")
        let inventory = try BundleReader.inventory(
            of: dir.appendingPathComponent("Gridlock.app").path,
            systemImages: [dir.appendingPathComponent("system-images").path])
        let appFiles = Set(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("Gridlock.app/Resources").path))
        let systemFiles = Set(try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("system-images").path))
        // GNUstep's own mapping file, read here with a regular expression: name → theme name.
        let mappingText = try String(contentsOf: dir.appendingPathComponent("system-images/nsmapping.strings"), encoding: .utf8)
        let withoutComments = mappingText.replacingOccurrences(of: "/\\*[\\s\\S]*?\\*/", with: "", options: .regularExpression)
        var theme: [String: String] = [:]
        for match in withoutComments.matches(of: /(\w+)\s*=\s*(\w+)\s*;/) { theme[String(match.1)] = String(match.2) }

        var fingerprints: [[String]] = []
        for trace in ["b-gridlock-gdb-po-silent.txt", "b-gridlock-lldb-nsprint.txt"] {
            let bytes = try Array(Data(contentsOf: dir.appendingPathComponent(trace)))
            let (result, events) = try audit(logs: [bytes], inventory: inventory)
            XCTAssertEqual(events[0].count, 192, trace)
            XCTAssertEqual(result.metrics.launch.loads, 192, trace)
            XCTAssertEqual(result.uses.reduce(0) { $0 + $1.launchLoads }, 192, "\(trace): every hit is one load of one name")
            var missing: [String] = []
            for use in result.uses {
                let name = try XCTUnwrap(use.name, trace)
                let image = use.resolution.image
                if name == "NSApplicationIcon" {
                    XCTAssertEqual(image?.path, "Resources/Gridlock.tiff", "the app icon from Info-gnustep.plist")
                } else if appFiles.contains(name) || appFiles.contains(name + ".tiff") {
                    XCTAssertEqual(image?.bundle, ".", name)
                    XCTAssertEqual(image.map { ($0.path as NSString).lastPathComponent }, appFiles.contains(name) ? name : name + ".tiff")
                } else if systemFiles.contains(name + ".tiff") {
                    XCTAssertEqual(image?.source, .systemImages, name)
                    XCTAssertEqual(image.map { ($0.path as NSString).lastPathComponent }, name + ".tiff", name)
                } else if let via = theme[name], let file = theme.keys.sorted().first(where: { theme[$0] == via && systemFiles.contains($0 + ".tiff") }) {
                    XCTAssertEqual(image.map { ($0.path as NSString).lastPathComponent }, file + ".tiff", "\(name) via \(via)")
                    XCTAssertTrue(use.resolution.how.text.contains("nsmapping.strings"), use.resolution.how.text)
                } else {
                    XCTAssertNil(image, name)
                    missing.append(name)
                }
            }
            XCTAssertEqual(missing, ["GSArrowCursor"], trace)
            XCTAssertEqual(result.findings.filter { $0.rule == "missing-image" }.flatMap(\.names), ["GSArrowCursor"])
            let repeated = Dictionary(uniqueKeysWithValues: result.findings.filter { $0.rule == "repeated-load" }.map { ($0.names[0], $0.values["loads"]) })
            XCTAssertEqual(repeated["NSMenuArrow"], .int(33), trace)
            XCTAssertEqual(repeated["NSMenuCheckmark"], .int(62), trace)
            XCTAssertEqual(repeated["NSMenuMixedState"], .int(62), trace)
            // Names GNUstep maps to one theme image share one cache entry: not duplicate content.
            XCTAssertFalse(result.findings.contains { $0.rule == "duplicate-content" && $0.names.contains("NSMenuArrow") })
            XCTAssertFalse(result.findings.contains { ["scale-mismatch", "loose-image"].contains($0.rule) }, "AppKit bundles are not thinned")
            fingerprints.append(result.findings.map(\.fingerprint))
        }
        XCTAssertEqual(fingerprints[0], fingerprints[1], "the two debuggers saw the same launch")
    }

    // MARK: Generated logs for every corpus bundle

    /// The console shapes a log is generated in.
    enum Shape: CaseIterable {
        case lldbQuoted, xcodeBare, gdb

        func render(_ names: [String]) -> String {
            var lines: [String] = []
            switch self {
            case .lldbQuoted:
                lines.append("(lldb) breakpoint set -n \"+[UIImage imageNamed:]\" -G true -C \"p (const char *)[(id)$arg3 UTF8String]\"")
                lines.append("Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x00000001849a1f34")
                lines.append("(lldb) breakpoint set -n \"+[UIImage imageWithContentsOfFile:]\" -G true -C \"p (char *)[$arg3 UTF8String]\"")
                lines.append("Breakpoint 2: where = UIKitCore`+[UIImage imageWithContentsOfFile:], address = 0x00000001849a2a10")
                for (i, name) in names.enumerated() {
                    lines.append(name.hasPrefix("/") ? "(lldb)  p (char *)[$arg3 UTF8String]" : "(lldb)  p (const char *)[(id)$arg3 UTF8String]")
                    let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                    lines.append("(const char *) $\(i) = 0x0000600000c2c0a0 \"\(escaped)\"")
                    if i % 3 == 0 { lines.append("2026-11-21 09:14:02.118204+0100 App[4242:118204] cell \(i) configured") }
                }
            case .xcodeBare:
                for (i, name) in names.enumerated() {
                    lines.append(name)
                    if i % 4 == 1 { lines.append("2026-11-21 09:14:02.301877+0100 App[4242:118204] [Feed] row \(i)") }
                }
            case .gdb:
                lines.append("Breakpoint 1 at 0x7ffff7a1c2d0")
                lines.append("Breakpoint 2 at 0x7ffff7a1c4e0")
                for (i, name) in names.enumerated() {
                    lines.append("")
                    lines.append("Breakpoint 1, 0x00007ffff7a1c2d0 in +[UIImage imageNamed:] ()")
                    lines.removeLast()
                    let api = name.hasPrefix("/") ? "+[UIImage imageWithContentsOfFile:]" : "+[UIImage imageNamed:]"
                    lines.append("Breakpoint \(name.hasPrefix("/") ? 2 : 1), 0x00007ffff7a1c2d0 in \(api) ()")
                    lines.append("$\(i + 1) = 0x5555555592c0 \"\(name)\"")
                }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }

    struct LooseTruth {
        var path: String
        var lookup: String
        var scale: Int
        var device: String?
    }

    /// Loose images from `inventory.json`, with their lookup names.
    private func looseTruth(_ app: [String: Any]) -> [LooseTruth] {
        (app["loose_images"] as? [[String: Any]] ?? []).compactMap { entry in
            guard let path = entry["path"] as? String, let base = entry["base_name"] as? String else { return nil }
            let ext = (entry["ext"] as? String ?? "").lowercased()
            let directory = (path as NSString).deletingLastPathComponent
            let name = ext == ".png" || ext.isEmpty ? base : base + ext
            return LooseTruth(
                path: path, lookup: directory.isEmpty ? name : directory + "/" + name,
                scale: Int((entry["scale"] as? String ?? "1x").dropLast()) ?? 1, device: entry["device"] as? String)
        }
    }

    /// The file a @3x phone loads: its own scale, else the nearest lower, else the lowest higher.
    private func expectedFile(_ candidates: [LooseTruth]) -> LooseTruth? {
        let usable = candidates.filter { $0.device == nil || $0.device == "iphone" }
        let pick = usable.filter { $0.scale <= 3 }.max { ($0.scale, $0.device != nil ? 1 : 0) < ($1.scale, $1.device != nil ? 1 : 0) }
        return pick ?? usable.min { $0.scale < $1.scale }
    }

    func testGeneratedLogsForEveryCorpusBundle() throws {
        let root = try corpus("bundles")
        let folders = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasSuffix(".md") }.sorted()
        XCTAssertGreaterThanOrEqual(folders.count, 4)
        for folder in folders {
            let dir = root.appendingPathComponent(folder)
            let truthFile = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("inventory.json"))) as! [String: Any]
            let (appKey, appValue) = try XCTUnwrap(truthFile.first)
            let app = try XCTUnwrap(appValue as? [String: Any])
            let input = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasSuffix(".app") || $0.hasSuffix(".ipa") })
            let inventory = try BundleReader.inventory(of: dir.appendingPathComponent(input).path)
            let appName = (appKey as NSString).lastPathComponent

            let loose = looseTruth(app)
            let looseNames = Array(Set(loose.map(\.lookup))).sorted()
            var facets: [String: [String]] = [:]
            for (_, catalog) in app["asset_catalogs"] as? [String: [String: Any]] ?? [:] {
                for facet in catalog["facets"] as? [[String: Any]] ?? [] {
                    guard let name = facet["name"] as? String, !name.hasPrefix("(") else { continue }
                    let variants = (facet["variants"] as? [String] ?? []).filter { !$0.contains("packedimage") && !$0.contains("multisize") && !$0.contains("|color|") }
                    if !variants.isEmpty { facets[name, default: []] += variants }
                }
            }
            let facetNames = facets.keys.sorted()
            // Up to six of each kind, spread over the sorted list.
            func spread(_ names: [String]) -> [String] {
                guard names.count > 6 else { return names }
                return (0..<6).map { names[$0 * names.count / 6] }
            }
            let chosenLoose = spread(looseNames.filter { name in expectedFile(loose.filter { $0.lookup == name }) != nil && facets[name] == nil })
            let chosenFacets = spread(facetNames)
            let repeated = (chosenFacets + chosenLoose).first!
            let wrongCase = (chosenFacets + chosenLoose).first { name in
                let flipped = name.prefix(1).uppercased() == name.prefix(1) ? name.prefix(1).lowercased() + name.dropFirst() : name.prefix(1).uppercased() + name.dropFirst()
                return flipped != name && !looseNames.contains(flipped) && facets[flipped] == nil
            }
            let flippedCase = wrongCase.map { name in
                name.prefix(1).uppercased() == name.prefix(1) ? name.prefix(1).lowercased() + name.dropFirst() : name.prefix(1).uppercased() + name.dropFirst()
            }
            let scaled = loose.first { $0.scale == 2 && !$0.lookup.contains(".") && ($0.device == nil) }
            let scaledName = scaled.map { $0.lookup + "@2x" } ?? (chosenFacets.first.map { $0 + "@2x" })
            let pathFile = expectedFile(loose.filter { $0.lookup == chosenLoose.first })
            let pathName = pathFile.map { "/private/var/containers/Bundle/Application/5C3A9E1B/\(appName)/\($0.path)" }
            var names = chosenFacets + chosenLoose + [repeated, repeated, "imgtrace_no_such_image"]
            if let flippedCase { names.append(flippedCase) }
            if let scaledName { names.append(scaledName) }
            if let pathName { names += [pathName, pathName] }

            var outcomes: [[String]] = []
            for shape in Shape.allCases {
                let text = shape.render(names)
                let (result, events) = try audit(logs: [Array(text.utf8)], inventory: inventory)
                XCTAssertEqual(events[0].compactMap(\.name), names, "\(folder) \(shape): the reader recovers every generated name")
                let byName = Dictionary(uniqueKeysWithValues: result.uses.compactMap { use in use.name.map { ($0, use) } })
                for name in chosenLoose {
                    let expected = try XCTUnwrap(expectedFile(loose.filter { $0.lookup == name }))
                    XCTAssertEqual(
                        byName[name]?.resolution.image?.path.hasSuffix(expected.path), true,
                        "\(folder): `\(name)` should load \(expected.path), got \(byName[name]?.resolution.how ?? "nothing")")
                }
                for name in chosenFacets {
                    let image = byName[name]?.resolution.image
                    XCTAssertEqual(image?.source, .assetCatalog, "\(folder): `\(name)`: \(byName[name]?.resolution.how ?? "")")
                    // The variants a phone can use, by scale: the chosen one has the best available scale.
                    let usable = facets[name]!.map { $0.split(separator: "|").map(String.init) }
                        .filter { ["universal", "phone"].contains($0[1]) && ["any", "light"].contains($0[2]) }
                    let scales = Set(usable.compactMap { Double($0[0].dropLast()).map { Int($0) } })
                    let best = scales.contains(3) ? 3 : scales.filter { $0 < 3 && $0 > 0 }.max() ?? scales.min()
                    XCTAssertEqual(image?.scale, best, "\(folder): `\(name)` scale")
                    let sizes = Set(usable.filter { Int(Double($0[0].dropLast()) ?? 0) == best }.map { $0[5] })
                    XCTAssertTrue(sizes.contains("\(image?.pixelWidth ?? 0)x\(image?.pixelHeight ?? 0)"), "\(folder): `\(name)` size \(sizes)")
                }
                let missing = Dictionary(uniqueKeysWithValues: result.findings.filter { $0.rule == "missing-image" }.map { ($0.names.first ?? "", $0) })
                XCTAssertEqual(missing["imgtrace_no_such_image"]?.values["cause"], .string("notFound"), folder)
                if let flippedCase { XCTAssertEqual(missing[flippedCase]?.values["cause"], .string("caseDiffers"), "\(folder): \(flippedCase)") }
                if let scaledName {
                    if scaled != nil {
                        XCTAssertEqual(byName[scaledName]?.resolution.image?.scale, 2, "\(folder): the literal @2x file")
                    } else {
                        XCTAssertEqual(missing[scaledName]?.values["cause"], .string("scaleInName"), folder)
                    }
                }
                let repeats = result.findings.filter { $0.rule == "repeated-load" }
                XCTAssertEqual(repeats.map(\.names), [[repeated]], folder)
                XCTAssertEqual(repeats.first?.values["loads"], .int(3))
                if let pathFile {
                    let uncached = result.findings.filter { $0.rule == "uncached-repeat" }
                    XCTAssertEqual(uncached.count, 1, folder)
                    XCTAssertEqual(uncached.first?.paths.first?.hasSuffix(pathFile.path), true, folder)
                }
                outcomes.append(result.uses.map { "\($0.displayName)=\($0.resolution.image?.id ?? "-")×\($0.launchLoads)" })
            }
            XCTAssertEqual(Set(outcomes.map { $0.sorted() }).count, 1, "\(folder): every shape gives the same resolutions")
        }
    }
}
