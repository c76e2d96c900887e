// swift-tools-version: 6.1
import Foundation
import PackageDescription

// `Tests/Fuzz/build.sh` sets GALLERYKIT_FUZZING=1: GalleryKit and the fuzz binary are then built
// with libFuzzer's coverage and AddressSanitizer, and everything else as in a plain build, so
// that the instrumented build reuses the dependencies the plain one compiled (instrumenting every
// package took CI 15 minutes).
let isFuzzing = ProcessInfo.processInfo.environment["GALLERYKIT_FUZZING"] == "1"
let instrumentedForFuzzing: [SwiftSetting] = isFuzzing ? [.unsafeFlags(["-sanitize=fuzzer,address"])] : []

let package = Package(
    name: "GalleryKit",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "GalleryKit", targets: ["GalleryKit"]),
        .executable(name: "gallery", targets: ["gallery"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `gallery serve`; without the swift-configuration trait, which nothing here reads.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation`: the DocC catalog in Sources/GalleryKit/GalleryKit.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"]), .brew(["vips"])]
        ),
        // libvips' API is variadic (NULL-terminated option lists); Swift cannot call those. The
        // shim loads libvips with dlopen when first needed, so it does not build against CVips.
        .target(name: "CVipsShim"),
        .target(
            name: "GalleryKit",
            dependencies: [
                "CArchive",
                "CVipsShim",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // The HTML export's page, style sheets and scripts (the image viewer's among them),
            // filled in by `HTMLExporter`; inside the program, so that a copy of it alone works.
            resources: [
                "index.html", "item.html", "failed-item.html", "gallery.css", "gallery.js",
                // Shared with gallery serve's page (`PageAssets`).
                "viewer.css", "frames.js", "grid.js", "image-requests.js", "image-sizes.js", "viewer-layout.js", "viewer-ui.js",
                "viewer-strip.js",
                "viewer-zoom.js",
                "viewer-pager.js", "viewer.js",
            ].map { .embedInCode("Export/Templates/html/\($0)") },
            swiftSettings: instrumentedForFuzzing
        ),
        // The web app of `gallery serve`: routing, authentication and encoding over GalleryKit.
        .target(
            name: "GalleryServer",
            dependencies: [
                "GalleryKit",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // The app's pages, style sheet and scripts, inside the program as GalleryKit's are.
            resources: [
                "browser.html", "gallery.html", "app.css", "common.js", "browser.js", "reorder.js",
                "gallery-state.js", "gallery-grid.js", "gallery-images.js", "gallery-load.js", "gallery-anchor.js",
                "gallery-selection.js", "gallery-edits.js", "gallery-drag.js", "gallery-touch.js", "gallery-keys.js",
                "gallery-text.js", "gallery-controls.js", "gallery-viewer.js", "gallery-info.js", "gallery.js",
            ].map { .embedInCode("Site/\($0)") }
        ),
        .executableTarget(
            name: "gallery",
            dependencies: [
                "GalleryKit",
                "GalleryServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Builders for the tests' own inputs: temporary folders, sample images, raw (hostile) zips.
        .target(
            name: "GalleryTestSupport",
            dependencies: ["CArchive", .product(name: "Crypto", package: "swift-crypto")],
            path: "Tests/GalleryTestSupport",
            exclude: ["image_server.py"]
        ),
        // The shim's declarations of the libvips API, compiled against libvips' headers.
        .target(
            name: "CVipsAPICheck",
            dependencies: ["CVips"],
            path: "Tests/CVipsAPICheck"
        ),
        .testTarget(
            name: "GalleryKitTests",
            dependencies: [
                "GalleryKit",
                "CVipsAPICheck",
                "GalleryTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "GalleryServerTests",
            dependencies: [
                "GalleryServer",
                "GalleryTestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "GalleryCLITests",
            dependencies: ["gallery", "gallery-fuzz", "GalleryTestSupport"]
        ),
        // libFuzzer targets for the readers; a plain build replays inputs (Tests/Fuzz/README.md).
        .executableTarget(
            name: "gallery-fuzz",
            dependencies: ["GalleryKit"],
            path: "Tests/Fuzz/GalleryFuzz",
            swiftSettings: instrumentedForFuzzing + (isFuzzing ? [.define("FUZZING")] : []),
            // The binary's main hands over to libFuzzer's driver (SwiftPM's renamed entry point
            // stands in for libFuzzer's own main), looking it up with dlsym: hence the export.
            linkerSettings: isFuzzing
                ? [.unsafeFlags(["-sanitize=fuzzer,address", "-Xlinker", "--export-dynamic-symbol=LLVMFuzzerRunDriver"])] : []
        ),
        .executableTarget(name: "gallery-layout-benchmark", dependencies: ["GalleryKit"], path: "Tests/Benchmarks/LayoutBenchmark"),
    ],
    swiftLanguageModes: [.v6]
)
