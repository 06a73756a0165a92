import AssetCatalog
import Foundation
import ImgtraceSupport
import TestSupport

// Renditions per second for the Assets.car reader: every corpus catalog, and a synthetic
// catalog of 100,000 renditions written by the test writer. Best of several runs.
func measure(_ label: String, runs: Int = 5, _ body: () throws -> Int) rethrows {
    var best = Double.infinity
    var count = 0
    for _ in 0..<runs {
        let start = DispatchTime.now().uptimeNanoseconds
        count = try body()
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    let rate = Double(count) / best
    let padded = label.count < 44 ? label + String(repeating: " ", count: 44 - label.count) : label
    print(padded + String(format: " %7d renditions  %8.2f ms  %10.0f renditions/s", count, best * 1000, rate))
}

/// The synthetic catalog: `count` renditions, three scales of each facet.
func syntheticImages(_ count: Int) -> [CatalogWriter.Image] {
    (0..<count).map { i in
        CatalogWriter.Image(facet: "asset_\(i / 3)", name: "asset_\(i / 3)@\(i % 3 + 1)x.png", scale: UInt16(i % 3 + 1), width: 40, height: 40)
    }
}

// `--write N PATH` and `--read PATH`: one write, or one read, for instruction counts under
// callgrind (scripts/bench-check.sh), where a timed loop would only multiply the count.
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--write", arguments.count == 3, let count = Int(arguments[1]) {
    try Data(CatalogWriter.catalog(syntheticImages(count))).write(to: URL(fileURLWithPath: arguments[2]))
    exit(0)
}
if arguments.first == "--read", arguments.count == 2 {
    print(try CarCatalog.read(contentsOf: arguments[1]).renditions.count)
    exit(0)
}

let size = Int(arguments.first ?? "") ?? 100_000
let images = syntheticImages(size)
let synthetic = FileManager.default.temporaryDirectory.appendingPathComponent("imgtrace-bench-\(size).car")
try Data(CatalogWriter.catalog(images)).write(to: synthetic)
defer { try? FileManager.default.removeItem(at: synthetic) }
let bytes = (try? FileManager.default.attributesOfItem(atPath: synthetic.path)[.size] as? Int) ?? 0
print("synthetic catalog: \(size) renditions, \(bytes / 1024) KiB")
try measure("synthetic (\(size))") { try CarCatalog.read(contentsOf: synthetic.path).renditions.count }
// The floor beside it, in the same run: the same file mapped and every byte of it read once
// (summed eight at a time), which is what "memory speed" means for this reader.
try measure("one pass over the same bytes") {
    try MappedFile(path: synthetic.path).withBytes { raw in
        var sum: UInt64 = 0
        var at = 0
        while at + 8 <= raw.count {
            sum &+= raw.loadUnaligned(fromByteOffset: at, as: UInt64.self)
            at += 8
        }
        return sum == 1 ? 0 : size
    }
}

if let root = Corpus.root {
    let dir = root.appendingPathComponent("car")
    let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".car") }.sorted()
    for file in files {
        try measure(file) { try CarCatalog.read(contentsOf: dir.appendingPathComponent(file).path).renditions.count }
    }
} else {
    print(Corpus.missingMessage)
}
