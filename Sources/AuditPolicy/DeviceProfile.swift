import AppBundle
import Foundation

/// A screen the audit judges images against: its size in points, its scale and its idiom.
public struct DeviceProfile: Sendable, Equatable {
    /// The id `--device` takes, naming the models the profile holds, e.g. `iphone-16-17-pro-max`
    /// (the iPhone 16 Pro Max and 17 Pro Max).
    public package(set) var id: String
    /// The models that share this screen, as Apple names them.
    public package(set) var models: [String]
    /// Width and height in points (portrait for phones and pads, landscape for Mac screens).
    package var pointWidth: Int
    package var pointHeight: Int
    /// 1, 2 or 3.
    public package(set) var scale: Int
    /// `phone`, `pad` or `mac`, the idiom catalog renditions and `~iphone`/`~ipad` files are chosen by.
    package var idiom: ImageIdiom

    /// The id this profile had before ids named their models (`iphone-14` held the 12 and 13 but
    /// not the 14 Pro): still accepted by `--device`, configs and baselines, and kept in finding
    /// fingerprints so that renaming a profile changes no baseline.
    package var formerId: String?

    /// The device part of a finding's fingerprint: the first id the profile had.
    package var fingerprintKey: String { formerId ?? id }

    package init(id: String, formerId: String? = nil, models: [String], pointWidth: Int, pointHeight: Int, scale: Int, idiom: ImageIdiom) {
        self.id = id
        self.formerId = formerId
        self.models = models
        self.pointWidth = pointWidth
        self.pointHeight = pointHeight
        self.scale = scale
        self.idiom = idiom
    }

    package var pixelWidth: Int { pointWidth * scale }
    package var pixelHeight: Int { pointHeight * scale }
    /// One full screen decoded at 4 bytes per pixel: the default `oversized-memory` threshold.
    package var fullScreenBytes: Int { pixelWidth * pixelHeight * 4 }

