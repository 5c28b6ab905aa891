// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "pdfedit",
    products: [
        .executable(name: "pdfedit", targets: ["pdfedit"]),
        // The Document Editor for Swift programs: open, edit with undo, export (see PDFEditKit.docc).
        .library(name: "PDFEditKit", targets: ["PDFEditKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        // C libraries, wrapped once by PDFEngine.
        // poppler-glib, cairo and GLib, loaded with dlopen on first use (Loader.c):
        // the functions pdfedit calls, declared and forwarded by
        // scripts/render-loader.py, so commands that never render start without them.
        .target(
            name: "CPoppler",
            linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread")]
        ),
        // The only code that talks to libqpdf: C++ behind extern "C" functions (docs/ARCHITECTURE.md).
        .target(
            name: "QPDFBridge",
            cxxSettings: [.define("POINTERHOLDER_TRANSITION", to: "4")],
            linkerSettings: [.linkedLibrary("qpdf"), .linkedLibrary("stdc++")]
        ),
        // Pure value types and editing semantics: no C, no I/O.
        .target(name: "PageModel"),
        // Everything that touches libqpdf / poppler.
        .target(
            name: "PDFEngine",
            dependencies: ["PageModel", "CPoppler", "QPDFBridge"]
        ),
        // Use cases: load session, apply edit, save; export; info.
        .target(
            name: "PDFEditKit",
            dependencies: ["PageModel", "PDFEngine"]
        ),
        .executableTarget(
            name: "pdfedit",
            dependencies: [
                "PDFEditKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // A program that uses the kit as a client would: `import PDFEditKit` only (run by `make test`).
        .executableTarget(
            name: "reorder-example",
            dependencies: ["PDFEditKit"],
            path: "Examples/ReorderPDF"
        ),
        .testTarget(
            name: "PageModelTests",
            dependencies: [
                "PageModel",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "PDFEngineTests",
            dependencies: [
                "PDFEngine", "PDFEditKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "PDFEditKitTests",
            dependencies: [
                "PDFEditKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The command line's parsing, on the pdfedit module itself (@testable).
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["pdfedit", "PDFEditKit"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [],
            exclude: ["Snapshots"]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
