// swift-tools-version:6.0
import PackageDescription

// One library target per pipeline stage (see README "Architecture"); dependencies point
// down the pipeline only. The executable is a thin shell over the libraries.
let package = Package(
    name: "imgtrace",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "imgtrace", targets: ["imgtrace"]),
        .library(name: "LaunchTrace", targets: ["LaunchTrace"]),
        .library(name: "AssetCatalog", targets: ["AssetCatalog"]),
        .library(name: "ImageHeaders", targets: ["ImageHeaders"]),
        .library(name: "AppBundle", targets: ["AppBundle"]),
        .library(name: "LaunchAudit", targets: ["LaunchAudit", "AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit"]),
        .library(name: "Reporters", targets: ["Reporters"]),
        // Loaded into the app by `imgtrace record --agent` (LD_PRELOAD) or DYLD_INSERT_LIBRARIES.
        .library(name: "ImgtraceAgent", type: .dynamic, targets: ["ImgtraceAgent"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // Parsing Swift is swift-syntax's job: a real syntax tree finds `UIImage(named:)`, asset
        // symbols and interpolated names where a regular expression guesses.
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
    ],
    targets: [
        .target(name: "ImgtraceSupport"),
        // The debugger callback's Python, compiled into the binary: `imgtrace lldb-script` needs no file beside it.
        .target(
            name: "LaunchTrace", dependencies: ["ImgtraceSupport"],
            resources: [
                "capture_common", "capture_lldb", "capture_gdb", "launch_end_lldb", "launch_end_gdb", "runtime_methods", "runtime_methods_lldb",
                "runtime_methods_gdb",
            ].map { .embedInCode("Python/\($0).py") }),
        .target(name: "AssetCatalog", dependencies: ["ImgtraceSupport"]),
        .target(name: "ImageHeaders", dependencies: ["ImgtraceSupport"]),
        .target(
            name: "AppBundle",
            dependencies: [
                "ImgtraceSupport", "AssetCatalog", "ImageHeaders",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Which target ships which file: the Xcode project (an OpenStep plist) and local packages' manifests.
        .target(
            name: "ProjectModel",
            dependencies: ["ImgtraceSupport", "CodeReferences", .product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftSyntax", package: "swift-syntax")]),
        // The audit, by concern (docs/architecture.md): what a finding and a launch's figures are;
        // the team's settings and device profiles; the rules; `unused`; and the engine over them.
        .target(name: "AuditModel", dependencies: ["ImgtraceSupport", "LaunchTrace", "AppBundle", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "AuditPolicy", dependencies: ["ImgtraceSupport", "LaunchTrace", "AppBundle", "AuditModel"]),
        .target(name: "AuditRules", dependencies: ["ImgtraceSupport", "LaunchTrace", "AppBundle", "ImageHeaders", "AuditModel", "AuditPolicy"]),
        .target(
            name: "UnusedAudit",
            dependencies: [
                "ImgtraceSupport", "AppBundle", "CodeReferences", "ProjectModel", "AuditModel", "AuditPolicy", "AuditRules",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(
            name: "LaunchAudit",
            dependencies: [
                "ImgtraceSupport", "LaunchTrace", "AppBundle", "CodeReferences", "ProjectModel", "AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit",
            ]),
        // Every build's launch, for the gate against recent builds: SQLite's own library for a
        // file (no package: the schema and its SQL are shared with PostgreSQL's), libpq loaded
        // at run time for a server (CPostgresClient), so nothing else needs it installed.
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .target(name: "CPostgresClient", path: "Sources/CPostgresClient", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .target(name: "BuildHistory", dependencies: ["ImgtraceSupport", "LaunchTrace", "AuditModel", "LaunchAudit", "CSQLite", "CPostgresClient"]),
        // The native tracer (`imgtrace record`): Linux only, on libelf/libdw and a ptrace wrapper.
        .systemLibrary(
            name: "CElfutils", path: "Sources/CElfutils", pkgConfig: "libdw",
            providers: [.apt(["libelf-dev", "libdw-dev"])]),
        .target(name: "CPtrace", path: "Sources/CPtrace"),
        // The in-process agent (C, no Swift runtime in the app) and the memory layout it shares with imgtrace.
        .target(name: "CAgentShared", path: "Sources/CAgentShared"),
        // C in the app, and nothing of Swift's: SwiftPM links every product through the Swift
        // driver, which adds libswiftCore as needed, the toolchain's runtime folder as RUNPATH and
        // its start-up object (swiftrt.o, a constructor registering the library with the runtime),
        // unless the link is Embedded Swift's, which has no runtime library. Loaded, the runtime's
        // constructors install its crash handlers in the program (SIGQUIT printed a backtrace and
        // the program ran on). `readelf -d` then lists libc and the loader only (AgentIsolationTests).
        .target(
            name: "ImgtraceAgent", dependencies: ["CAgentShared"], path: "Sources/ImgtraceAgent",
            // libgcc's unwinder, linked in (its symbols are hidden in the archive), unwinds each
            // request's stack in-process without loading a library into the program. `-z now`
            // binds the agent's own calls into libc when it loads: a lazy first call saves the
            // CPU's whole extended state (XSAVE, 11 KiB with AMX) on the calling thread's stack,
            // which a thread with the smallest stack does not have. The program's bindings stay lazy.
            linkerSettings: [
                .linkedLibrary("dl"), .linkedLibrary("gcc_eh", .when(platforms: [.linux])),
                .unsafeFlags(["-enable-experimental-feature", "Embedded"]),
                .unsafeFlags(["-Xlinker", "-z", "-Xlinker", "now"], .when(platforms: [.linux])),
            ]),
        .target(
            name: "NativeTrace",
            dependencies: [
                "ImgtraceSupport", "LaunchTrace",
                .target(name: "CElfutils", condition: .when(platforms: [.linux])),
                .target(name: "CPtrace", condition: .when(platforms: [.linux])),
                // The agent's layout and API list: `agent-path` writes the list on every platform.
                "CAgentShared",
            ]),
        // Where code asks for images: Swift through swift-syntax, Objective-C through a small lexer.
        .target(
            name: "CodeReferences",
            dependencies: [
                "ImgtraceSupport", .product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]),
        .target(
            name: "Reporters",
            dependencies: [
                "ImgtraceSupport", "LaunchTrace", "AssetCatalog", "AppBundle", "AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit", "LaunchAudit", "BuildHistory",
            ]),
        .executableTarget(
            name: "imgtrace",
            dependencies: [
                "ImgtraceSupport", "LaunchTrace", "AssetCatalog", "AppBundle", "AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit", "LaunchAudit", "Reporters",
                "NativeTrace", "BuildHistory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Each stage gets `Tests/<Stage>Tests` with its first tests (a target needs sources).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Runs the rules' examples (SwiftLint keeps its test helpers apart from its rules too).
        .target(
            name: "AuditTestSupport",
            dependencies: ["AppBundle", "AuditModel", "AuditPolicy", "AuditRules", "CodeReferences", "LaunchAudit", "LaunchTrace", "UnusedAudit"],
            path: "Tests/AuditTestSupport"),
        // Benchmarks print figures; they are never timed unit tests (scripts/bench-*.sh).
        .executableTarget(name: "CatalogBench", dependencies: ["AssetCatalog", "ImgtraceSupport", "TestSupport"], path: "Benchmarks/CatalogBench"),
        // Writes the committed example app and log (scripts/make-example.sh).
        .executableTarget(name: "ExampleMaker", dependencies: ["TestSupport"], path: "scripts/ExampleMaker"),
        // Holds function bodies to 60 lines but for a listed few (scripts/shape-exceptions.txt).
        .executableTarget(
            name: "ShapeCheck", dependencies: [.product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftSyntax", package: "swift-syntax")],
            path: "scripts/ShapeCheck"),
        // Fuzz targets for every reader (scripts/fuzz.sh); built plainly it replays Fuzz/Regressions.
        .executableTarget(
            name: "imgtrace-fuzz",
            dependencies: [
                "LaunchTrace", "AssetCatalog", "ImageHeaders", "AppBundle", "AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit", "LaunchAudit", "Reporters",
                "AuditTestSupport",
                "ImgtraceSupport", "TestSupport", "CodeReferences", "ProjectModel",
                .target(name: "NativeTrace", condition: .when(platforms: [.linux])),
                .target(name: "CAgentShared", condition: .when(platforms: [.linux])),
            ],
            path: "Fuzz/Targets"
        ),
        .testTarget(name: "LaunchTraceTests", dependencies: ["LaunchTrace", "ImgtraceSupport", "TestSupport"]),
        .testTarget(name: "AssetCatalogTests", dependencies: ["AssetCatalog", "TestSupport"]),
        .testTarget(name: "ImageHeadersTests", dependencies: ["ImageHeaders", "TestSupport"]),
        .testTarget(
            name: "AppBundleTests",
            dependencies: [
                "AppBundle", "AssetCatalog", "ImageHeaders", "ImgtraceSupport", "TestSupport", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
        // Yams (libyaml) is the reference the config's own YAML reader is checked against.
        .testTarget(
            name: "LaunchAuditTests",
            dependencies: [
                "LaunchAudit", "AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit", "AuditTestSupport", "LaunchTrace", "AppBundle", "CodeReferences", "ImgtraceSupport",
                "TestSupport",
                "ProjectModel",
                .product(name: "Yams", package: "Yams"),
                // The engine's public API is counted from its syntax tree (EngineSurfaceTests).
                .product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftSyntax", package: "swift-syntax"),
            ]),
        .testTarget(name: "BuildHistoryTests", dependencies: ["BuildHistory", "LaunchAudit", "AuditModel", "TestSupport"]),
        .testTarget(name: "ProjectModelTests", dependencies: ["ProjectModel", "ImgtraceSupport", "TestSupport"]),
        .testTarget(
            name: "CodeReferencesTests",
            dependencies: ["CodeReferences", .product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftSyntax", package: "swift-syntax")]),
        .testTarget(name: "NativeTraceTests", dependencies: ["NativeTrace", "LaunchTrace", "ImgtraceSupport", "TestSupport", "CAgentShared"]),
        .testTarget(
            name: "ReportersTests",
            dependencies: [
                "Reporters", "LaunchAudit", "AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit", "AuditTestSupport", "LaunchTrace", "ImgtraceSupport", "TestSupport",
                "AppBundle",
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["TestSupport", "Reporters", "imgtrace", "CAgentShared", "LaunchTrace", "AuditModel", "AuditPolicy", "AuditRules", "UnusedAudit", "LaunchAudit"],
            exclude: ["Golden"]),
    ]
)
