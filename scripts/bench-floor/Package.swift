// swift-tools-version:6.1
// The floor of `make bench`'s small-file rows: the least program that makes the
// edit with pdfedit's stack (Swift with its runtime linked statically,
// FoundationEssentials, swift-argument-parser, libqpdf) and nothing of pdfedit's
// own. Built and timed by scripts/benchlib/small.py; not part of pdfedit.
import PackageDescription

let package = Package(
    name: "bench-floor",
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        .systemLibrary(name: "CQPDFFloor"),
        .executableTarget(
            name: "floor",
            dependencies: ["CQPDFFloor", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
    ]
)
