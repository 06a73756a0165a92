import AppBundle
import AuditModel
import AuditPolicy
import ImageHeaders
import ImgtraceSupport
import LaunchTrace

/// A tiny launch — the images an app ships and the loads of its log — that a rule must (or must
/// not) fire on. `imgtrace rules --verbose` prints them; the test suite runs every one.
public struct RuleExample: Sendable {
    /// An image the example app ships.
    package struct Image: Sendable {
        /// A loose file path (`tab@2x.png`, `fr.lproj/flag.png`) or a catalog facet as
        /// `Assets.car#name@3x` (optionally `~ipad`).
        package var path: String
        package var width: Int
        package var height: Int
        package var bytes: Int
        /// Same digest, same content.
        package var digest: String?

        package init(_ path: String, _ width: Int, _ height: Int, bytes: Int = 4096, digest: String? = nil) {
            self.path = path
            self.width = width
            self.height = height
            self.bytes = bytes
            self.digest = digest
        }
    }

    /// One hit of the example log.
    package enum Load: Sendable {
        /// `+[UIImage imageNamed:]` with this name.
        case named(String)
        /// `+[UIImage imageWithContentsOfFile:]` with this path.
        case path(String)
        case nilName
        /// A hit whose action failed (wrong register).
        case unreadable
        /// A request of this kind through its usual entry point (`LoadKind`).
        case request(String, LoadKind)
        /// `+[UIImage imageNamed:]` timed by the capture (`record --agent`), on this thread
        /// (`main`, or a label with the thread's id: `worker 4242`).
        case timed(String, microseconds: Int, thread: String = "main")
    }

    /// A source file of the example app, for the rules of `imgtrace unused`.
    package struct Source: Sendable {
        /// A path ending in `.swift`, `.m`, `.mm` or `.h`.
        package var file: String
        package var text: String

        package init(_ file: String, _ text: String) {
            self.file = file
            self.text = text
        }
    }

    /// The example app's code (`imgtrace unused` examples).
    package var sources: [Source]

    /// What the example's config sets, each through the rule's own declaration.
    package var settings: [RuleSetting.Assignment]
    /// Launch images of the baseline the example is compared with.
    package var baselineImages: Int?

    package var summary: String
    package var images: [Image]
    package var loads: [Load]
    /// Junk files in the bundle.
    package var junk: [String]
    /// Whether the rule fires.
    package var fires: Bool

    package init(
        _ summary: String, images: [Image], loads: [Load], junk: [String] = [], settings: [RuleSetting.Assignment] = [],
        baselineImages: Int? = nil, sources: [Source] = [], fires: Bool
    ) {
        self.sources = sources
        self.baselineImages = baselineImages
        self.settings = settings
        self.summary = summary
        self.images = images
        self.loads = loads
        self.junk = junk
        self.fires = fires
    }

    /// The example's inventory: one iOS app bundle with these images.
    package var inventory: BundleInventory {
        let app = BundleInfo(
            id: BundleID.top, kind: .app, name: "Example.app", resourceRoot: "",
            info: InfoPlistFacts(platform: "iphoneos"))
        let bundleImages = images.map { image -> BundleImage in
            let decoded = ImageInfo.decodedBytes(width: image.width, height: image.height, bytesPerPixel: 4)
            if let hash = image.path.firstIndex(of: "#") {
                let car = String(image.path[..<hash])
                let parsed = LooseImageName(fileName: String(image.path[image.path.index(after: hash)...]) + ".png")
                return BundleImage(
                    id: "\(car)#\(parsed.base)[\(parsed.idiom),\(parsed.scale)x,any]", bundle: BundleID.top, path: car,
                    source: .assetCatalog, name: parsed.base, format: "png", pixelWidth: image.width,
                    pixelHeight: image.height, scale: parsed.scale, idiom: parsed.idiom,
                    bytesOnDisk: image.bytes, decodedBytes: decoded, digest: image.digest)
            }
            let parsed = LooseImageName(fileName: PathText.fileName(image.path))
            var directory = PathText.folder(image.path)
            var localization: String?
            if directory.hasSuffix(".lproj") {
                localization = String(PathText.fileName(directory).dropLast(6))
                directory = PathText.folder(directory)
            }
            return BundleImage(
                id: image.path, bundle: BundleID.top, path: image.path, source: .file,
                name: (directory.isEmpty ? "" : directory + "/") + parsed.lookupName,
                format: parsed.fileExtension.lowercased() == "jpg" ? "jpeg" : "png",
                pixelWidth: image.width, pixelHeight: image.height, scale: parsed.scale, idiom: parsed.idiom,
                localization: localization, fileExtension: parsed.fileExtension, bytesOnDisk: image.bytes,
                decodedBytes: decoded, digest: image.digest)
        }
        return BundleInventory(bundles: [app], images: bundleImages.sorted { $0.id < $1.id }, junk: junk)
    }

    /// The example's log as the events a trace reader would produce.
    package var events: [ImageLoad] {
        loads.enumerated().map { offset, load in
            let seq = offset + 1
            switch load {
            case let .named(name):
                return ImageLoad(seq: seq, line: seq, name: name, status: .ok, api: "+[UIImage imageNamed:]")
            case let .path(path):
                return ImageLoad(seq: seq, line: seq, name: path, status: .ok, api: "+[UIImage imageWithContentsOfFile:]")
            case .nilName:
                return ImageLoad(seq: seq, line: seq, name: nil, status: .nil, api: "+[UIImage imageNamed:]")
            case .unreadable:
                return ImageLoad(seq: seq, line: seq, name: nil, status: .error, detail: "error: invalid register", api: "+[UIImage imageNamed:]")
            case let .request(name, kind):
                var load = ImageLoad(seq: seq, line: seq, name: name, status: .ok, api: kind.entryPoint)
                load.kind = kind
                return load
            case let .timed(name, microseconds, thread):
                var load = ImageLoad(seq: seq, line: seq, name: name, status: .ok, api: "+[UIImage imageNamed:]", thread: thread)
                load.kind = .code
                load.microseconds = microseconds
                return load
            }
        }
    }

    /// The example as `imgtrace rules ID` shows it: what the app ships, its code, its config and
    /// its launch, a line each.
    package var lines: [String] {
        var out = images.map { "ships   \($0.path) (\($0.width)×\($0.height) px, \($0.bytes) bytes\($0.digest == nil ? "" : ", digest \($0.digest!)"))" }
        out += junk.map { "ships   \($0) (junk)" }
        for source in sources {
            out += source.text.split(separator: "\n").map { "code    \(source.file): \($0.trimmingCharacters(in: .whitespaces))" }
        }
        out += settings.map { "config  \($0.setting.path): \($0.value.text)" }
        if let baselineImages { out.append("baseline \(baselineImages) launch images") }
        let launch = loads.map { load -> String in
            switch load {
            case .named(let name): return "imageNamed: \"\(name)\""
            case .path(let path): return "imageWithContentsOfFile: \"\(path)\""
            case .nilName: return "imageNamed: nil"
            case .unreadable: return "an unreadable hit"
            case .request(let name, let kind): return "\(kind.entryPoint) \"\(name)\""
            case .timed(let name, let microseconds, let thread):
                return "imageNamed: \"\(name)\" \(ImageTime.milliseconds(microseconds))" + (thread == "main" ? "" : " on \(thread)")
            }
        }
        out.append("launch  " + (launch.isEmpty ? "(no launch given)" : launch.joined(separator: ", ")))
        return out
    }
}
