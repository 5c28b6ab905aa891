// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "pdfedit",
    products: [
        .executable(name: "pdfedit", targets: ["pdfedit"]),
        // The Document Editor for Swift programs: open, edit with undo, export (see PDFEditKit.docc).
        // QPDFCore is linked into the program that uses the kit (the pdfedit command
        // alone loads it on first use, as libpdfedit-qpdf.so: scripts/link-qpdf-core.sh).
        .library(name: "PDFEditKit", targets: ["PDFEditKit", "QPDFCore"]),
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
        // The extern "C" functions PDFEngine calls to reach libqpdf (include/), and
        // what stands in for them where QPDFCore is not linked in: in the pdfedit
        // command, forwarders that load libpdfedit-qpdf.so (QPDFCore) on first use
        // (Loader.c), so that commands that never open a PDF start without libqpdf
        // and its dozen libraries. C++'s operator new and delete for the whole
        // process (Allocator.cpp). See docs/ARCHITECTURE.md.
        .target(
            name: "QPDFBridge",
            linkerSettings: [.linkedLibrary("dl"), .linkedLibrary("pthread"), .linkedLibrary("stdc++")]
        ),
        // The only code that talks to libqpdf: C++ behind QPDFBridge's functions.
        // Linked into the tests and the kit's users; the pdfedit command loads it
        // as a shared library (scripts/link-qpdf-core.sh links it from these objects).
        .target(
            name: "QPDFCore",
            dependencies: ["QPDFBridge"],
            cxxSettings: [.define("POINTERHOLDER_TRANSITION", to: "4")],
            linkerSettings: [.linkedLibrary("qpdf"), .linkedLibrary("z"), .linkedLibrary("stdc++")]
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
            dependencies: ["PDFEditKit", "QPDFCore"],
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
                "PDFEngine", "PDFEditKit", "QPDFCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "PDFEditKitTests",
            dependencies: [
                "PDFEditKit", "QPDFCore",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // The command line's parsing, on the pdfedit module itself (@testable).
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["pdfedit", "PDFEditKit", "QPDFCore"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [],
            exclude: ["Snapshots"]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
