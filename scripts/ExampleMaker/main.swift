// Writes Examples/: a small iOS app bundle (loose PNGs with scale variants, a JPEG, an Assets.car,
// an Info.plist, a compiled nib), the Xcode console log of one launch, built so that every
// imgtrace rule fires at least once, and the app's source tree (an asset catalog with a dark
// variant, loose images, a xib and a storyboard) for `--source-root`. Run through
// scripts/make-example.sh; the output is committed.
import Foundation
import TestSupport

let root = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Examples"
let app = root + "/SampleApp.app"
let fm = FileManager.default
let source = root + "/SampleSource"
try? fm.removeItem(atPath: app)
try? fm.removeItem(atPath: source)
try fm.createDirectory(atPath: app, withIntermediateDirectories: true)

func write(_ bytes: [UInt8], _ path: String, in folder: String = app) throws {
    let url = URL(fileURLWithPath: folder + "/" + path)
    try fm.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: url)
}

/// A PNG header whose bytes differ per name, so only deliberate copies share a digest.
func png(_ width: UInt32, _ height: UInt32, _ tag: String) -> [UInt8] {
    ImageWriter.png(width: width, height: height, extra: [ImageWriter.pngChunk("tEXt", Array("Title\u{0}\(tag)".utf8))])
}

let info = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>CFBundleIdentifier</key>
    \t<string>com.example.sample</string>
    \t<key>CFBundleExecutable</key>
    \t<string>Sample</string>
    \t<key>CFBundleIconName</key>
    \t<string>AppIcon</string>
    \t<key>DTPlatformName</key>
    \t<string>iphoneos</string>
    \t<key>UIDeviceFamily</key>
    \t<array>
    \t\t<integer>1</integer>
    \t\t<integer>2</integer>
    \t</array>
    \t<key>UILaunchStoryboardName</key>
    \t<string>LaunchScreen</string>
    \t<key>UIMainStoryboardFile</key>
    \t<string>Main</string>
    </dict>
    </plist>

    """
try write(Array(info.utf8), "Info.plist")
try write(Array("placeholder executable\n".utf8), "Sample")

// Loose files: scale pairs, a lone @2x, an identical pair under two names, a big JPEG, localised copies.
try write(png(50, 50, "tab_home 2x"), "tab_home@2x.png")
try write(png(75, 75, "tab_home 3x"), "tab_home@3x.png")
try write(png(50, 50, "tab_search 2x"), "tab_search@2x.png")
try write(png(50, 50, "tab_profile 2x"), "tab_profile@2x.png")
try write(png(75, 75, "tab_profile 3x"), "tab_profile@3x.png")
let star = png(66, 66, "star")
try write(star, "star@3x.png")
try write(star, "favorite@3x.png")
try write(png(80, 80, "placeholder 2x"), "placeholder@2x.png")
try write(png(120, 120, "placeholder 3x"), "placeholder@3x.png")
try write(png(780, 1688, "onboarding 2x"), "onboarding_step1@2x.png")
try write(png(1170, 2532, "onboarding 3x"), "onboarding_step1@3x.png")
try write(png(900, 300, "welcome en"), "en.lproj/welcome@3x.png")
try write(png(900, 300, "welcome fr"), "fr.lproj/welcome@3x.png")
try write(png(87, 87, "icon_settings"), "icon_settings@3x.png")
// A 12-megapixel photo: the header is real, the rest is padding standing in for its 700 KB of data.
try write(ImageWriter.jpeg(width: 4032, height: 3024) + [UInt8](repeating: 0, count: 700_000), "hero_banner.jpg")
try write(Array("Bud1".utf8) + [UInt8](repeating: 0, count: 60), ".DS_Store")
try write(NibWriter.nib(imageNames: ["tab_home", "tab_search"]), "HomeViewController.nib")

// The compiled asset catalog (idiom 0 universal, 1 phone).
try write(
    CatalogWriter.catalog([
        .init(facet: "AppIcon", name: "AppIcon60x60@2x.png", scale: 2, idiom: 1, width: 120, height: 120),
        .init(facet: "AppIcon", name: "AppIcon60x60@3x.png", scale: 3, idiom: 1, width: 180, height: 180),
        .init(facet: "LaunchBackground", name: "launch_background@3x.png", scale: 3, idiom: 0, width: 1290, height: 2796),
        .init(facet: "logo", name: "logo@2x.png", scale: 2, idiom: 0, width: 240, height: 80),
        .init(facet: "logo", name: "logo@3x.png", scale: 3, idiom: 0, width: 360, height: 120),
        .init(facet: "avatar_default", name: "avatar_default@2x.png", scale: 2, idiom: 0, width: 88, height: 88),
        .init(facet: "avatar_default", name: "avatar_default@3x.png", scale: 3, idiom: 0, width: 132, height: 132),
        .init(facet: "promo_banner", name: "promo_banner@3x.png", scale: 3, idiom: 0, width: 3600, height: 1200),
        // Named by the Swift but not loaded at launch (`unused`: never-loaded), and named by nothing (unused-image).
        .init(facet: "empty_state", name: "empty_state@2x.png", scale: 2, idiom: 0, width: 240, height: 240),
        .init(facet: "empty_state", name: "empty_state@3x.png", scale: 3, idiom: 0, width: 360, height: 360),
        .init(facet: "old_splash", name: "old_splash@2x.png", scale: 2, idiom: 0, width: 780, height: 1688),
        .init(facet: "old_splash", name: "old_splash@3x.png", scale: 3, idiom: 0, width: 1170, height: 2532),
    ]), "Assets.car")

// The source tree the app was built from, as Xcode lays it out: what `--source-root` maps findings to.
let project = "SampleApp/"
func slot(_ file: String?, scale: String?, idiom: String = "universal", dark: Bool = false) -> String {
    var fields: [String] = []
    if dark { fields.append("      \"appearances\" : [\n        {\n          \"appearance\" : \"luminosity\",\n          \"value\" : \"dark\"\n        }\n      ]") }
    if let file { fields.append("      \"filename\" : \"\(file)\"") }
    fields.append("      \"idiom\" : \"\(idiom)\"")
    if let scale { fields.append("      \"scale\" : \"\(scale)\"") }
    return "    {\n" + fields.joined(separator: ",\n") + "\n    }"
}
func imageSet(_ name: String, _ slots: [(file: String?, scale: String?, dark: Bool)], kind: String = "imageset") throws {
    let folder = project + "Assets.xcassets/\(name).\(kind)/"
    let images = slots.map { slot($0.file, scale: $0.scale, dark: $0.dark) }.joined(separator: ",\n")
    let json = "{\n  \"images\" : [\n\(images)\n  ],\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n"
    try write(Array(json.utf8), folder + "Contents.json", in: source)
    for case let file? in slots.map(\.file) { try write(png(40, 40, "\(name) \(file)"), folder + file, in: source) }
}
try write(Array("{\n  \"info\" : {\n    \"author\" : \"xcode\",\n    \"version\" : 1\n  }\n}\n".utf8), project + "Assets.xcassets/Contents.json", in: source)
try imageSet("AppIcon", [("AppIcon-1024.png", nil, false)], kind: "appiconset")
try imageSet("LaunchBackground", [(nil, "1x", false), (nil, "2x", false), ("launch_background@3x.png", "3x", false)])
try imageSet("logo", [(nil, "1x", false), ("logo@2x.png", "2x", false), ("logo@3x.png", "3x", false), ("logo-dark@3x.png", "3x", true)])
try imageSet("avatar_default", [(nil, "1x", false), ("avatar_default@2x.png", "2x", false), ("avatar_default@3x.png", "3x", false)])
try imageSet("promo_banner", [(nil, "1x", false), (nil, "2x", false), ("promo_banner@3x.png", "3x", false)])
try imageSet("empty_state", [(nil, "1x", false), ("empty_state@2x.png", "2x", false), ("empty_state@3x.png", "3x", false)])
try imageSet("old_splash", [(nil, "1x", false), ("old_splash@2x.png", "2x", false), ("old_splash@3x.png", "3x", false)])
for file in [
    "tab_home@2x.png", "tab_home@3x.png", "tab_search@2x.png", "tab_profile@2x.png", "tab_profile@3x.png", "star@3x.png",
    "favorite@3x.png", "placeholder@2x.png", "placeholder@3x.png", "onboarding_step1@2x.png", "onboarding_step1@3x.png",
    "icon_settings@3x.png", "hero_banner.jpg",
] {
    try write(png(40, 40, file), project + "Images/" + file, in: source)
}
try write(png(40, 40, "welcome en"), project + "Resources/en.lproj/welcome@3x.png", in: source)
try write(png(40, 40, "welcome fr"), project + "Resources/fr.lproj/welcome@3x.png", in: source)
let xib = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="22505">
        <objects>
            <view contentMode="scaleToFill" id="iN0-l3-epB">
                <subviews>
                    <button opaque="NO" contentMode="scaleToFill" id="b1">
                        <state key="normal" image="tab_home"/>
                    </button>
                    <button opaque="NO" contentMode="scaleToFill" id="b2">
                        <state key="normal" image="tab_search" backgroundImage="placeholder"/>
                    </button>
                </subviews>
            </view>
        </objects>
        <resources>
            <image name="tab_home" width="25" height="25"/>
            <image name="tab_search" width="25" height="25"/>
        </resources>
    </document>

    """
