// swift-tools-version:6.1
// A tiny HTTP service built on PDFEditKit and Hummingbird: POST a PDF, get the
// edited PDF back. A client package as any other would be: it depends on pdfedit
// by path; `make examples` builds it with plain `swift build` and checks it.
import PackageDescription

let package = Package(
    name: "PageService",
    dependencies: [
        .package(name: "pdfedit", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(
            name: "page-service",
            dependencies: [
                .product(name: "PDFEditKit", package: "pdfedit"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
    ]
)
