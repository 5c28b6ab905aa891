#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// An image file read and parsed (not decoded): what both `inspect` and `writePDF`
/// start from.
enum ParsedImage {
    case jpeg(JPEGImage)
    case png(PNGImage)

    var facts: ImageFacts {
        switch self {
        case .jpeg(let image): return image.facts
        case .png(let image): return image.facts
        }
    }

    /// Reads `path` whole and parses it by its signature (never its name), then
    /// checks its declared size against `ImagePage.maximumSide` and
    /// `maximumPixels`, before any pixel is decoded.
    static func read(_ path: String, maximumPixels: Int) throws(EngineError) -> ParsedImage {
        let bytes = try readFile(path)
        let image: ParsedImage
        switch try SourceLoader.kind(ofHead: Array(bytes.prefix(1024)), file: path) {
        case .jpeg: image = .jpeg(try JPEGImage(bytes: bytes, file: path))
        case .png: image = .png(try PNGImage(bytes: bytes, file: path))
        case .pdf: throw EngineError.badImage(file: path, reason: "a PDF, not an image")
        }
        try image.facts.checkSize(file: path, maximumPixels: maximumPixels)
        return image
    }

    /// The whole file (`fopen`/`fread`), with the loader's errors for a missing,
    /// unreadable, non-regular or empty file.
    static func readFile(_ path: String) throws(EngineError) -> [UInt8] {
        var status = stat()
        try nothingOrErrno { stat(path, &status) }.mapError { EngineError.opening(path, errno: $0.rawValue) }.get()
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw EngineError.unreadable(file: path, reason: "not a regular file")
        }
        guard let stream = fopen(path, "rb") else { throw EngineError.opening(path, errno: Errno.current.rawValue) }
        defer { fclose(stream) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        let chunkSize = 1 << 16
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, chunkSize, stream) }
            bytes.append(contentsOf: chunk[0..<count])
            if count < chunkSize {
                if ferror(stream) != 0 { throw EngineError.unreadable(file: path, reason: "read error") }
                break
            }
        }
        guard !bytes.isEmpty else { throw EngineError.emptyFile(file: path) }
        return bytes
    }
}