try write(Array(xib.utf8), project + "HomeViewController.xib", in: source)
let storyboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="22505">
        <scenes>
            <scene sceneID="s1">
                <objects>
                    <viewController id="v1" customClass="PhotoViewController" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="v2">
                            <subviews>
                                <imageView clipsSubviews="YES" contentMode="scaleAspectFill" image="photo_of_the_day" id="i1"/>
                            </subviews>
                        </view>
                    </viewController>
                </objects>
            </scene>
        </scenes>
    </document>

    """
try write(Array(storyboard.utf8), project + "Base.lproj/Main.storyboard", in: source)

// The code that asks for the images (Swift and Objective-C), so findings point at their lines.
let swiftSource = """
    import UIKit

    final class FeedViewController: UIViewController {
        private let hero = UIImageView()

        override func viewDidLoad() {
            super.viewDidLoad()
            tabBarItem.image = UIImage(named: "Tab_Profile")
            hero.image = UIImage(named: "hero_banner.jpg")
        }

        func configure(_ cell: UITableViewCell) {
            // One lookup per cell: the repeated-load finding points here.
            cell.imageView?.image = UIImage(named: "placeholder")
        }

        func showEmptyFeed() {
            hero.image = UIImage(named: "empty_state")
        }
    }

    """
try write(Array(swiftSource.utf8), project + "FeedViewController.swift", in: source)
let objcSource = """
    #import <UIKit/UIKit.h>

    @implementation SettingsViewController

    - (void)viewDidAppear:(BOOL)animated {
        [super viewDidAppear:animated];
        self.iconView.image = [UIImage imageNamed:@"icon_settings"];
    }

    - (UIImage *)onboardingImage:(NSInteger)step {
        NSString *name = [NSString stringWithFormat:@"onboarding_step%ld@3x.png", (long)step];
        return [UIImage imageWithContentsOfFile:[[NSBundle mainBundle] pathForResource:name ofType:nil]];
    }

    @end

    """
try write(Array(objcSource.utf8), project + "SettingsViewController.m", in: source)

// The launch as Xcode's console shows it: `po $arg3` output without echoes, between the app's own log lines.
let bundlePath = "/private/var/containers/Bundle/Application/5C3A9E1B-1F2D-4B6A-9E0C-7A8B9C0D1E2F/SampleApp.app"
func appLog(_ time: String, _ message: String) -> String { "2026-11-21 09:14:\(time)+0100 Sample[4242:118204] \(message)" }
let log =
    [
        appLog("02.118204", "application:didFinishLaunchingWithOptions:"),
        "AppIcon",
        "LaunchBackground",
        "logo",
        "tab_home",
        "tab_search",
        "tab_profile.png",
        "Tab_Profile",
        appLog("02.301877", "[Feed] HomeViewController viewDidLoad"),
        "hero_banner.jpg",
        "promo_banner",
        "star",
        "favorite",
        appLog("02.330001", "[Feed] configuring cell 0"),
        "placeholder",
        appLog("02.330120", "[Feed] configuring cell 1"),
        "placeholder",
        appLog("02.330245", "[Feed] configuring cell 2"),
        "placeholder",
        bundlePath + "/onboarding_step1@3x.png",
        bundlePath + "/onboarding_step1@3x.png",
        "<nil>",
        appLog("02.355120", "[framework] CUICatalog: Invalid asset name supplied: '(null)'"),
        "welcome",
        "avatar_default",
        "warning: hit breakpoint while running function, skipping commands and conditions to prevent recursion",
        "photo_of_the_day",
        "imgtrace-launch-end",
        appLog("03.010442", "[Settings] SettingsViewController viewDidAppear:"),
        "icon_settings",
        "placeholder",
    ].joined(separator: "\n") + "\n"
try Data(log.utf8).write(to: URL(fileURLWithPath: root + "/launch.log"))
print("wrote \(app), \(source) and \(root)/launch.log")