    /// The built-in profiles (docs/images.md §4), phones then pads, smallest first.
    package static let builtIn: [DeviceProfile] = [
        .init(
            id: "iphone-6-7-8-se", formerId: "iphone-se", models: ["iPhone 6", "iPhone 6s", "iPhone 7", "iPhone 8", "iPhone SE (2nd gen)", "iPhone SE (3rd gen)"], pointWidth: 375,
            pointHeight: 667, scale: 2,
            idiom: "phone"),
        .init(id: "iphone-xr-11", formerId: "iphone-11", models: ["iPhone XR", "iPhone 11"], pointWidth: 414, pointHeight: 896, scale: 2, idiom: "phone"),
        .init(
            id: "iphone-x-xs-11-pro-12-13-mini", formerId: "iphone-13-mini", models: ["iPhone X", "iPhone XS", "iPhone 11 Pro", "iPhone 12 mini", "iPhone 13 mini"],
            pointWidth: 375, pointHeight: 812, scale: 3,
            idiom: "phone"),
        .init(
            id: "iphone-xs-11-pro-max", formerId: "iphone-11-pro-max", models: ["iPhone XS Max", "iPhone 11 Pro Max"], pointWidth: 414, pointHeight: 896, scale: 3, idiom: "phone"),
        // 1242×2208 rendered, shown at 1080×1920: UIKit works in 414×736 points at @3x.
        .init(
            id: "iphone-6-7-8-plus", formerId: "iphone-8-plus", models: ["iPhone 6 Plus", "iPhone 6s Plus", "iPhone 7 Plus", "iPhone 8 Plus"], pointWidth: 414, pointHeight: 736,
            scale: 3, idiom: "phone"),
        .init(
            id: "iphone-12-13-14-16e", formerId: "iphone-14", models: ["iPhone 12", "iPhone 12 Pro", "iPhone 13", "iPhone 13 Pro", "iPhone 14", "iPhone 16e"],
            pointWidth: 390, pointHeight: 844, scale: 3, idiom: "phone"),
        .init(
            id: "iphone-14-pro-15-16", formerId: "iphone-16", models: ["iPhone 14 Pro", "iPhone 15", "iPhone 15 Pro", "iPhone 16"], pointWidth: 393, pointHeight: 852, scale: 3,
            idiom: "phone"),
        .init(
            id: "iphone-16-pro-17", formerId: "iphone-17-pro", models: ["iPhone 16 Pro", "iPhone 17", "iPhone 17 Pro"], pointWidth: 402, pointHeight: 874,
            scale: 3, idiom: "phone"),
        .init(id: "iphone-air", models: ["iPhone Air"], pointWidth: 420, pointHeight: 912, scale: 3, idiom: "phone"),
        .init(
            id: "iphone-12-13-pro-max-14-plus", formerId: "iphone-14-plus", models: ["iPhone 12 Pro Max", "iPhone 13 Pro Max", "iPhone 14 Plus"], pointWidth: 428, pointHeight: 926,
            scale: 3, idiom: "phone"),
        .init(
            id: "iphone-14-15-pro-max-15-16-plus", formerId: "iphone-16-plus", models: ["iPhone 14 Pro Max", "iPhone 15 Plus", "iPhone 15 Pro Max", "iPhone 16 Plus"],
            pointWidth: 430, pointHeight: 932, scale: 3, idiom: "phone"),
        .init(
            id: "iphone-16-17-pro-max", formerId: "iphone-17-pro-max", models: ["iPhone 16 Pro Max", "iPhone 17 Pro Max"], pointWidth: 440, pointHeight: 956, scale: 3,
            idiom: "phone"),
        .init(id: "ipad-mini", models: ["iPad mini (6th gen)", "iPad mini (A17 Pro)"], pointWidth: 744, pointHeight: 1133, scale: 2, idiom: "pad"),
        .init(
            id: "ipad-10-a16-air-11", formerId: "ipad-air-11", models: ["iPad (10th gen)", "iPad (A16)", "iPad Air 11\""], pointWidth: 820, pointHeight: 1180, scale: 2,
            idiom: "pad"),
        .init(
            id: "ipad-pro-11", models: ["iPad Pro 11\" (1st gen)", "iPad Pro 11\" (2nd gen)", "iPad Pro 11\" (3rd gen)", "iPad Pro 11\" (4th gen)"],
            pointWidth: 834, pointHeight: 1194, scale: 2, idiom: "pad"),
        .init(id: "ipad-pro-11-m4", models: ["iPad Pro 11\" (M4)"], pointWidth: 834, pointHeight: 1210, scale: 2, idiom: "pad"),
        .init(id: "ipad-pro-12.9-air-13", formerId: "ipad-pro-12.9", models: ["iPad Pro 12.9\"", "iPad Air 13\""], pointWidth: 1024, pointHeight: 1366, scale: 2, idiom: "pad"),
        .init(id: "ipad-pro-13-m4", models: ["iPad Pro 13\" (M4)"], pointWidth: 1032, pointHeight: 1376, scale: 2, idiom: "pad"),
        // Mac screens at their default ("looks like") size, from Apple's specifications: a 2560×1664
        // MacBook Air 13" looks like 1470×956; 3024×1964 and 3456×2234 MacBook Pros are exact 2x;
        // a 5120×2880 27" 5K display (Studio Display, iMac 27" 5K) is 2560×1440 at 2x; a 1080p
        // display (the usual GNUstep desktop) is 1x.
        .init(
            id: "macbook-air-13", models: ["MacBook Air 13\" (M2)", "MacBook Air 13\" (M3)", "MacBook Air 13\" (M4)"],
            pointWidth: 1470, pointHeight: 956, scale: 2, idiom: "mac"),
        .init(id: "macbook-pro-14", models: ["MacBook Pro 14\""], pointWidth: 1512, pointHeight: 982, scale: 2, idiom: "mac"),
        .init(id: "macbook-pro-16", models: ["MacBook Pro 16\""], pointWidth: 1728, pointHeight: 1117, scale: 2, idiom: "mac"),
        .init(id: "display-5k-27", models: ["Studio Display", "iMac 27\" (5K)"], pointWidth: 2560, pointHeight: 1440, scale: 2, idiom: "mac"),
        .init(id: "display-1080p", models: ["1080p display"], pointWidth: 1920, pointHeight: 1080, scale: 1, idiom: "mac"),
    ]

