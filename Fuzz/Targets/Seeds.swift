import Foundation
import TestSupport

/// Seed inputs built with the tests' own writers: valid files of every shape a reader takes,
/// and the hostile shapes found so far, so mutation starts past the headers.
enum Seeds {
    static let smallPNG = ImageWriter.png(width: 60, height: 60)
    static let hugeJPEG = ImageWriter.jpeg(width: 4032, height: 3024)
    static let infoPlist = BinaryPlistWriter.build(
        .dict([
            ("CFBundleIdentifier", .string("com.example.fuzz")), ("CFBundleExecutable", .string("App")),
            ("CFBundleIconFiles", .array([.string("AppIcon60x60"), .string("Icon")])),
            (
                "CFBundleIcons",
                .dict([
                    (
                        "CFBundlePrimaryIcon",
                        .dict([
                            ("CFBundleIconName", .string("AppIcon")),
                            ("CFBundleIconFiles", .array([.string("AppIcon60x60")])),
                        ])
                    )
                ])
            ),
            ("UILaunchImages", .array([.dict([("UILaunchImageName", .string("Default"))])])),
            ("UIDeviceFamily", .array([.int(1), .int(2)])), ("DTPlatformName", .string("iphoneos")),
        ]))

    static func logs() -> [(name: String, bytes: [UInt8])] {
        let shapes: [(String, String)] = [
            ("lldb-po", "(lldb)  po $arg3\nAppIcon\n(lldb)  po $arg3\ntab_home\n(lldb)  po $arg3\n<nil>\n"),
            ("lldb-p-old", "(lldb)  p (char *)[(id)$arg3 UTF8String]\n(char *) $0 = 0x0000600000c8 \"tab\\\"q\\n\"\n"),
            (
                "lldb-p-new",
                "Breakpoint 1: where = UIKitCore`+[UIImage imageNamed:], address = 0x1\n(lldb)  p (const char *)[(id)$arg3 UTF8String]\n(const char *) 0x00006000 \"hero.jpg\"\n"
            ),
            ("xcode-bare", "2024-01-01 10:00:00.000 App[1:2] start\nAppIcon\ntab\n2024-01-01 10:00:00.100 App[1:2] imgtrace-launch-end\ntab\n"),
            ("gdb", "Breakpoint 1, 0x00007ffff in +[NSImage imageNamed:] ()\n$1 = 0x555555556113 \"Gridlock.tiff\"\n$2 = 0x0\n"),
            ("x-s", "0x7fffffffe000: \"common_ret\"\n0x7fffffffe000:\t\"red.tiff\"\n"),
            ("errors", "(lldb)  po $r2\nerror: <user expression 0>:1:1: use of undeclared identifier '$r2'\n$r2\n^~~\n"),
            ("timestamps", "10:00:00.123 [main] +[UIImage imageNamed:]: \"tab\"\nframe #0: 0x1 UIKitCore`+[UIImage imageNamed:]\n"),
            ("skipped", "warning: hit breakpoint while running function, skipping commands and conditions to prevent recursion\n"),
            ("mixed", "(lldb)  po $arg3\nAppIcon\n\"tab_home\"\n(char *) 0x1 \"x\"\n(lldb)  po $arg3\n"),
            ("ansi-crlf", "\u{1B}[31m(lldb)  po $arg3\u{1B}[0m\r\nAppIcon\r\r\n"),
            (
                "timed-agent",
                "2026-11-26 10:05:11.184 [prog] (code) +[UIImage imageNamed:]: \"hero\" 20.257 ms\n2026-11-26 10:05:11.186 [prog 4242] (nib) api: None 0.004 ms\n2026-11-26 10:05:11.187 [prog] (code) api: \"x 1.000 ms\" 999999999.999 ms\nimgtrace-launch-end\nimgtrace-recording-end hits=3 launch-end=reached program=exit:0 launch-ms=514\n"
            ),
        ]
        return shapes.map { ($0.0, Array($0.1.utf8)) }
    }

