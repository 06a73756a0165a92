/// What an Info.plist says about images: icons, launch images, launch screen and platform.
public struct InfoPlistFacts: Equatable, Sendable {
    public var bundleIdentifier: String?
    public var executable: String?
    /// `iphoneos`, `iphonesimulator`, `macosx`, `gnustep`, … (`DTPlatformName`, else inferred).
    public var platform: String?
    /// `UIDeviceFamily`: 1 phone, 2 pad.
    public var deviceFamily: [Int]
    /// Icon file names from `CFBundleIconFile(s)`, `CFBundleIcons(~ipad)` and GNUstep's `NSIcon`, in order, unique.
    public var iconFiles: [String]
    /// Catalog icon names: `CFBundleIconName` (primary and alternates).
    public var iconNames: [String]
    /// `UILaunchImageFile` and each `UILaunchImages` entry's name.
    public var launchImages: [String]
    public var launchStoryboard: String?
    /// `UILaunchScreen` present (possibly empty), and the image or colour it names.
    public var hasLaunchScreen: Bool
    public var launchScreenImage: String?
    public var launchScreenColor: String?
    /// `NSMainNibFile` / `UIMainStoryboardFile`.
    public var mainInterface: String?

    public init(
        bundleIdentifier: String? = nil, executable: String? = nil, platform: String? = nil,
        deviceFamily: [Int] = [], iconFiles: [String] = [], iconNames: [String] = [],
        launchImages: [String] = [], launchStoryboard: String? = nil, hasLaunchScreen: Bool = false,
        launchScreenImage: String? = nil, launchScreenColor: String? = nil, mainInterface: String? = nil
    ) {
        self.bundleIdentifier = bundleIdentifier
        self.executable = executable
        self.platform = platform
        self.deviceFamily = deviceFamily
        self.iconFiles = iconFiles
        self.iconNames = iconNames
        self.launchImages = launchImages
        self.launchStoryboard = launchStoryboard
        self.hasLaunchScreen = hasLaunchScreen
        self.launchScreenImage = launchScreenImage
        self.launchScreenColor = launchScreenColor
        self.mainInterface = mainInterface
    }

    /// Reads the facts from a parsed Info.plist (Apple's or GNUstep's `Info-gnustep.plist`).
    public init(_ plist: PlistValue) {
        self.init()
        bundleIdentifier = plist["CFBundleIdentifier"]?.string
        executable = (plist["CFBundleExecutable"] ?? plist["NSExecutable"])?.string
        platform =
            plist["DTPlatformName"]?.string
            ?? plist["CFBundleSupportedPlatforms"]?.strings.first?.lowercased()
            ?? (plist["NSExecutable"] != nil || plist["ApplicationName"] != nil ? "gnustep" : nil)
        deviceFamily = plist["UIDeviceFamily"]?.array?.compactMap { $0.integer ?? $0.string.flatMap { Int($0) } } ?? []
        var icons = OrderedNames()
        var names = OrderedNames()
        func addIcons(_ value: PlistValue?) {
            for icon in value?.strings ?? [] { icons.add(icon) }
        }
        func addIconDictionary(_ value: PlistValue?) {
            guard let value else { return }
            let primary = value["CFBundlePrimaryIcon"]
            addIcons(primary?["CFBundleIconFiles"])
            if let name = primary?["CFBundleIconName"]?.string ?? primary?.string { names.add(name) }
            for (_, alternate) in (value["CFBundleAlternateIcons"]?.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                addIcons(alternate["CFBundleIconFiles"])
                if let name = alternate["CFBundleIconName"]?.string { names.add(name) }
            }
        }
        addIcons(plist["CFBundleIconFile"])
        addIcons(plist["CFBundleIconFiles"])
        addIconDictionary(plist["CFBundleIcons"])
        addIconDictionary(plist["CFBundleIcons~ipad"])
        addIcons(plist["NSIcon"])
        addIcons(plist["ApplicationIcon"])
        if let name = plist["CFBundleIconName"]?.string { names.add(name) }
        iconFiles = icons.names
        iconNames = names.names
        var launch = OrderedNames()
        for key in ["UILaunchImageFile", "UILaunchImageFile~ipad", "UILaunchImageFile~iphone"] {
            if let name = plist[key]?.string { launch.add(name) }
        }
        for key in ["UILaunchImages", "UILaunchImages~ipad", "UILaunchImages~iphone"] {
            for entry in plist[key]?.array ?? [] {
                if let name = entry["UILaunchImageName"]?.string { launch.add(name) }
            }
        }
        launchImages = launch.names
        launchStoryboard = (plist["UILaunchStoryboardName"] ?? plist["UILaunchStoryboardName~iphone"])?.string
        if let screen = plist["UILaunchScreen"] ?? plist["UILaunchScreen~iphone"] {
            hasLaunchScreen = true
            launchScreenImage = screen["UIImageName"]?.string
            launchScreenColor = screen["UIColorName"]?.string
        }
        mainInterface = (plist["UIMainStoryboardFile"] ?? plist["NSMainNibFile"] ?? plist["NSMainStoryboardFile"])?.string
    }
}

/// Names in first-seen order without repeats; a set keeps it linear (a plist may list 100,000).
struct OrderedNames {
    private(set) var names: [String] = []
    private var seen = Set<String>()

    mutating func add(_ name: String) {
        if seen.insert(name).inserted { names.append(name) }
    }
}
