// swift-tools-version:6.1
// The floors of `make bench`'s small-file rows: the least programs that make the
// edit with pdfedit's stack and nothing of pdfedit's own. `floor` parses its
// arguments with swift-argument-parser (which brings FoundationEssentials), as
// pdfedit does; `floor-bare` reads CommandLine.arguments itself and links neither,
// so the two tell what the parser costs. Both make the edit through FloorEdit
// (libqpdf's C API) and link the Swift runtime statically. Built and timed by
// scripts/benchlib/small.py; not part of pdfedit.
import PackageDescription

let package = Package(
    name: "bench-floor",
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(name: "CQPDFFloor"),
        .target(name: "FloorEdit", dependencies: ["CQPDFFloor"]),
        .executableTarget(
            name: "floor",
            dependencies: ["FloorEdit", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(name: "floor-bare", dependencies: ["FloorEdit"]),
    ]
)
