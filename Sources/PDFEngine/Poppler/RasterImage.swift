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
