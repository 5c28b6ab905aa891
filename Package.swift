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
        // Errno and FileDescriptor.writeAll: a kept library over our own system-call code (issue 41).
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        // `swift package generate-documentation` for PDFEditKit's DocC catalogue
        // (issue 42): a command plugin only, nothing of it is linked.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The system libraries, found with pkg-config and linked as any library is.
        // poppler-glib, cairo and GLib (their pkg-config files bring cairo's and
        // GLib's): rendering, text, and GLib's Unicode tables.
        .systemLibrary(
            name: "CPoppler",
            pkgConfig: "poppler-glib",
            providers: [.apt(["libpoppler-glib-dev"])]
        ),
        // Pango over cairo (fontconfig, FreeType, HarfBuzz beneath it): text
        // stamps outside the standard fonts, shaped and embedded as subsets.
        .systemLibrary(
            name: "CPango",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]
        ),
        // fontconfig and FreeType, for QPDFCore: the widths of the standard
        // fonts a file names without /Widths, read from the metric-compatible
        // URW fonts fontconfig finds for them (redaction's interpreter).
        .systemLibrary(
            name: "CFontConfig",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev", "libfreetype-dev", "fonts-urw-base35"])]
        ),
        // libqpdf, for QPDFCore.
        .systemLibrary(
            name: "CQPDF",
            pkgConfig: "libqpdf",
            providers: [.apt(["libqpdf-dev"])]
        ),
        // The only code that talks to libqpdf: C++ over qpdf's C++ API behind the
        // extern "C" functions PDFEngine calls (include/QPDFBridge.h,
        // QPDFBridgeReader.h). See docs/ARCHITECTURE.md.
        .target(
            name: "QPDFCore",
            dependencies: ["CQPDF", "CFontConfig", "ImageCodecs"],
            cxxSettings: [.define("POINTERHOLDER_TRANSITION", to: "4")],
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("stdc++")]
        ),
        // libjpeg-turbo and libtiff, for `render`'s JPEG and TIFF files.
        .systemLibrary(
            name: "CImageCodecs",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev", "libjpeg62-turbo-dev"])]
        ),
        // The C side of those codecs: libjpeg's errors return by longjmp, which
        // Swift cannot express; libtiff's go to a handler of each file's own.
        // cairo (through CPoppler's pkg-config flags) resamples `--images`' pictures.
        .target(
            name: "ImageCodecs",
            dependencies: ["CImageCodecs", "CPoppler"],
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("tiff"), .linkedLibrary("cairo")]
        ),
        // Pure value types and editing semantics: no C, no I/O.
        .target(name: "PageModel"),
        // Everything that touches libqpdf / poppler.
        .target(
            name: "PDFEngine",
            dependencies: [
                "PageModel", "CPoppler", "CPango", "QPDFCore", "ImageCodecs", .product(name: "SystemPackage", package: "swift-system"),
            ]
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