    static func catalogs() -> [(name: String, bytes: [UInt8])] {
        let images = [
            CatalogWriter.Image(facet: "AppIcon", name: "AppIcon60x60@3x.png", scale: 3, width: 180, height: 180),
            CatalogWriter.Image(facet: "tab", name: "tab@2x.png", scale: 2),
            CatalogWriter.Image(facet: "tab", name: "tab@3x.png", scale: 3),
            CatalogWriter.Image(facet: "hero", name: "hero.png", scale: 1, idiom: 2, width: 4000, height: 3000),
        ]
        let multisize = CatalogWriter.catalog(
            [images[0]],
            entries: { bom, entries in
                var record = Array(CatalogWriter.csi(images[0]).prefix(184))
                record.replaceSubrange(168..<172, with: le32(0))
                record.replaceSubrange(180..<184, with: le32(24))
                let value = bom.add(record + Array("SISM".utf8) + le32(0) + le32(.max) + le32(20) + le32(20) + le16(1) + le16(1))
                return entries.map { (key: $0.key, value: value) }
            })
        return [
            ("small", CatalogWriter.catalog(images)), ("deep", CatalogWriter.catalog(images + images, perNode: 2)),
            ("hostile-multisize-count", multisize),
        ]
    }

    static func images() -> [(name: String, bytes: [UInt8])] {
        [
            ("png", smallPNG), ("cgbi", ImageWriter.png(width: 120, height: 120, cgbi: true)), ("jpeg", hugeJPEG),
            ("gif", ImageWriter.gif(width: 10, height: 20)), ("tiff-le", ImageWriter.tiff(width: 30, height: 40, bigEndian: false)),
            ("tiff-be", ImageWriter.tiff(width: 30, height: 40, bigEndian: true)), ("heic", ImageWriter.heic(width: 4032, height: 3024)),
            ("svg", Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="24pt" height="2in" viewBox="0 0 24 24"></svg>"#.utf8)),
            ("pdf", Array("%PDF-1.4\n1 0 obj << /Type /Page /MediaBox [0 0 612.5 792] >>".utf8)),
            ("bmp", [0x42, 0x4D] + [UInt8](repeating: 0, count: 12) + le32(40) + le32(16) + le32(UInt32(bitPattern: -16)) + le16(1) + le16(32)),
            ("hostile-png-4294967295", ImageWriter.png(width: .max, height: .max)),
            ("hostile-heif-two-ispe", hostileHEIF),
            ("hostile-svg-1e300", Array(#"<svg width="1e300" height="inf" viewBox="0 0 1e300 nan"/>"#.utf8)),
            ("webp", Array("RIFF".utf8) + le32(30) + Array("WEBPVP8X".utf8) + le32(10) + [0, 0, 0, 0] + [99, 0, 0, 49, 0, 0]),
        ]
    }

    static let hostileHEIF: [UInt8] = {
        let ispe = ImageWriter.box("ispe", [0, 0, 0, 0] + be32(.max) + be32(.max))
        let meta = ImageWriter.box("meta", [0, 0, 0, 0] + ImageWriter.box("iprp", ImageWriter.box("ipco", ispe + ispe)))
        return ImageWriter.box("ftyp", Array("heic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)) + meta
    }()

    static func binaryPlists() -> [(name: String, bytes: [UInt8])] {
        [
            ("info", infoPlist), ("keyed-nib", BinaryPlistWriter.keyedNib(images: ["tab", "hero"])),
            ("wide-refs", BinaryPlistWriter.build([.array([1, 2]), .string("a"), .int(7)], refSize: 8)),
            ("hostile-count-2e62", BinaryPlistWriter.build([.lyingArray(count: 1 << 62, refs: [0])], refSize: 8)),
            ("hostile-negative-ref", BinaryPlistWriter.build([.array([0x8000_0000_0000_0000]), .string("x")], refSize: 8)),
            ("hostile-self", BinaryPlistWriter.build([.array([0])])),
        ]
    }

    static func textPlists() -> [(name: String, bytes: [UInt8])] {
        [
            (
                "xml",
                Array(
                    #"""
                    <?xml version="1.0" encoding="UTF-8"?>
                    <plist version="1.0"><dict><key>CFBundleIconFiles</key><array><string>Icon</string></array>
                    <key>UIDeviceFamily</key><array><integer>1</integer></array><key>X</key><real>1.5</real><key>D</key><data>AAEC</data></dict></plist>
                    """#.utf8)
            ),
            ("openstep", Array(#"{ ApplicationName = Gridlock; NSIcon = "Gridlock.tiff"; NSTypes = ( { NSIcon = a.tiff; } ); }"#.utf8)),
        ]
    }

    static func nibs() -> [(name: String, bytes: [UInt8])] {
        [
            ("nibarchive", NibWriter.nib(imageNames: ["tab", "hero.jpg", "ünïcode"])), ("keyed", BinaryPlistWriter.keyedNib(images: ["logo"])),
            (
                "hostile-uid-self",
                BinaryPlistWriter.build(
                    .dict([
                        (
                            "$objects",
                            .array([
                                .string("$null"), .dict([("$class", .uid(2)), ("UIResourceName", .uid(3))]),
                                .dict([("$classname", .string("UIImageNibPlaceholder"))]), .dict([("NS.string", .uid(3))]),
                            ])
                        )
                    ]))
            ),
        ]
    }

    /// Contents.json files and Interface Builder documents, for `--source-root`.
    static func sourceTexts() -> [(name: String, bytes: [UInt8])] {
        let xib = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0">
                <imageView image="logo&amp;x" id="a"/>
                <state key="normal" image="tab" backgroundImage="bg&#x41;"/>
                <resources><image name="logo" width="10" height="10"/></resources>
            </document>
            """
        return contentsJSON() + [("xib", Array(xib.utf8)), ("open-attribute", Array("<a image=\"x".utf8))]
    }

    static func contentsJSON() -> [(name: String, bytes: [UInt8])] {
        [
            (
                "imageset",
                Array(
                    #"""
                    {"images":[{"idiom":"universal","filename":"a.png","scale":"2x"},{"idiom":"iphone","scale":"3x"},
                    {"idiom":"universal","filename":"a.png","scale":"1x","appearances":[{"appearance":"luminosity","value":"dark"}]},
                    {"idiom":"ipad","filename":"b.pdf","scale":"1x"}],"info":{"version":1,"author":"xcode"},
                    "properties":{"preserves-vector-representation":true,"template-rendering-intent":"template"}}
                    """#.utf8)
            ), ("hostile-scales", hostileScales),
        ]
    }

    static let hostileScales = Array(#"{"images":[{"idiom":"universal","filename":"a.png","scale":"3037000500x"},{"filename":"a.png","scale":"-9223372036854775807x"}]}"#.utf8)

    static func zips() -> [(name: String, bytes: [UInt8])] {
        [
            (
                "ipa",
                ZipWriter.zip(
                    [
                        ("Payload/App.app/Info.plist", infoPlist), ("Payload/App.app/tab@2x.png", smallPNG),
                        ("Payload/App.app/Assets.car", catalogs()[0].bytes),
                    ], links: [("Payload/App.app/link.png", "tab@2x.png")])
            ),
            ("hostile-zip64", ZipWriter.zip([ZipWriter.Entry(path: "Payload/App.app/a.png", bytes: smallPNG, zip64: (.max, 100))])),
            ("hostile-link-4gib", ZipWriter.zip([ZipWriter.Entry(path: "Payload/App.app/b.png", bytes: Array("a.png".utf8), isSymlink: true, claimedSize: .max)])),
        ]
    }

    static func configs() -> [(name: String, bytes: [UInt8])] {
        [
            (
                "full",
                Array(
                    """
                    device: iphone-se
                    launchEnd: "viewDidAppear"
                    failOn: warning
                    thresholds:
                      repeatedLoadWarning: 10
                      largeFileBytes: 500000
                    budgets:
                      maxLaunchImages: 40
                      maxLaunchDecodedBytes: 52428800
                    ignore:
                      names: ["placeholder", "debug_*"]
                      rules: [loose-image]
                    severity:
                      large-file: warning
                    baseline:
                      launchDecodedBytes: 0.05
                      launchImages: 0
                    """.utf8)
            )
        ]
    }

    static func baselines() -> [(name: String, bytes: [UInt8])] {
        [
            (
                "baseline",
                Array(
                    """
                    {"schemaVersion":1,"kind":"imgtrace-baseline","device":"iphone-17-pro-max",
                    "launch":{"loads":3,"names":2,"images":2,"decodedBytes":1000,"bytesOnDisk":200,"missing":0,"repeated":1,"unreadable":0,"largestImageDecodedBytes":800},
                    "findings":[{"fingerprint":"0123456789abcdef","rule":"repeated-load","severity":"note","message":"x"}]}
                    """.utf8)
            )
        ]
    }

    static func strings() -> [(name: String, bytes: [UInt8])] {
        [("nsmapping", Array("/* GNUstep */\nNSMenuArrow = GSMenuArrow;\n\"NSMenuCheckmark\" = \"common_2DCheckMark\"; // x\n".utf8))]
    }

    /// Project files: a classic target, a synchronized folder with an exception set, a package.
    static func projects() -> [(name: String, bytes: [UInt8])] {
        var writer = ProjectWriter()
        let app = writer.newID()
        let logo = writer.file("logo.png")
        let variant = writer.add("PBXVariantGroup", [("children", .list([writer.file("Base.lproj/Main.storyboard")])), ("name", "Main")])
        _ = writer.group("App", children: [logo, variant, writer.file("Assets.xcassets", type: "folder.assetcatalog")], topLevel: true)
        let folder = writer.synchronizedFolder("Widget", exceptions: [writer.exceptionSet(target: app, files: ["Info.plist", "/Localized/x.strings"])])
        let package = writer.localPackageProduct("Packages/Kit", product: "Kit")
        writer.target("App", id: app, resources: [logo, variant], synchronized: [folder], packages: [package])
        writer.target("Tests", productType: "com.apple.product-type.bundle.unit-test")
        return [
            ("project", Array(writer.render().utf8)),
            ("escapes", Array(#"// !$*UTF8*$!\#n{ a = "q\"\U00e9\101\n"; b = <0aFF>; c = ( x, "y z", ); /* c */ d = {}; }"#.utf8)),
        ]
    }

    /// Package manifests: resources every way SwiftPM declares them, and the nesting the parser pays most for.
    static func manifests() -> [(name: String, bytes: [UInt8])] {
        [
            (
                "package",
                Array(
                    #"""
                    // swift-tools-version:5.9
                    import PackageDescription
                    let package = Package(name: "Kit", products: [.library(name: "Kit", targets: ["Kit"])],
                        targets: [.target(name: "Kit", path: "Src/Kit", resources: [.process("Media"), .copy("Fonts/a.ttf"), .embedInCode("x.json")]),
                                  .executableTarget(name: "Tool"), .testTarget(name: "KitTests", resources: [.copy("Fixtures")])])
                    """#.utf8)
            ),
            ("nested", Array((#"let package = Package(name: "N", targets: [.target(name: "N", resources: "# + String(repeating: "[", count: 20)).utf8)),
        ]
    }

    /// Workspace files: groups of every location kind, nested.
    static func workspaces() -> [(name: String, bytes: [UInt8])] {
        [
            (
                "groups",
                Array(
                    #"<?xml version="1.0"?><Workspace version = "1.0"><Group location = "container:Modules" name = "M"><FileRef location = "group:Core/Core.xcodeproj"/><Group location = "group:F"><FileRef location = "group:&quot;x&amp;.xcodeproj"></FileRef></Group></Group><FileRef location = "absolute:/a/B.xcodeproj"/></Workspace>"#
                        .utf8)
            )
        ]
    }

    /// Source files that name images every way the scanners read.
    static func code() -> [(name: String, bytes: [UInt8])] {
        [
            ("swift", Array(#"let a = UIImage(named: "tab"); let b = Image(.hero); let c = "icon-\(x)"; let d = #imageLiteral(resourceName: "lit")"#.utf8)),
            ("objc", Array(#"x = [UIImage imageNamed:@"tab\"q"]; y = [NSString stringWithFormat:@"flag_%@", c]; /* @"c" */ char z = '"';"#.utf8)),
            ("plist", Array("<?xml version=\"1.0\"?><plist><dict><key>icon</key><string>tab&amp;&#x41;</string></dict></plist>".utf8)),
            ("json", Array(#"{"icon": "tab\u0041", "list": ["hero", "a\"b"]}"#.utf8)),
            // Where a lexer that knows only `"…"` loses the nesting of `[` (issue 40): a quote in
            // a block comment, a raw string ending in a backslash, brackets in an interpolation,
            // a regex literal holding a quote; and shapes of nesting the parser pays most for.
            ("comment-quote", Array(("/* \" */ let a = U" + String(repeating: "[", count: 24)).utf8)),
            ("raw-backslash", Array((##"let s = #"\"#; let a = U"## + String(repeating: "[", count: 24)).utf8)),
            ("interpolation", Array(("let s = \"\\(" + String(repeating: "[", count: 24) + ")\"").utf8)),
            ("regex-quote", Array(("let r = /\"/; let a = U" + String(repeating: "[", count: 24)).utf8)),
            ("tuple-types", Array(("let a = " + String(repeating: "[(A, ", count: 12) + "\n").utf8)),
            ("closed-lines", Array(String(repeating: "let a = " + String(repeating: "[(", count: 9) + "x" + String(repeating: ")]", count: 9) + "\n", count: 60).utf8)),
        ]
    }
}
