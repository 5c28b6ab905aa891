import CPoppler
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A rectangle in pixels, origin at the top left.
package struct PixelRect: Equatable, Hashable, Sendable, Codable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// The pixel size of a `width` × `height` shape scaled to fit in `maxPixels` × `maxPixels`.
package func fittedPixels(width: Double, height: Double, in maxPixels: Int) -> (width: Int, height: Int) {
    guard width > 0, height > 0 else { return (maxPixels, maxPixels) }
    let scale = Double(maxPixels) / max(width, height)
    return (RasterImage.pixels(width * scale) ?? maxPixels, RasterImage.pixels(height * scale) ?? maxPixels)
}

/// How big a rendered picture is: fitted in a square (thumbnails, sheets), or
/// at a resolution, a width or a height (`render`).
package enum PixelSizing: Sendable, Equatable {
    /// The largest size that fits in N × N pixels (`fittedPixels`).
    case fitting(Int)
    /// N pixels an inch: a side of S points is S × N / 72 pixels, rounded up
    /// as poppler's `pdftoppm` and `pdftocairo` round (a whole number stays).
    case dpi(Double)
    /// N pixels wide, the height in proportion (rounded).
    case width(Int)
    /// N pixels high, the width in proportion (rounded).
    case height(Int)

    /// The pixel size of a page `width` × `height` points; nil when it is not
    /// finite or over `RasterImage.maximumSide`.
    package func pixels(width: Double, height: Double) -> (width: Int, height: Int)? {
        guard width > 0, height > 0, width.isFinite, height.isFinite else { return nil }
        switch self {
        case .fitting(let side):
            let fitted = fittedPixels(width: width, height: height, in: side)
            return (fitted.width, fitted.height)
        case .dpi(let dpi):
            // Up, as poppler's tools do, after taking off what a product of
            // decimals adds (612 × 150 / 72 must stay 1275).
            func side(_ points: Double) -> Int? {
                let exact = points * dpi / 72
                return RasterImage.pixels((exact - 1e-6).rounded(.up))
            }
            guard let w = side(width), let h = side(height) else { return nil }
            return (w, h)
        case .width(let pixels):
            guard let h = RasterImage.pixels(Double(pixels) * height / width), pixels <= RasterImage.maximumSide
            else { return nil }
            return (pixels, h)
        case .height(let pixels):
            guard let w = RasterImage.pixels(Double(pixels) * width / height), pixels <= RasterImage.maximumSide
            else { return nil }
            return (w, pixels)
        }
    }

    /// The resolution in dots per inch a file records for a page `width` points
    /// wide drawn `pixels` wide.
    package static func dpi(pixels: Int, points width: Double) -> Double {
        width > 0 ? Double(pixels) * 72 / width : 0
    }
}

extension RasterImage {
    /// Reads a PNG file (`cairo_image_surface_create_from_png`, through libpng).
    package convenience init(png path: String) throws(EngineError) {
        guard let loaded = cairo_image_surface_create_from_png(path) else {
            throw EngineError.unreadable(file: path, reason: "cairo could not read the PNG")
        }
        defer { cairo_surface_destroy(loaded) }
        let status = cairo_surface_status(loaded)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw EngineError.unreadable(file: path, reason: String(cString: cairo_status_to_string(status)))
        }
        try self.init(
            width: Int(cairo_image_surface_get_width(loaded)), height: Int(cairo_image_surface_get_height(loaded)),
            file: path)
        try drawing { cairo in
            cairo_set_source_surface(cairo, loaded, 0, 0)
            cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cairo)
        }
    }

    /// Runs `body` with a cairo context on this image (`cairo_create`), flushed and destroyed afterwards.
    func drawing<T>(_ body: (OpaquePointer) throws(EngineError) -> T) throws(EngineError) -> T {
        guard let cairo = cairo_create(surface) else {
            throw EngineError.library(file: "thumbnail", message: "cairo could not draw on a \(width)x\(height) image")
        }
        guard cairo_status(cairo) == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(cairo)
            throw EngineError.library(file: "thumbnail", message: "cairo could not draw on a \(width)x\(height) image")
        }
        defer {
            cairo_destroy(cairo)
            cairo_surface_flush(surface)
        }
        return try body(cairo)
    }

    /// A copy turned clockwise by `quarterTurns` × 90°, the way an item's rotation
    /// turns its page on export. Exact: whole pixels move, none are resampled.
    package func rotated(quarterTurns: Int) throws(EngineError) -> RasterImage {
        let turns = ((quarterTurns % 4) + 4) % 4
        let swaps = turns % 2 == 1
        let result = try RasterImage(width: swaps ? height : width, height: swaps ? width : height, file: "thumbnail")
        try result.drawing { cairo in
            switch turns {
            case 1:
                cairo_translate(cairo, Double(result.width), 0)
            case 2:
                cairo_translate(cairo, Double(result.width), Double(result.height))
            case 3:
                cairo_translate(cairo, 0, Double(result.height))
            default:
                break
            }
            cairo_rotate(cairo, Double(turns) * Double.pi / 2)
            cairo_set_source_surface(cairo, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_NEAREST)
            cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
            cairo_paint(cairo)
        }
        return result
    }

    /// A picture that is not a rendered page (a blank page, a placeholder, an image
    /// not rendered yet), drawn on its own at the size it would have as a thumbnail.
    package static func picture(_ picture: SheetPicture, fittingIn maxPixels: Int) throws(EngineError) -> RasterImage {
        let size = picture.pixelSize(fittingIn: maxPixels)
        return try Self.picture(picture, width: size.width, height: size.height)
    }

    /// The same picture drawn `width` × `height` pixels large.
    package static func picture(_ picture: SheetPicture, width: Int, height: Int) throws(EngineError) -> RasterImage {
        let size = (width: width, height: height)
        let image = try RasterImage(width: size.width, height: size.height, file: "thumbnail")
        try image.drawing { cairo in
            cairo_set_source_rgb(cairo, 1, 1, 1)
            cairo_paint(cairo)
            SheetDrawing.draw(picture, in: cairo, rect: PixelRect(x: 0, y: 0, width: size.width, height: size.height))
        }
        return image
    }
}

extension RasterImage {
    /// Writes the image as an 8-bit RGB PNG with `PNGEncoder` (several times faster
    /// than `writePNG(to:)` on thumbnails and sheets; alpha is dropped).
    package func writeFastPNG(to path: String) throws(EngineError) {
        if let failure = Files.write(PNGEncoder.encode(surface: surface, width: width, height: height), to: path) {
            throw EngineError.cannotWrite(file: path, reason: failure.description)
        }
    }

    /// The bytes `writeFastPNG(to:)` writes.
    package func fastPNGData() -> Data {
        Data(PNGEncoder.encode(surface: surface, width: width, height: height))
    }
}
