// swift-tools-version:6.1
// A client of PDFEditKit as any other package would be: it depends on pdfedit by
// path (a package elsewhere would name its URL and a version) and imports
// PDFEditKit only. `make examples` builds it with plain `swift build` and runs it.
import PackageDescription

let package = Package(
    name: "ReorderPDF",
    dependencies: [
        .package(name: "pdfedit", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "reorder-example",
            dependencies: [.product(name: "PDFEditKit", package: "pdfedit")]
        ),
    ]
)
