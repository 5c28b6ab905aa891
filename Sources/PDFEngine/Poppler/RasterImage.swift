import CPoppler

/// A cairo ARGB32 image surface, destroyed in `deinit`.
public final class RasterImage {
    let surface: OpaquePointer
    public let width: Int
    public let height: Int

    /// The widest or tallest image cairo makes (`cairo_image_surface_create`
    /// refuses more; the sizes are C ints).
    public static let maximumSide = 32_767

    /// `cairo_image_surface_create`. A size cairo cannot make is refused
    /// (`.overLimit`) before the call, never converted with a trap.
    init(width: Int, height: Int, file: String) throws(EngineError) {
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw EngineError.overLimit(
                file: file, page: nil,
                what: "an image of \(width) x \(height) pixels (at most \(Self.maximumSide) on a side)")
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw EngineError.library(file: file, message: "cannot allocate a \(width)x\(height) image")
        }
        self.surface = surface
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(surface) }

    /// `cairo_surface_write_to_png`; the caller chooses the (temporary) path.
    public func writePNG(to path: String) throws(EngineError) {
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw EngineError.cannotWrite(file: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }

    /// The pixel at (x, y) as 0xRRGGBB (alpha ignored; pages are rendered on white).
    public func rgb(x: Int, y: Int) -> UInt32 {
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface), x >= 0, y >= 0, x < width, y < height else { return 0 }
        let pixel = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        return pixel & 0x00FF_FFFF
    }
}

extension RasterImage {
    /// The smallest pixel rectangle (inclusive x0, y0, x1, y1) holding every
    /// pixel darker than `luminance` (0…255, Rec. 601 weights) inside `area`
    /// (the whole image when nil); nil when there is none.
    public func darkBounds(below luminance: Int, in area: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil)
        -> (x0: Int, y0: Int, x1: Int, y1: Int)?
    {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let stride = Int(cairo_image_surface_get_stride(surface))
        let x0 = max(0, area?.x0 ?? 0)
        let y0 = max(0, area?.y0 ?? 0)
        let x1 = min(width - 1, area?.x1 ?? width - 1)
        let y1 = min(height - 1, area?.y1 ?? height - 1)
        guard x0 <= x1, y0 <= y1 else { return nil }
        let limit = luminance * 1000
        var found: (x0: Int, y0: Int, x1: Int, y1: Int)?
        for y in y0...y1 {
            let row = data.advanced(by: y * stride).withMemoryRebound(to: UInt32.self, capacity: width) { $0 }
            for x in x0...x1 {
                let pixel = Int(row[x])
                let red = (pixel >> 16) & 0xFF
                let green = (pixel >> 8) & 0xFF
                let blue = pixel & 0xFF
                guard red * 299 + green * 587 + blue * 114 < limit else { continue }
                if let box = found {
                    found = (min(box.x0, x), min(box.y0, y), max(box.x1, x), max(box.y1, y))
                } else {
                    found = (x, y, x, y)
                }
            }
        }
        return found
    }
}