    /// The profile for a bundle when no device is given: the largest current iPhone for UIKit
    /// apps, a 14" MacBook Pro for macOS apps, a 1080p display at 1x for GNUstep apps; with the
    /// reason, for the report.
    package static func defaultFor(platform: String?, appKit: Bool) -> (profile: DeviceProfile, reason: String) {
        let platform = platform?.lowercased() ?? ""
        if platform == "gnustep" {
            return (named("display-1080p")!, "a GNUstep app: a 1080p desktop display")
        }
        if appKit || platform.contains("mac") {
            return (named("macbook-pro-14")!, "a macOS app: a 14\" MacBook Pro")
        }
        return (.default, "the largest current iPhone")
    }

    /// The largest current iPhone.
    package static let `default` = builtIn.first { $0.id == "iphone-16-17-pro-max" }!

    /// Finds a profile by id, model name or former id, ignoring case, spaces and punctuation
    /// (`iphone-16-pro-max`, `"iPhone 16 Pro Max"` and `iphone16promax` all work). A model name
    /// wins over a former id: `iphone-14` is the iPhone 14's screen, as it always was.
    package static func named(_ name: String) -> DeviceProfile? {
        let key = normalized(name)
        if let byId = builtIn.first(where: { normalized($0.id) == key }) { return byId }
        if let byModel = builtIn.first(where: { $0.models.contains { normalized($0) == key } }) { return byModel }
        return builtIn.first { $0.formerId.map(normalized) == key }
    }

    /// Why `name` names no profile, in words for an error: the nearest ids and model names
    /// (`did you mean "iPhone 15 Pro Max" (iphone-16-plus)?`), or for a family name (`ipad`) its
    /// profiles; then where the list is.
    package static func unknownNameHelp(_ name: String) -> String {
        let key = normalized(name)
        var candidates: [(text: String, profile: DeviceProfile)] = []
        for profile in builtIn {
            candidates.append((profile.id, profile))
            candidates += profile.models.map { ($0, profile) }
        }
        let family = builtIn.filter { normalized($0.id).hasPrefix(key) && key.count >= 3 }
        if !family.isEmpty, family.count > 1 {
            return "it names \(family.count) profiles: " + family.map(\.id).joined(separator: ", ") + "; `imgtrace devices` lists their models"
        }
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var previous = Array(0...b.count)
            for i in 1...max(a.count, 1) where !a.isEmpty {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in stride(from: 1, through: b.count, by: 1) {
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            return a.isEmpty ? b.count : previous[b.count]
        }
        let typed = Array(key)
        // A number typed is the model's number: "iPad Pro 13" is never the 11-inch, "iPhone 99" no phone.
        let typedNumbers = numbers(in: name)
        candidates = candidates.filter { typedNumbers.isSubset(of: numbers(in: $0.text)) }
        // A name the typed text starts is nearer than any edit ("iPad Pro 13" → "iPad Pro 13-inch (M4)").
        if let started = candidates.filter({ normalized($0.text).hasPrefix(key) && !key.isEmpty }).min(by: { $0.text.count < $1.text.count }) {
            let text = started.text == started.profile.id ? started.text : "\"\(started.text)\" (\(started.profile.id))"
            return "did you mean \(text)? `imgtrace devices` lists every profile"
        }
        let ranked = candidates.map { (candidate: $0, distance: distance(typed, Array(normalized($0.text)))) }.sorted { $0.distance < $1.distance }
        if let best = ranked.first, best.distance <= max(2, typed.count / 4) {
            let text = best.candidate.text == best.candidate.profile.id ? best.candidate.text : "\"\(best.candidate.text)\" (\(best.candidate.profile.id))"
            return "did you mean \(text)? `imgtrace devices` lists every profile"
        }
        return "`imgtrace devices` lists them"
    }

    /// The runs of digits in `text` (`ipad-pro-12.9-air-13` → 12, 9, 13).
    private static func numbers(in text: String) -> Set<String> {
        Set(text.split(whereSeparator: { !$0.isNumber }).map(String.init))
    }

    private static func normalized(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == "." }.map(Character.init))
    }
}
